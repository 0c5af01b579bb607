/*
 * Every entry of an indexed profile, checked when it is opened: one
 * validator for every reader. mip_profile_read (merge, show, order) and
 * the view's own users (annotate, and the compiler at -fmip-use, which
 * read only what one translation unit needs) then accept and refuse the
 * same files, with the same message, whichever entries they go on to
 * read. Structure first (through the view's accessors, which check one
 * entry each), then what only the whole profile shows (blocks that depend
 * on another function's, counters outside their sections, heap sites out
 * of order), then numbers that contradict each other, which no run and no
 * merge can produce.
 */
#include <inttypes.h>

#include "data.h"
#include "edge_counts.h"
#include "heap.h"
#include "mipfmt.h"

#define CORRUPT(v, err, ...) mip_fail(err, (v)->path, "corrupt profile: " __VA_ARGS__)

/* Each of f's counters lies inside its section, so a merge can add to
 * them without checking again. */
static int check_counters(const struct mip_view *v, uint64_t i,
                          const struct mip_profile_function *f,
                          struct mip_error *err) {
  static const uint32_t kinds[] = {MIP_RAW_COV, MIP_RAW_CNT, MIP_RAW_ORD,
                                   MIP_RAW_BLK};
  const uint64_t offsets[] = {f->cov_offset, f->cnt_offset, f->ord_offset,
                              f->probe_offset};
  for (size_t k = 0; k < 4; k++) {
    if (offsets[k] == MIP_NO_OFFSET && kinds[k] != MIP_RAW_COV)
      continue;
    const struct mip_extent *e =
        mip_extent_find(v->extents, v->extent_count, kinds[k]);
    uint64_t elem = kinds[k] == MIP_RAW_BLK ? 0 : (e ? e->elem_size : 1);
    if (!e || offsets[k] > e->size || elem > e->size - offsets[k])
      return CORRUPT(v, err,
                     "counters of function %" PRIu64
                     " lie outside their section",
                     i);
  }
  return 0;
}

/* Numbers of f that no run can give: more runs than the profile has, a
 * count or rank without the entry ever covered. */
static int check_function_numbers(const struct mip_view *v, uint64_t i,
                                  const struct mip_profile_function *f,
                                  struct mip_error *err) {
  if (f->covered_runs > v->runs)
    return CORRUPT(v, err,
                   "function %" PRIu64 " ran in %" PRIu64 " runs of %" PRIu64,
                   i, f->covered_runs, v->runs);
  if (f->ranked_runs > f->covered_runs)
    return CORRUPT(v, err,
                   "function %" PRIu64 " was ranked in %" PRIu64
                   " runs but ran in %" PRIu64,
                   i, f->ranked_runs, f->covered_runs);
  if (f->calls && !f->covered_runs)
    return CORRUPT(v, err, "function %" PRIu64 " has %" PRIu64 " calls but never ran",
                   i, f->calls);
  return 0;
}

/* f's blocks: each readable, depending only on blocks of f, run in no
 * more runs than the profile has. */
static int check_blocks(const struct mip_view *v, uint64_t i,
                        const struct mip_profile_function *f,
                        struct mip_error *err) {
  for (uint32_t b = 0; b < f->block_count; b++) {
    struct mip_block blk;
    if (mip_view_block(v, (uint64_t)f->first_block + b, &blk, err))
      return -1;
    for (uint32_t d = 0; d < blk.dep_count; d++)
      if (mip_view_dep(v, (uint64_t)blk.dep_first + d) >= f->block_count)
        return CORRUPT(v, err,
                       "a block of function %" PRIu64
                       " depends on another function's",
                       i);
    if (blk.covered_runs > v->runs)
      return CORRUPT(v, err,
                     "a block of function %" PRIu64 " ran in %" PRIu64
                     " runs of %" PRIu64,
                     i, blk.covered_runs, v->runs);
  }
  return 0;
}

static int check_functions(const struct mip_view *v, struct mip_error *err) {
  uint64_t n = mip_view_count(v, MIP_PROF_FUNCTIONS);
  for (uint64_t i = 0; i < n; i++) {
    struct mip_profile_function f;
    if (mip_view_function(v, i, &f, err) || check_counters(v, i, &f, err) ||
        check_function_numbers(v, i, &f, err) || check_blocks(v, i, &f, err))
      return -1;
  }
  return 0;
}

/* Every block of the table readable and run in no more runs than the
 * profile has, those no function's range takes too: the whole-profile
 * reader reads them all, and a merge writes them all (where a function's
 * range may take them). */
static int check_block_table(const struct mip_view *v, struct mip_error *err) {
  uint64_t n = mip_view_count(v, MIP_PROF_BLOCK_TABLE);
  for (uint64_t i = 0; i < n; i++) {
    struct mip_block b;
    if (mip_view_block(v, i, &b, err))
      return -1;
    if (b.covered_runs > v->runs)
      return CORRUPT(v, err,
                     "block %" PRIu64 " of the table ran in %" PRIu64
                     " runs of %" PRIu64,
                     i, b.covered_runs, v->runs);
  }
  return 0;
}

static int check_edges(const struct mip_view *v, struct mip_error *err) {
  uint64_t n = mip_view_count(v, MIP_PROF_EDGES);
  for (uint64_t i = 0; i < n; i++) {
    struct mip_edge e;
    if (mip_view_edge(v, i, &e, err))
      return -1;
  }
  return 0;
}

static int check_heap_sites(const struct mip_view *v, struct mip_error *err) {
  uint64_t n = mip_view_count(v, MIP_PROF_HEAP_SITES), last = 0;
  for (uint64_t i = 0; i < n; i++) {
    struct mip_heap_site s;
    if (mip_view_heap_site(v, i, &s, err))
      return -1;
    if (i && s.site_offset <= last)
      return mip_fail(err, v->path, "corrupt profile: heap sites out of order");
    last = s.site_offset;
  }
  return 0;
}

/* A MemInfoBlock whose fields contradict each other (MemProf's merge
 * keeps every one of these true). */
static int check_mib(const struct mip_view *v, uint64_t i,
                     const struct mip_mib *m, struct mip_error *err) {
  char why[256];
  if (mip_mib_check(m, why, sizeof why))
    return CORRUPT(v, err, "heap context %" PRIu64 " has %s", i, why);
  return 0;
}

static int check_heap(const struct mip_view *v, struct mip_error *err) {
  if (!v->has_heap)
    return 0;
  uint64_t n = mip_view_count(v, MIP_PROF_HEAP_FRAMES);
  for (uint64_t i = 0; i < n; i++) {
    struct mip_heap_frame f;
    if (mip_view_heap_frame(v, i, &f, err))
      return -1;
  }
  n = mip_view_count(v, MIP_PROF_HEAP_STACKS);
  for (uint64_t i = 0; i < n; i++) {
    uint32_t frame;
    if (mip_view_heap_stack(v, i, &frame, err))
      return -1;
  }
  n = mip_view_count(v, MIP_PROF_HEAP_CONTEXTS);
  for (uint64_t i = 0; i < n; i++) {
    struct mip_heap_context c;
    if (mip_view_heap_context(v, i, &c, err) || check_mib(v, i, &c.mib, err))
      return -1;
  }
  return 0;
}

int mip_view_check_all(const struct mip_view *v, struct mip_error *err) {
  return check_functions(v, err) || check_block_table(v, err) ||
                 check_edges(v, err) || check_heap_sites(v, err) ||
                 check_heap(v, err) || mip_view_check_data(v, err) ||
                 mip_view_check_edge_counts(v, err)
             ? -1
             : 0;
}
