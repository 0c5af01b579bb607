/*
 * The counters of a pooled file: per element, its total over the runs
 * (docs/formats.md, "Pooled raw profiles"), which is what `mipdata merge`
 * adds up from the runs' files one by one:
 *
 *   COV, SITE  the runs that set the byte
 *   CNT        the calls, summed (saturating)
 *   DATA       the accesses, summed (saturating)
 *   BCNT       the edge counts, summed (saturating)
 *   ORD        the sum of the ranks and the runs that ranked the function
 *   BLK        the distinct coverage patterns (which functions were
 *              entered, which probes set) with the runs that had each:
 *              a block without a probe ran when any of its dependencies
 *              did, so its runs follow from whole patterns, not from a
 *              count per probe
 *
 * The file found may hold totals, one run (a plain raw profile of the
 * same image), or nothing yet; this run is a plain raw profile.
 */
#include "merge.h"
#include "mip/layouts.h"

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* One kind of counters in a view: a run's counters, or totals. */
struct counters {
  const struct mip_rt_section *s; /* NULL: none */
  int pooled;
  int zero_set; /* a run's COV bytes with MIP_RAW_COV_ZERO: 0 is "set" */
  uint64_t count; /* elements */
  struct mip_rec_raw_pool_blocks blocks; /* pooled BLK: its header */
};

static int another_build(struct mip_rt_merge *m) {
  return mip_rt_why_set(&m->why, "it holds the profile of another build "
                                 "(other counters)", NULL);
}

static int bad_totals(struct mip_rt_merge *m) {
  return mip_rt_why_set(&m->why, "it is not a valid raw profile (counter "
                                 "totals no set of runs can give)", NULL);
}

static int find(struct mip_rt_merge *m, const struct mip_rt_view *v,
                uint32_t kind, struct counters *c) {
  *c = (struct counters){.pooled = v->pooled,
                         .zero_set = kind == MIP_RAW_COV && v->cov_zero};
  c->s = mip_rt_view_find(v, v->pooled ? MIP_RAW_POOL_BASE + kind : kind);
  if (!c->s)
    return 0;
  uint32_t elem = v->pooled ? mip_raw_pool_total_size(kind) : mip_raw_counter_size(kind);
  if (c->s->elem_size != elem)
    return bad_totals(m);
  c->count = c->s->size / elem;
  if (!v->pooled || kind != MIP_RAW_BLK)
    return 0;
  if (c->s->size < mip_rec_raw_pool_blocks_size)
    return bad_totals(m);
  mip_rec_raw_pool_blocks_decode(&c->blocks, c->s->data);
  c->count = c->blocks.blk_size;
  return 0;
}

/* ---- totals ------------------------------------------------------------ */

/* Whether a run's byte i is set (COV: its function entered). */
static int is_set(const struct counters *c, uint64_t i) {
  return (c->s->data[i] != 0) != c->zero_set;
}

/* Runs that set byte i (COV, SITE). */
static uint64_t runs_of(const struct counters *c, uint64_t i) {
  if (!c->s)
    return 0;
  return c->pooled ? mip_get_le64(c->s->data + 8 * i) : (uint64_t)is_set(c, i);
}

/* Calls of counter i: a run's counter counts down from 0. */
static uint64_t calls_of(const struct counters *c, uint64_t i) {
  if (!c->s)
    return 0;
  uint64_t v = mip_get_le64(c->s->data + 8 * i);
  return c->pooled ? v : 0 - v;
}

/* Counter i of a kind that counts up (DATA's accesses, BCNT's edge
 * counts): a run's counter holds what its total does. */
static uint64_t sum_of(const struct counters *c, uint64_t i) {
  return c->s ? mip_get_le64(c->s->data + 8 * i) : 0;
}

static struct mip_rec_raw_pool_rank rank_of(const struct counters *c,
                                            uint64_t i) {
  struct mip_rec_raw_pool_rank r = {0, 0};
  if (c->s && c->pooled) {
    mip_rec_raw_pool_rank_decode(&r, c->s->data + 16 * i);
  } else if (c->s) {
    r.rank_sum = mip_get_le32(c->s->data + 4 * i);
    r.ranked_runs = r.rank_sum != 0;
  }
  return r;
}

static int merge_totals(struct mip_rt_merge *m, uint32_t kind,
                        const struct counters *old,
                        const struct counters *run) {
  uint32_t elem = mip_raw_pool_total_size(kind);
  uint8_t *out = mip_rt_merge_payload(m, MIP_RAW_POOL_BASE + kind, elem,
                                      run->s->link_addr, run->count * elem);
  if (!out)
    return -1;
  uint64_t runs = m->old.present ? m->old.runs : 0;
  for (uint64_t i = 0; i < run->count; i++) {
    uint8_t *at = out + i * elem;
    if (kind == MIP_RAW_CNT) {
      mip_put_le64(at, add_saturating(calls_of(old, i), calls_of(run, i)));
    } else if (kind == MIP_RAW_DATA || kind == MIP_RAW_BCNT) {
      mip_put_le64(at, add_saturating(sum_of(old, i), sum_of(run, i)));
    } else if (kind == MIP_RAW_ORD) {
      struct mip_rec_raw_pool_rank a = rank_of(old, i), b = rank_of(run, i);
      if (a.ranked_runs > runs || a.rank_sum < a.ranked_runs)
        return bad_totals(m);
      a.rank_sum = add_saturating(a.rank_sum, b.rank_sum);
      a.ranked_runs += b.ranked_runs;
      mip_rec_raw_pool_rank_encode(&a, at);
    } else {
      uint64_t before = runs_of(old, i);
      if (before > runs)
        return bad_totals(m);
      mip_put_le64(at, before + runs_of(run, i));
    }
  }
  return 0;
}

/* ---- coverage patterns ------------------------------------------------- */

static uint64_t pattern_size(uint64_t cov, uint64_t blk) {
  return mip_rec_raw_pool_pattern_size + (((cov + blk + 7) / 8 + 7) & ~7ULL);
}

/* A run's pattern: its COV bytes, then its BLK bytes, as bits. */
static void pattern_of(const struct counters *cov, const struct counters *blk,
                       uint8_t *out) {
  mip_put_le64(out, 1);
  uint8_t *bits = out + mip_rec_raw_pool_pattern_size;
  for (uint64_t i = 0; i < cov->count + blk->count; i++)
    if (i < cov->count ? is_set(cov, i) : blk->s->data[i - cov->count] != 0)
      bits[i / 8] |= (uint8_t)(1u << (i % 8));
}

/* Whether the runs of the patterns that enter function i are the runs
 * the COV totals say entered it (as mipdata checks: lib/raw_pool.c). */
static int patterns_agree(const struct counters *old_cov, const uint8_t *first,
                          uint64_t count, uint64_t size) {
  for (uint64_t i = 0; i < old_cov->count; i++) {
    uint64_t entered = 0;
    for (uint64_t p = 0; p < count; p++) {
      const uint8_t *at = first + p * size;
      const uint8_t *bits = at + mip_rec_raw_pool_pattern_size;
      if ((bits[i / 8] >> (i % 8)) & 1)
        entered += mip_get_le64(at);
    }
    if (entered != runs_of(old_cov, i))
      return 0;
  }
  return 1;
}

/* The patterns of a pooled file, checked: their number, or -1. */
static int64_t old_patterns(struct mip_rt_merge *m, const struct counters *blk,
                            const struct counters *old_cov, uint64_t cov_count,
                            uint64_t size) {
  const struct mip_rec_raw_pool_blocks *h = &blk->blocks;
  uint64_t body = blk->s->size - mip_rec_raw_pool_blocks_size;
  if (h->cov_size != cov_count || h->pattern_count > body / size ||
      h->pattern_count * size != body)
    return bad_totals(m);
  const uint8_t *at = blk->s->data + mip_rec_raw_pool_blocks_size;
  uint64_t runs = 0;
  for (uint64_t i = 0; i < h->pattern_count; i++, at += size) {
    uint64_t n = mip_get_le64(at);
    if (n == 0 || n > m->old.runs - runs)
      return bad_totals(m);
    runs += n;
  }
  if (runs != m->old.runs ||
      !patterns_agree(old_cov, blk->s->data + mip_rec_raw_pool_blocks_size,
                      h->pattern_count, size))
    return bad_totals(m);
  return (int64_t)h->pattern_count;
}

static int same_bits(const uint8_t *a, const uint8_t *b, uint64_t size) {
  for (uint64_t i = mip_rec_raw_pool_pattern_size; i < size; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

static int merge_patterns(struct mip_rt_merge *m, const struct counters *cov,
                          const struct counters *old_cov,
                          const struct counters *old, const struct counters *run) {
  uint64_t size = pattern_size(cov->count, run->count);
  int64_t n = 0;
  if (old->s && old->pooled &&
      (n = old_patterns(m, old, old_cov, cov->count, size)) < 0)
    return -1;
  uint64_t most = (uint64_t)n + 2; /* a file of one run's, and this run's */
  uint8_t *out = mip_rt_merge_payload(m, MIP_RAW_POOL_BLK, 8, run->s->link_addr,
                                      mip_rec_raw_pool_blocks_size + most * size);
  if (!out)
    return -1;
  uint8_t *patterns = out + mip_rec_raw_pool_blocks_size;
  if (old->s && old->pooled)
    mip_copy_bytes(patterns, old->s->data + mip_rec_raw_pool_blocks_size,
                   (uint64_t)n * size);
  else if (old->s)
    pattern_of(old_cov, old, patterns + size * (uint64_t)n++);
  uint8_t *mine = patterns + size * (uint64_t)n;
  pattern_of(cov, run, mine);
  for (int64_t i = 0; i < n; i++) {
    uint8_t *p = patterns + size * (uint64_t)i;
    if (same_bits(p, mine, size)) {
      mip_put_le64(p, mip_get_le64(p) + 1);
      mine = NULL;
      break;
    }
  }
  if (mine)
    n++;
  struct mip_rec_raw_pool_blocks h = {(uint64_t)n, cov->count, run->count};
  mip_rec_raw_pool_blocks_encode(&h, out);
  m->out[m->out_count - 1].size = mip_rec_raw_pool_blocks_size + (uint64_t)n * size;
  return 0;
}

/* ---- all kinds --------------------------------------------------------- */

int mip_rt_merge_counters(struct mip_rt_merge *m) {
  static const uint32_t kinds[] = {MIP_RAW_COV, MIP_RAW_CNT, MIP_RAW_ORD,
                                   MIP_RAW_BLK, MIP_RAW_SITE, MIP_RAW_DATA,
                                   MIP_RAW_BCNT};
  enum { KINDS = sizeof kinds / sizeof kinds[0] };
  struct counters old[KINDS], run[KINDS];
  for (size_t k = 0; k < KINDS; k++) {
    if (find(m, &m->old, kinds[k], &old[k]) || find(m, &m->run, kinds[k], &run[k]))
      return -1;
    /* The same arrays, where the linker put them in this image. */
    if (m->old.present &&
        (!old[k].s != !run[k].s ||
         (run[k].s && (old[k].s->link_addr != run[k].s->link_addr ||
                       old[k].count != run[k].count))))
      return another_build(m);
  }
  if (!run[0].s)
    return mip_rt_why_set(&m->why, "this image has no coverage counters", NULL);
  for (size_t k = 0; k < KINDS; k++) {
    if (!run[k].s)
      continue;
    if (kinds[k] == MIP_RAW_BLK ? merge_patterns(m, &run[0], &old[0], &old[k], &run[k])
                                : merge_totals(m, kinds[k], &old[k], &run[k]))
      return -1;
  }
  return 0;
}
