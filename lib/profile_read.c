/*
 * Reading a whole indexed profile into a struct mip_profile, through the
 * view (profile_view.c), which checked every entry when it opened the file
 * (profile_check.c), as it does for every reader. The heap part is then
 * put in its canonical form.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "edge_counts.h"
#include "heap.h"
#include "mipfmt.h"

static void read_strings(struct mip_profile *p, const struct mip_view *v) {
  const struct mip_view_table *s = &v->tables[MIP_PROF_STRINGS];
  mip_buf_append(&p->strings, s->data, s->count);
}

static int read_functions(struct mip_profile *p, const struct mip_view *v,
                          struct mip_error *err) {
  size_t count = mip_view_count(v, MIP_PROF_FUNCTIONS);
  p->functions = mip_xcalloc(count, sizeof *p->functions);
  for (size_t i = 0; i < count; i++) {
    if (mip_view_function(v, i, &p->functions[i], err))
      return -1;
    p->function_count = i + 1;
  }
  return 0;
}

static int read_blocks(struct mip_profile *p, const struct mip_view *v,
                       struct mip_error *err) {
  p->block_count = mip_view_count(v, MIP_PROF_BLOCK_TABLE);
  p->dep_count = mip_view_count(v, MIP_PROF_DEPS);
  p->blocks = mip_xcalloc(p->block_count, sizeof *p->blocks);
  p->deps = mip_xcalloc(p->dep_count, sizeof *p->deps);
  for (size_t i = 0; i < p->dep_count; i++)
    p->deps[i] = mip_view_dep(v, i);
  for (size_t i = 0; i < p->block_count; i++)
    if (mip_view_block(v, i, &p->blocks[i], err))
      return -1;
  return 0;
}

static int read_edges(struct mip_profile *p, const struct mip_view *v,
                      struct mip_error *err) {
  p->edge_count = mip_view_count(v, MIP_PROF_EDGES);
  p->edges = mip_xcalloc(p->edge_count, sizeof *p->edges);
  for (size_t i = 0; i < p->edge_count; i++)
    if (mip_view_edge(v, i, &p->edges[i], err))
      return -1;
  mip_view_stat(v, MIP_STAT_EDGE_PERIOD, &p->edge_period);
  mip_view_stat(v, MIP_STAT_EDGE_SAMPLES_DROPPED, &p->edge_samples_dropped);
  struct mip_heap_stats *h = &p->heap_stats;
  mip_view_stat(v, MIP_STAT_HEAP_UNSEEN_FREES, &h->unseen_frees);
  mip_view_stat(v, MIP_STAT_HEAP_FREED_UNSEEN, &h->freed_unseen);
  mip_view_stat(v, MIP_STAT_HEAP_TRUNCATED_STACKS, &h->truncated_stacks);
  mip_view_stat(v, MIP_STAT_HEAP_DROPPED, &h->dropped);
  mip_view_stat(v, MIP_STAT_HEAP_STACK_DEPTH, &h->stack_depth);
  mip_view_stat(v, MIP_STAT_HEAP_UNINTERPOSED, &h->uninterposed);
  mip_view_stat(v, MIP_STAT_HEAP_LIVE_UNINTERPOSED, &h->live_uninterposed);
  mip_view_stat(v, MIP_STAT_HEAP_SAMPLE_BYTES, &h->sample_bytes);
  mip_view_stat(v, MIP_STAT_HEAP_UNCOUNTED, &h->uncounted);
  return 0;
}

static void read_symbols(struct mip_profile *p, const struct mip_view *v) {
  p->symbol_count = mip_view_count(v, MIP_PROF_SYMBOLS);
  p->symbols = mip_xcalloc(p->symbol_count, sizeof *p->symbols);
  for (size_t i = 0; i < p->symbol_count; i++)
    p->symbols[i] = mip_view_symbol(v, i);
}

/* ---- heap ----------------------------------------------------------- */

static int read_heap_sites(struct mip_profile *p, const struct mip_view *v,
                           struct mip_error *err) {
  size_t n = mip_view_count(v, MIP_PROF_HEAP_SITES);
  p->heap_sites = mip_xcalloc(n ? n : 1, sizeof *p->heap_sites);
  for (size_t i = 0; i < n; i++) {
    struct mip_heap_site *s = &p->heap_sites[i];
    if (mip_view_heap_site(v, i, s, err))
      return -1;
    p->heap_site_count = i + 1;
  }
  return 0;
}

static int read_heap_frames(struct mip_profile *p, const struct mip_view *v,
                            struct mip_error *err) {
  p->heap_frame_count = mip_view_count(v, MIP_PROF_HEAP_FRAMES);
  p->heap_frames = mip_xcalloc(p->heap_frame_count, sizeof *p->heap_frames);
  for (size_t i = 0; i < p->heap_frame_count; i++)
    if (mip_view_heap_frame(v, i, &p->heap_frames[i], err))
      return -1;
  p->heap_stack_count = mip_view_count(v, MIP_PROF_HEAP_STACKS);
  p->heap_stack = mip_xcalloc(p->heap_stack_count, sizeof *p->heap_stack);
  for (size_t i = 0; i < p->heap_stack_count; i++)
    if (mip_view_heap_stack(v, i, &p->heap_stack[i], err))
      return -1;
  return 0;
}

static int read_heap_contexts(struct mip_profile *p, const struct mip_view *v,
                              struct mip_error *err) {
  size_t n = mip_view_count(v, MIP_PROF_HEAP_CONTEXTS);
  p->heap_contexts = mip_xcalloc(n, sizeof *p->heap_contexts);
  for (size_t i = 0; i < n; i++) {
    if (mip_view_heap_context(v, i, &p->heap_contexts[i], err))
      return -1;
    p->heap_context_count = i + 1;
  }
  return 0;
}

static void read_heap_timeline(struct mip_profile *p, const struct mip_view *v) {
  p->heap_peak_count = mip_view_count(v, MIP_PROF_HEAP_PEAKS);
  p->heap_point_count = mip_view_count(v, MIP_PROF_HEAP_TIMELINE);
  p->heap_peaks = mip_xcalloc(p->heap_peak_count ? p->heap_peak_count : 1,
                              sizeof *p->heap_peaks);
  p->heap_points = mip_xcalloc(p->heap_point_count ? p->heap_point_count : 1,
                               sizeof *p->heap_points);
  for (size_t i = 0; i < p->heap_peak_count; i++)
    mip_view_heap_peak(v, i, &p->heap_peaks[i]);
  for (size_t i = 0; i < p->heap_point_count; i++)
    mip_view_heap_point(v, i, &p->heap_points[i]);
}

static int read_heap(struct mip_profile *p, const struct mip_view *v,
                     struct mip_error *err) {
  if (mip_data_read(p, v, err) || mip_edge_counts_read(p, v, err) ||
      read_heap_sites(p, v, err))
    return -1;
  p->heap_strings_at = mip_heap_strings_start(p);
  if (!v->has_heap)
    return 0;
  p->has_heap = 1;
  if (read_heap_frames(p, v, err) || read_heap_contexts(p, v, err))
    return -1;
  read_heap_timeline(p, v);
  mip_heap_normalize(p);
  return 0;
}

int mip_profile_read_view(const struct mip_view *v, struct mip_profile *p,
                          struct mip_error *err) {
  memset(p, 0, sizeof *p);
  p->modes = v->modes;
  p->runs = v->runs;
  p->build_id = v->build_id;
  memcpy(p->extents, v->extents, sizeof p->extents);
  p->extent_count = v->extent_count;
  read_strings(p, v);
  if (read_functions(p, v, err) || read_blocks(p, v, err) ||
      read_edges(p, v, err) || read_heap(p, v, err))
    return -1;
  read_symbols(p, v);
  return 0;
}

int mip_profile_read(const char *path, struct mip_profile *p,
                     struct mip_error *err) {
  memset(p, 0, sizeof *p);
  struct mip_view v;
  if (mip_view_open(path, &v, err))
    return -1;
  int rc = mip_profile_read_view(&v, p, err);
  mip_view_close(&v);
  return rc;
}

int mip_profile_parse(struct mip_file *file, const char *path,
                      struct mip_profile *p, struct mip_error *err) {
  memset(p, 0, sizeof *p);
  struct mip_view v;
  if (mip_view_parse(file, path, &v, err))
    return -1;
  int rc = mip_profile_read_view(&v, p, err);
  mip_view_close(&v);
  return rc;
}
