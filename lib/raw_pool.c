/*
 * Pooled raw profiles (docs/runtime.md, "Pooled profiles"): a file into
 * which the runtime merged many runs of one image holds, instead of each
 * counter section, its totals over the runs (MIP_RAW_POOL_*), and the
 * distinct coverage patterns of the runs when the image has block probes,
 * which is what block coverage needs (a block without a probe ran in a
 * run when any of its dependencies did: a count per probe cannot say in
 * how many runs that was). Everything is checked here, with the numbers
 * no set of runs can give, so merging never meets a bad total.
 */
#include <inttypes.h>
#include <string.h>

#include "mip/layouts.h"
#include "mipfmt.h"

#define CORRUPT(path, err, ...)                                                \
  mip_fail(err, path, "corrupt raw profile: " __VA_ARGS__)

static int check_runs(const uint8_t *data, uint64_t count, uint64_t runs,
                      const char *what, const char *path,
                      struct mip_error *err) {
  for (uint64_t i = 0; i < count; i++)
    if (mip_get_le64(data + 8 * i) > runs)
      return CORRUPT(path, err,
                     "%s %" PRIu64 " ran in %" PRIu64 " runs of %" PRIu64, what,
                     i, mip_get_le64(data + 8 * i), runs);
  return 0;
}

static int check_ranks(const uint8_t *data, uint64_t count, uint64_t runs,
                       const char *path, struct mip_error *err) {
  for (uint64_t i = 0; i < count; i++) {
    struct mip_rec_raw_pool_rank r;
    mip_rec_raw_pool_rank_decode(&r, data + i * mip_rec_raw_pool_rank_size);
    /* every rank is at least 1 */
    if (r.ranked_runs > runs || r.rank_sum < r.ranked_runs ||
        (r.ranked_runs == 0) != (r.rank_sum == 0))
      return CORRUPT(path, err,
                     "rank slot %" PRIu64 " sums %" PRIu64 " over %" PRIu64
                     " runs of %" PRIu64,
                     i, r.rank_sum, r.ranked_runs, runs);
  }
  return 0;
}

/* The totals of counter kind: their payload, checked, and the extent of
 * the counters they stand for. */
static int read_totals(struct mip_raw *raw, uint32_t kind, const char *path,
                       struct mip_error *err) {
  const struct mip_raw_payload *s = mip_raw_find(raw, MIP_RAW_POOL_BASE + kind);
  if (!s)
    return 0;
  if (s->extent.elem_size != mip_raw_pool_total_size(kind))
    return CORRUPT(path, err, "totals of kind %" PRIu32 " in entries of %" PRIu32
                              " bytes",
                   kind, s->extent.elem_size);
  uint64_t count = s->extent.size / mip_raw_pool_total_size(kind);
  int rc = 0;
  if (kind == MIP_RAW_COV) {
    raw->pool.cov = s->data;
    rc = check_runs(s->data, count, raw->runs, "function", path, err);
  } else if (kind == MIP_RAW_SITE) {
    raw->pool.site = s->data;
    rc = check_runs(s->data, count, raw->runs, "heap site", path, err);
  } else if (kind == MIP_RAW_CNT) {
    raw->pool.cnt = s->data;
  } else if (kind == MIP_RAW_DATA || kind == MIP_RAW_BCNT) {
    /* Any sums of accesses or edge counts are possible: nothing to check.
     * The profile reads them from the payload (data_profile.c,
     * edge_counts.c). */
  } else {
    raw->pool.ord = s->data;
    rc = check_ranks(s->data, count, raw->runs, path, err);
  }
  raw->extents[raw->extent_count++] = (struct mip_extent){
      kind, mip_raw_counter_size(kind), s->extent.link_addr,
      count * mip_raw_counter_size(kind)};
  return rc;
}

static int bit(const uint8_t *bits, uint64_t i) {
  return (bits[i / 8] >> (i % 8)) & 1;
}

/* Every pattern counts, their runs add up to the file's, and the runs
 * that entered each function are those the COV totals say. */
static int check_patterns(const struct mip_raw_pool *pool, uint64_t runs,
                          const char *path, struct mip_error *err) {
  uint64_t sum = 0;
  for (uint64_t p = 0; p < pool->pattern_count; p++) {
    uint64_t n = mip_get_le64(pool->patterns + p * pool->pattern_size);
    if (n == 0 || n > runs - sum)
      return CORRUPT(path, err,
                     "block pattern %" PRIu64 " adds up to more runs than %" PRIu64,
                     p, runs);
    sum += n;
  }
  if (sum != runs)
    return CORRUPT(path, err,
                   "block patterns hold %" PRIu64 " runs of %" PRIu64, sum,
                   runs);
  for (uint64_t i = 0; i < pool->cov_size; i++) {
    uint64_t entered = 0;
    for (uint64_t p = 0; p < pool->pattern_count; p++) {
      const uint8_t *at = pool->patterns + p * pool->pattern_size;
      if (bit(at + mip_rec_raw_pool_pattern_size, i))
        entered += mip_get_le64(at);
    }
    if (entered != mip_get_le64(pool->cov + 8 * i))
      return CORRUPT(path, err,
                     "block patterns enter function %" PRIu64 " in %" PRIu64
                     " runs, its total says %" PRIu64,
                     i, entered, mip_get_le64(pool->cov + 8 * i));
  }
  return 0;
}

static int read_patterns(struct mip_raw *raw, const char *path,
                         struct mip_error *err) {
  const struct mip_raw_payload *s = mip_raw_find(raw, MIP_RAW_POOL_BLK);
  if (!s)
    return 0;
  const struct mip_extent *cov = mip_raw_extent(raw, MIP_RAW_COV);
  uint64_t size = s->extent.size;
  if (s->extent.elem_size != 8 || size < mip_rec_raw_pool_blocks_size)
    return CORRUPT(path, err, "truncated block patterns (%" PRIu64 " bytes)",
                   size);
  struct mip_rec_raw_pool_blocks h;
  mip_rec_raw_pool_blocks_decode(&h, s->data);
  uint64_t body = size - mip_rec_raw_pool_blocks_size;
  /* Each pattern has a bit per byte of both counters: neither can have
   * more bytes than the payload has bits. */
  if (h.cov_size != cov->size || h.blk_size > body * 8 || h.blk_size == 0)
    return CORRUPT(path, err,
                   "block patterns of %" PRIu64 " COV and %" PRIu64
                   " BLK bytes, for %" PRIu64 " COV bytes",
                   h.cov_size, h.blk_size, cov->size);
  uint64_t pattern_size = mip_rec_raw_pool_pattern_size +
                          (((h.cov_size + h.blk_size + 7) / 8 + 7) & ~7ULL);
  if (h.pattern_count > body / pattern_size ||
      h.pattern_count * pattern_size != body)
    return CORRUPT(path, err,
                   "%" PRIu64 " block patterns of %" PRIu64
                   " bytes in %" PRIu64 " bytes",
                   h.pattern_count, pattern_size, body);
  raw->pool.patterns = s->data + mip_rec_raw_pool_blocks_size;
  raw->pool.pattern_count = h.pattern_count;
  raw->pool.pattern_size = pattern_size;
  raw->pool.cov_size = h.cov_size;
  raw->pool.blk_size = h.blk_size;
  raw->extents[raw->extent_count++] =
      (struct mip_extent){MIP_RAW_BLK, 1, s->extent.link_addr, h.blk_size};
  return check_patterns(&raw->pool, raw->runs, path, err);
}

int mip_raw_pool_parse(struct mip_raw *raw, const char *path,
                       struct mip_error *err) {
  for (size_t i = 0; i < raw->section_count; i++)
    if (raw->sections[i].extent.kind < MIP_RAW_EDGES)
      return CORRUPT(path, err,
                     "counters of kind %" PRIu32 " in a pooled file",
                     raw->sections[i].extent.kind);
  if (!mip_raw_find(raw, MIP_RAW_POOL_COV))
    return CORRUPT(path, err, "a pooled file without coverage totals");
  static const uint32_t kinds[] = {MIP_RAW_COV, MIP_RAW_CNT, MIP_RAW_ORD,
                                   MIP_RAW_SITE, MIP_RAW_DATA, MIP_RAW_BCNT};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    if (read_totals(raw, kinds[k], path, err))
      return -1;
  return read_patterns(raw, path, err);
}
