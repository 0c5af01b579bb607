/*
 * Adding runs to an indexed profile. Everything adds (saturating), edges
 * are kept sorted with duplicates summed, heap contexts are combined and
 * kept in one canonical form (heap_profile.c), so the result does not
 * depend on the order of the inputs: any merge tree gives the same bytes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "mip/le.h"
#include "data.h"
#include "edge_counts.h"
#include "heap.h"

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- same build? ---------------------------------------------------- */

static int check_same_build(const struct mip_profile *p, const char *p_path,
                            const struct mip_build_id *id,
                            const char *other_path, struct mip_error *err) {
  if (!p->build_id.size || !id->size || mip_build_id_equal(&p->build_id, id))
    return 0;
  char mine[2 * MIP_BUILD_ID_MAX + 1], theirs[2 * MIP_BUILD_ID_MAX + 1];
  return mip_fail(err, other_path,
                  "from another build: build-id %s, but %s is for build-id %s",
                  mip_build_id_hex(id, theirs, sizeof theirs), p_path,
                  mip_build_id_hex(&p->build_id, mine, sizeof mine));
}

static int check_extent(const struct mip_extent *want,
                        const struct mip_extent *have, const char *p_path,
                        const char *other_path, struct mip_error *err) {
  if (!have)
    return mip_fail(err, other_path,
                    "has no counters of kind %" PRIu32 " that %s expects",
                    want->kind, p_path);
  if (have->link_addr != want->link_addr || have->size != want->size ||
      have->elem_size != want->elem_size)
    return mip_fail(err, other_path,
                    "from another build: its counters (kind %" PRIu32
                    ", %" PRIu64 " bytes at 0x%" PRIx64
                    ") do not match %s (%" PRIu64 " bytes at 0x%" PRIx64 ")",
                    want->kind, have->size, have->link_addr, p_path,
                    want->size, want->link_addr);
  return 0;
}

/* ---- edges ---------------------------------------------------------- */

static int by_caller_callee(const void *a, const void *b) {
  const struct mip_edge *x = a, *y = b;
  if (x->caller != y->caller)
    return x->caller < y->caller ? -1 : 1;
  return (x->callee > y->callee) - (x->callee < y->callee);
}

/* Sorts and sums duplicates: the one form edges are kept in. */
static void normalize_edges(struct mip_profile *p) {
  if (!p->edge_count)
    return;
  qsort(p->edges, p->edge_count, sizeof *p->edges, by_caller_callee);
  size_t out = 0;
  for (size_t i = 0; i < p->edge_count; i++) {
    if (out && !by_caller_callee(&p->edges[out - 1], &p->edges[i]))
      p->edges[out - 1].samples =
          add_saturating(p->edges[out - 1].samples, p->edges[i].samples);
    else
      p->edges[out++] = p->edges[i];
  }
  p->edge_count = out;
}

static void append_edges(struct mip_profile *p, const struct mip_edge *edges,
                         size_t count) {
  if (!count)
    return;
  p->edges = mip_xrealloc(p->edges, p->edge_count + count, sizeof *p->edges);
  memcpy(p->edges + p->edge_count, edges, count * sizeof *edges);
  p->edge_count += count;
  normalize_edges(p);
}

/* Functions sorted by an address (coverage offset or entry), for
 * looking them up by it. */
struct by_addr {
  uint64_t addr;
  uint32_t function;
};

static int compare_addr(const void *a, const void *b) {
  const struct by_addr *x = a, *y = b;
  return (x->addr > y->addr) - (x->addr < y->addr);
}

static struct by_addr *index_functions(const struct mip_profile *p, int entry) {
  struct by_addr *index = mip_xcalloc(p->function_count, sizeof *index);
  for (size_t i = 0; i < p->function_count; i++)
    index[i] = (struct by_addr){entry ? p->functions[i].entry
                                      : p->functions[i].cov_offset,
                                (uint32_t)i};
  if (p->function_count)
    qsort(index, p->function_count, sizeof *index, compare_addr);
  return index;
}

/* The last entry of index at or below addr, or NULL. */
static const struct by_addr *at_or_below(const struct by_addr *index,
                                         size_t count, uint64_t addr) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (index[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? &index[lo - 1] : NULL;
}

/* The instrumented function whose code holds address site. With the
 * image's symbols, exactly: the symbol holding site must start where an
 * instrumented function does. Without them (a map from a bare section),
 * the nearest instrumented function below. */
static uint32_t function_at(const struct mip_profile *p,
                            const struct by_addr *entries, uint64_t site) {
  uint64_t start = site;
  if (p->symbol_count) {
    const struct mip_symbol *s =
        mip_symbol_at_or_below(p->symbols, p->symbol_count, site);
    if (!s || site - s->addr >= s->size)
      return MIP_NO_FUNCTION;
    start = s->addr;
  }
  const struct by_addr *f = at_or_below(entries, p->function_count, start);
  if (!f || (p->symbol_count && f->addr != start))
    return MIP_NO_FUNCTION;
  return f->function;
}

/* Resolves a raw EDGES payload into edges between functions. */
static int resolve_edges(const struct mip_profile *p,
                         const struct mip_raw_payload *payload,
                         struct mip_edge **out, size_t *count,
                         const char *raw_path, struct mip_error *err) {
  *out = NULL;
  *count = 0;
  if (!payload)
    return 0;
  const struct mip_extent *cov =
      mip_extent_find(p->extents, p->extent_count, MIP_RAW_COV);
  if (payload->extent.elem_size < mip_rec_raw_edge_size)
    return mip_fail(err, raw_path, "corrupt raw profile: bad edge entries");
  size_t n = payload->extent.size / payload->extent.elem_size;
  struct mip_edge *edges = mip_xcalloc(n, sizeof *edges);
  struct by_addr *by_cov = index_functions(p, 0);
  struct by_addr *by_entry = index_functions(p, 1);
  int rc = 0;
  size_t kept = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    struct mip_rec_raw_edge e;
    mip_rec_raw_edge_decode(&e, payload->data + i * payload->extent.elem_size);
    /* A free slot of a table mapped in continuous mode, or one being
     * claimed when the process died: nothing sampled. */
    if (!e.samples || !e.callee)
      continue;
    const struct by_addr *callee =
        e.callee >= cov->link_addr
            ? at_or_below(by_cov, p->function_count, e.callee - cov->link_addr)
            : NULL;
    if (!callee || callee->addr != e.callee - cov->link_addr)
      rc = mip_fail(err, raw_path,
                    "corrupt raw profile: an edge's callee is no function");
    else
      edges[kept++] = (struct mip_edge){
          e.site ? function_at(p, by_entry, e.site) : MIP_NO_FUNCTION,
          callee->function, e.samples};
  }
  free(by_cov);
  free(by_entry);
  if (rc) {
    free(edges);
    return -1;
  }
  *out = edges;
  *count = kept;
  return 0;
}

static void add_stats(struct mip_profile *p,
                      const struct mip_raw_payload *stats) {
  size_t n = stats && stats->extent.elem_size >= mip_rec_raw_stat_size
                 ? stats->extent.size / stats->extent.elem_size
                 : 0;
  for (size_t i = 0; i < n; i++) {
    struct mip_rec_raw_stat s;
    mip_rec_raw_stat_decode(&s, stats->data + i * stats->extent.elem_size);
    if (s.key == MIP_STAT_EDGE_PERIOD)
      p->edge_period = s.value;
    else if (s.key == MIP_STAT_EDGE_SAMPLES_DROPPED)
      p->edge_samples_dropped =
          add_saturating(p->edge_samples_dropped, s.value);
  }
}

/* ---- one run -------------------------------------------------------- */

struct run {
  const uint8_t *cov, *cnt, *ord, *blk;
  uint64_t blk_size;
  int cov_zero; /* MIP_RAW_COV_ZERO: a COV byte of 0 means entered */
};

static const uint8_t *counters(const struct mip_raw *raw, uint32_t kind,
                               uint64_t *size) {
  const struct mip_raw_payload *s = mip_raw_find(raw, kind);
  if (size)
    *size = s ? s->extent.size : 0;
  return s ? s->data : NULL;
}

static void add_blocks(struct mip_profile *p, struct mip_profile_function *f,
                       const struct run *run, int entered) {
  if (!f->block_count)
    return;
  uint8_t *covered = mip_xcalloc(f->block_count, 1);
  const uint8_t *probes = NULL;
  uint64_t probe_count = 0;
  if (f->probe_offset != MIP_NO_OFFSET && run->blk &&
      f->probe_offset <= run->blk_size) {
    probes = run->blk + f->probe_offset;
    probe_count = run->blk_size - f->probe_offset;
  }
  struct mip_block *blocks = &p->blocks[f->first_block];
  mip_blocks_infer(blocks, f->block_count, p->deps, probes, probe_count,
                   entered, covered);
  for (uint32_t i = 0; i < f->block_count; i++)
    blocks[i].covered_runs += covered[i];
  free(covered);
}

static void add_function_run(struct mip_profile *p,
                             struct mip_profile_function *f,
                             const struct run *run) {
  /* The counter counts down from 0: it holds minus the calls. */
  uint64_t calls = f->cnt_offset != MIP_NO_OFFSET && run->cnt
                       ? 0 - mip_get_le64(run->cnt + f->cnt_offset)
                       : 0;
  uint32_t rank = f->ord_offset != MIP_NO_OFFSET && run->ord
                      ? mip_get_le32(run->ord + f->ord_offset)
                      : 0;
  /* A function with calls or a rank ran, whatever its coverage byte says:
   * a thread entering it counts the call before it marks the byte, and a
   * dump can come in between. (A profile with calls or ranks in runs that
   * never entered the function is one every reader refuses.) */
  int entered =
      (run->cov[f->cov_offset] != 0) != run->cov_zero || calls || rank;
  f->covered_runs = add_saturating(f->covered_runs, (uint64_t)entered);
  f->calls = add_saturating(f->calls, calls);
  if (rank) {
    f->rank_sum = add_saturating(f->rank_sum, rank);
    f->ranked_runs = add_saturating(f->ranked_runs, 1);
  }
  add_blocks(p, f, run, entered);
}

/* ---- pooled runs ---------------------------------------------------- */

/* The totals of a pooled raw profile, added as the runs they hold. */
static void add_function_totals_of(struct mip_profile_function *f,
                                   const struct mip_raw_pool *pool) {
  uint64_t entered = mip_get_le64(pool->cov + 8 * f->cov_offset), calls = 0;
  if (f->cnt_offset != MIP_NO_OFFSET && pool->cnt) {
    calls = mip_get_le64(pool->cnt + f->cnt_offset);
    f->calls = add_saturating(f->calls, calls);
  }
  if (f->ord_offset != MIP_NO_OFFSET && pool->ord) {
    struct mip_rec_raw_pool_rank r;
    mip_rec_raw_pool_rank_decode(
        &r, pool->ord + f->ord_offset / 4 * mip_rec_raw_pool_rank_size);
    f->rank_sum = add_saturating(f->rank_sum, r.rank_sum);
    f->ranked_runs = add_saturating(f->ranked_runs, r.ranked_runs);
    if (r.ranked_runs > entered)
      entered = r.ranked_runs;
  }
  /* As for one run: calls or a rank mean the function ran, whatever the
   * coverage bytes said (a run can be dumped between the call's count and
   * its byte); the runs with a rank ran it, and with calls at least one. */
  if (calls && !entered)
    entered = 1;
  f->covered_runs = add_saturating(f->covered_runs, entered);
}

static int pattern_bit(const uint8_t *bits, uint64_t i) {
  return (bits[i / 8] >> (i % 8)) & 1;
}

/* Each distinct pattern of the pool is a run of one file repeated as
 * often as the pattern counts: its blocks worked out as for that run. */
static void add_pooled_blocks(struct mip_profile *p,
                              struct mip_profile_function *f,
                              const struct mip_raw_pool *pool) {
  if (!f->block_count || !pool->patterns)
    return;
  struct mip_block *blocks = &p->blocks[f->first_block];
  /* The probes its blocks read, as a run's file would give them. */
  uint64_t probe_count = 0, used = 0;
  if (f->probe_offset != MIP_NO_OFFSET && f->probe_offset <= pool->blk_size)
    probe_count = pool->blk_size - f->probe_offset;
  for (uint32_t i = 0; i < f->block_count; i++)
    if (blocks[i].probe < MIP_PROBE_ENTRY && blocks[i].probe >= used)
      used = (uint64_t)blocks[i].probe + 1;
  if (probe_count > used)
    probe_count = used;
  uint8_t *probes = mip_xcalloc(probe_count + 1, 1);
  uint8_t *covered = mip_xcalloc(f->block_count, 1);
  for (uint64_t n = 0; n < pool->pattern_count; n++) {
    const uint8_t *at = pool->patterns + n * pool->pattern_size;
    uint64_t runs = mip_get_le64(at);
    const uint8_t *bits = at + mip_rec_raw_pool_pattern_size;
    for (uint64_t i = 0; i < probe_count; i++)
      probes[i] = (uint8_t)pattern_bit(bits, pool->cov_size + f->probe_offset + i);
    mip_blocks_infer(blocks, f->block_count, p->deps, probes, probe_count,
                     pattern_bit(bits, f->cov_offset), covered);
    for (uint32_t i = 0; i < f->block_count; i++)
      if (covered[i])
        blocks[i].covered_runs = add_saturating(blocks[i].covered_runs, runs);
  }
  free(probes);
  free(covered);
}

int mip_profile_add_raw(struct mip_profile *p, const char *p_path,
                        const struct mip_raw *raw, const char *raw_path,
                        struct mip_error *err) {
  return mip_profile_add_run(p, p_path, raw, raw_path, NULL, err);
}

int mip_profile_add_run(struct mip_profile *p, const char *p_path,
                        const struct mip_raw *raw, const char *raw_path,
                        const struct mip_symbolizer *symbolizer,
                        struct mip_error *err) {
  if (check_same_build(p, p_path, &raw->build_id, raw_path, err))
    return -1;
  for (size_t i = 0; i < p->extent_count; i++)
    if (check_extent(&p->extents[i], mip_raw_extent(raw, p->extents[i].kind),
                     p_path, raw_path, err))
      return -1;
  struct mip_edge *edges;
  size_t edge_count;
  if (resolve_edges(p, mip_raw_find(raw, MIP_RAW_EDGES), &edges, &edge_count,
                    raw_path, err))
    return -1;
  /* The heap part fails, if at all, before it changes anything. */
  if (mip_heap_add_raw(p, raw, raw_path, symbolizer, err)) {
    free(edges);
    return -1;
  }
  /* Checked: from here on nothing fails. */
  struct run run;
  run.cov = counters(raw, MIP_RAW_COV, NULL);
  run.cov_zero = raw->cov_zero;
  run.cnt = counters(raw, MIP_RAW_CNT, NULL);
  run.ord = counters(raw, MIP_RAW_ORD, NULL);
  run.blk = counters(raw, MIP_RAW_BLK, &run.blk_size);
  for (size_t i = 0; i < p->function_count; i++) {
    struct mip_profile_function *f = &p->functions[i];
    if (raw->pooled) {
      add_function_totals_of(f, &raw->pool);
      add_pooled_blocks(p, f, &raw->pool);
    } else {
      add_function_run(p, f, &run);
    }
  }
  mip_data_add_raw(p, raw);
  mip_edge_counts_add_raw(p, raw);
  append_edges(p, edges, edge_count);
  free(edges);
  add_stats(p, mip_raw_find(raw, MIP_RAW_STATS));
  p->runs = add_saturating(p->runs, raw->runs);
  return 0;
}

/* ---- another profile ------------------------------------------------ */

static int same_functions(const struct mip_profile *a,
                          const struct mip_profile *b) {
  if (a->function_count != b->function_count ||
      a->block_count != b->block_count)
    return 0;
  for (size_t i = 0; i < a->function_count; i++)
    if (a->functions[i].cov_offset != b->functions[i].cov_offset ||
        a->functions[i].cfg_hash != b->functions[i].cfg_hash ||
        a->functions[i].block_count != b->functions[i].block_count ||
        strcmp(mip_profile_string(a, a->functions[i].key),
               mip_profile_string(b, b->functions[i].key)))
      return 0;
  return 1;
}

static void add_function_totals(struct mip_profile_function *to,
                                const struct mip_profile_function *from) {
  to->covered_runs = add_saturating(to->covered_runs, from->covered_runs);
  to->calls = add_saturating(to->calls, from->calls);
  to->rank_sum = add_saturating(to->rank_sum, from->rank_sum);
  to->ranked_runs = add_saturating(to->ranked_runs, from->ranked_runs);
}

int mip_profile_add_profile(struct mip_profile *p, const char *p_path,
                            const struct mip_profile *other,
                            const char *other_path, struct mip_error *err) {
  if (check_same_build(p, p_path, &other->build_id, other_path, err))
    return -1;
  for (size_t i = 0; i < p->extent_count; i++)
    if (check_extent(&p->extents[i],
                     mip_extent_find(other->extents, other->extent_count,
                                     p->extents[i].kind),
                     p_path, other_path, err))
      return -1;
  if (!same_functions(p, other))
    return mip_fail(err, other_path,
                    "from another build: its functions differ from %s",
                    p_path);
  if (!mip_heap_same_sites(p, other))
    return mip_fail(err, other_path,
                    "from another build: its heap sites differ from %s",
                    p_path);
  if (!mip_data_same(p, other))
    return mip_fail(err, other_path,
                    "from another build: its global variables differ from %s",
                    p_path);
  if (!mip_edge_counts_same(p, other))
    return mip_fail(err, other_path,
                    "from another build: its block counts differ from %s",
                    p_path);
  if (mip_heap_sampling_check(p, other->heap_stats.sample_bytes,
                              other->has_heap, other_path, err))
    return -1;
  for (size_t i = 0; i < p->function_count; i++)
    add_function_totals(&p->functions[i], &other->functions[i]);
  for (size_t i = 0; i < p->block_count; i++)
    p->blocks[i].covered_runs =
        add_saturating(p->blocks[i].covered_runs, other->blocks[i].covered_runs);
  append_edges(p, other->edges, other->edge_count);
  if (other->edge_period)
    p->edge_period = other->edge_period;
  p->edge_samples_dropped =
      add_saturating(p->edge_samples_dropped, other->edge_samples_dropped);
  mip_heap_add_profile(p, other);
  mip_data_add_profile(p, other);
  mip_edge_counts_add_profile(p, other);
  p->runs = add_saturating(p->runs, other->runs);
  return 0;
}
