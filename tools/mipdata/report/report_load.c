/*
 * Building the report model (report.h) from a profile: one read of the
 * file, through the view the compiler reads, which checked every entry;
 * names demangled once per function, site and frame.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "path.h"
#include "report.h"

static const char *str(const struct report *r, uint32_t offset) {
  return mip_profile_string(&r->profile, offset);
}

/* A string of the profile, NULL when empty (unknown). */
static const char *str_or_null(const struct report *r, uint32_t offset) {
  const char *s = str(r, offset);
  return *s ? s : NULL;
}

static void load_function(struct report *r, uint32_t i,
                          struct report_function *f) {
  const struct mip_profile *p = &r->profile;
  const struct mip_profile_function *pf = &p->functions[i];
  f->index = i;
  f->name = str(r, pf->name);
  f->demangled = demangle(f->name);
  f->unit = (pf->flags & MIP_FN_LOCAL) ? report_tidy_name(r, str(r, pf->unit))
                                        : NULL;
  f->cfg_hash = pf->cfg_hash;
  f->runs = pf->covered_runs;
  f->counted = pf->cnt_offset != MIP_NO_OFFSET;
  f->calls = f->counted ? pf->calls : 0;
  f->ranked = pf->ord_offset != MIP_NO_OFFSET && pf->ranked_runs > 0;
  f->order = f->ranked ? (double)pf->rank_sum / (double)pf->ranked_runs : 0;
  f->order_runs = pf->ranked_runs;
  f->blocks = pf->block_count ? &p->blocks[pf->first_block] : NULL;
  f->block_count = pf->block_count;
  f->temperature = MIP_TEMP_UNKNOWN;
  f->entry = pf->entry;
}

/* "malloc", ... as mip/allocators.inc names it; "allocator N" for a kind
 * this build does not know. */
static void name_allocator(uint32_t allocator, char *out, size_t size) {
  const char *name = mip_allocator_name(allocator);
  if (name)
    snprintf(out, size, "%s", name);
  else
    snprintf(out, size, "allocator %" PRIu32, allocator);
}

static void load_site(struct report *r, uint32_t i, struct report_site *s) {
  const struct mip_heap_site *hs = &r->profile.heap_sites[i];
  s->index = i;
  s->instrumented = &r->functions[hs->function];
  s->function = str(r, hs->name);
  s->demangled = demangle(s->function);
  s->file = report_tidy_name(r, str_or_null(r, hs->file));
  s->line = hs->line;
  s->column = hs->column;
  s->allocator = hs->allocator;
  name_allocator(hs->allocator, s->allocator_name, sizeof s->allocator_name);
}

static void load_frame(struct report *r, const struct mip_heap_frame *hf,
                       struct report_frame *f) {
  f->function = str(r, hf->function);
  f->demangled = demangle(f->function);
  f->file = report_tidy_name(r, str_or_null(r, hf->file));
  f->line = hf->line;
  f->column = hf->column;
  f->inlined = (hf->flags & MIP_FRAME_INLINED) != 0;
  f->outside = (hf->flags & MIP_FRAME_OUTSIDE) != 0;
  f->object = report_tidy_name(r, str_or_null(r, hf->object));
}

/* Contexts are sorted by site (MIP_NO_SITE last): each site's are one
 * run of them. */
static void load_context(struct report *r, uint32_t i,
                         struct report_context *c) {
  const struct mip_profile *p = &r->profile;
  const struct mip_heap_context *hc = &p->heap_contexts[i];
  c->index = i;
  c->site = hc->site == MIP_NO_SITE ? NULL : &r->sites[hc->site];
  c->stack = p->heap_stack + hc->first_frame;
  c->depth = hc->frame_count;
  c->truncated = (hc->flags & MIP_CONTEXT_TRUNCATED) != 0;
  c->mib = hc->mib;
  if (r->profile.heap_stats.sample_bytes) /* estimates from here on */
    mip_mib_estimate(&c->mib);
  mip_mib_stats(&c->mib, &c->stats);
  c->alloc_class = MIP_CLASS_NOTCOLD;
  if (c->site) {
    struct report_site *s = &r->sites[hc->site];
    if (!s->context_count)
      s->first_context = i;
    s->context_count++;
  }
}

static void load_edges(struct report *r) {
  const struct mip_profile *p = &r->profile;
  r->edge_count = p->edge_count;
  r->edges = mip_xcalloc(r->edge_count + 1, sizeof *r->edges);
  for (size_t i = 0; i < r->edge_count; i++) {
    const struct mip_edge *e = &p->edges[i];
    r->edges[i] = (struct report_edge){
        e->caller == MIP_NO_FUNCTION ? NULL : &r->functions[e->caller],
        &r->functions[e->callee], e->samples};
  }
  r->edge_period = p->edge_period;
  r->edge_samples_dropped = p->edge_samples_dropped;
}

static void load_stats(struct report *r) {
  const struct mip_heap_stats *h = &r->profile.heap_stats;
  r->stats.heap = *h;
  r->stats.blocks = 0;
  for (size_t i = 0; i < r->context_count; i++)
    r->stats.blocks += r->contexts[i].mib.v[MIP_MIBI_AllocCount];
  /* Blocks whose death MIP could not see (docs/heap.md, "Lifetimes"). */
  r->stats.unknown_lifetimes = h->freed_unseen + h->live_uninterposed;
  if (r->stats.unknown_lifetimes > r->stats.blocks)
    r->stats.blocks = r->stats.unknown_lifetimes;
}

const char *report_heap_note(const struct report *r, char *buf,
                             size_t size) {
  uint64_t rate = r->stats.heap.sample_bytes;
  if (!size)
    return buf;
  buf[0] = '\0';
  int n = 0;
  if (rate)
    n = snprintf(buf, size, "sampled (heap_sample=%" PRIu64 "): estimates",
                 rate);
  if (r->stats.heap.uncounted && n >= 0 && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n, "%saccesses not counted (heap-allocs)",
             n ? "; " : "");
  return buf;
}

/* A sampled profile's peaks and timeline as estimates: the recorded
 * blocks' bytes scaled by what all of them stand for over what they are
 * (SampleBytes over TotalSize), their blocks likewise. Before the
 * profile's contexts go; counts the recorded blocks. */
static void estimate_timeline(struct report *r) {
  struct mip_profile *p = &r->profile;
  if (!p->heap_stats.sample_bytes)
    return;
  double size = 0, bytes = 0, count = 0, weight = 0;
  for (size_t i = 0; i < p->heap_context_count; i++) {
    const uint64_t *v = p->heap_contexts[i].mib.v;
    size += (double)v[MIP_MIBI_TotalSize];
    bytes += (double)v[MIP_MIBI_SampleBytes];
    count += (double)v[MIP_MIBI_AllocCount];
    weight += (double)v[MIP_MIBI_SampleWeight] / MIP_MIB_SAMPLE_ONE;
  }
  r->stats.recorded_blocks = (uint64_t)count;
  double by_byte = size ? bytes / size : 1, by_block = count ? weight / count : 1;
  for (size_t i = 0; i < p->heap_peak_count; i++) {
    p->heap_peaks[i].bytes = (uint64_t)((double)p->heap_peaks[i].bytes * by_byte + 0.5);
    p->heap_peaks[i].blocks = (uint64_t)((double)p->heap_peaks[i].blocks * by_block + 0.5);
  }
  for (size_t i = 0; i < p->heap_point_count; i++) {
    p->heap_points[i].bytes = (uint64_t)((double)p->heap_points[i].bytes * by_byte + 0.5);
    p->heap_points[i].blocks = (uint64_t)((double)p->heap_points[i].blocks * by_block + 0.5);
  }
}

static void load(struct report *r) {
  const struct mip_profile *p = &r->profile;
  mip_build_id_hex(&p->build_id, r->build_id, sizeof r->build_id);
  r->runs = p->runs;
  r->counted = mip_profile_has(p, MIP_RAW_CNT);
  r->ordered = mip_profile_has(p, MIP_RAW_ORD);
  r->block_count = p->block_count;
  r->has_block_counts = mip_profile_has(p, MIP_RAW_BCNT);
  r->block_counted = p->edge_counts_count;
  r->has_heap = p->has_heap;
  r->function_count = p->function_count;
  r->functions = mip_xcalloc(r->function_count + 1, sizeof *r->functions);
  for (size_t i = 0; i < r->function_count; i++)
    load_function(r, (uint32_t)i, &r->functions[i]);
  load_edges(r);
  r->site_count = p->heap_site_count;
  r->sites = mip_xcalloc(r->site_count + 1, sizeof *r->sites);
  for (size_t i = 0; i < r->site_count; i++)
    load_site(r, (uint32_t)i, &r->sites[i]);
  r->frame_count = p->heap_frame_count;
  r->frames = mip_xcalloc(r->frame_count + 1, sizeof *r->frames);
  for (size_t i = 0; i < r->frame_count; i++)
    load_frame(r, &p->heap_frames[i], &r->frames[i]);
  r->context_count = p->heap_context_count;
  r->contexts = mip_xcalloc(r->context_count + 1, sizeof *r->contexts);
  for (size_t i = 0; i < r->context_count; i++)
    load_context(r, (uint32_t)i, &r->contexts[i]);
  estimate_timeline(r);
  /* Each context's MemInfoBlock is the model's now: the profile's copy
   * goes (profiles have contexts by the hundred thousand, and diff holds
   * two). The contexts are read, after this, from the model only. */
  free(r->profile.heap_contexts);
  r->profile.heap_contexts = NULL;
  load_stats(r);
  r->hot_threshold = UINT64_MAX;
  report_key_all(r);
}

/* The model of the profile r->view holds. */
static int load_view(struct report *r, struct mip_error *err) {
  if (mip_profile_read_view(&r->view, &r->profile, err)) {
    mip_profile_free(&r->profile);
    mip_view_close(&r->view);
    return -1;
  }
  load(r);
  return 0;
}

int report_open(const char *path, struct report *r, struct mip_error *err) {
  memset(r, 0, sizeof *r);
  r->path = path;
  if (mip_view_open(path, &r->view, err))
    return -1;
  return load_view(r, err);
}

int report_parse(struct mip_file *file, const char *path, struct report *r,
                 struct mip_error *err) {
  memset(r, 0, sizeof *r);
  r->path = path;
  if (mip_view_parse(file, path, &r->view, err))
    return -1;
  return load_view(r, err);
}

static void free_keys(char **key) {
  for (int k = 0; k < REPORT_KEYS; k++)
    free(key[k]);
}

void report_free(struct report *r) {
  for (size_t i = 0; i < r->function_count; i++) {
    free(r->functions[i].demangled);
    free(r->functions[i].file);
    free_keys(r->functions[i].key);
  }
  for (size_t i = 0; i < r->site_count; i++) {
    free(r->sites[i].demangled);
    free_keys(r->sites[i].key);
  }
  for (size_t i = 0; i < r->frame_count; i++)
    free(r->frames[i].demangled);
  for (size_t i = 0; i < r->context_count; i++)
    free_keys(r->contexts[i].key);
  for (size_t i = 0; i < r->name_count; i++)
    free(r->names[i]);
  free(r->names);
  free(r->root);
  free(r->path_hits);
  free(r->functions);
  free(r->edges);
  free(r->sites);
  free(r->frames);
  free(r->contexts);
  mip_profile_free(&r->profile);
  mip_view_close(&r->view);
  memset(r, 0, sizeof *r);
}

void report_locate(struct report *r, const struct report_locator *l) {
  for (size_t i = 0; i < r->function_count; i++) {
    struct report_function *f = &r->functions[i];
    const char *file;
    uint32_t line;
    free(f->file);
    f->file = NULL;
    f->line = 0;
    if (l->lookup(l->ctx, f->entry, &file, &line) == 0) {
      f->file = mip_xstrdup(file);
      mip_path_tidy(f->file);
      f->line = line;
    }
  }
  r->located = 1;
  report_key_all(r);
}

void report_drop_view(struct report *r) { mip_view_close(&r->view); }

int report_decide(struct report *r, const struct mip_decide_options *o,
                  struct mip_error *err) {
  if (!r->view.data)
    return mip_fail(err, r->path, "cannot decide: the profile was let go");
  r->decide = *o;
  memset(r->temperatures, 0, sizeof r->temperatures);
  if (mip_view_hot_threshold(&r->view, o->hot_share, &r->hot_threshold, err))
    return -1;
  const struct mip_profile *p = &r->profile;
  for (size_t i = 0; i < r->function_count; i++) {
    struct report_function *f = &r->functions[i];
    f->temperature =
        mip_function_temperature(&p->functions[i], r->runs, r->hot_threshold);
    r->temperatures[f->temperature]++;
  }
  for (size_t i = 0; i < r->site_count; i++)
    if (mip_view_site_decision(&r->view, (uint32_t)i, o, &r->sites[i].decision,
                               err))
      return -1;
  for (size_t i = 0; i < r->context_count; i++)
    r->contexts[i].alloc_class =
        mip_view_context_class(&r->view, &r->contexts[i].mib, o);
  r->decided = 1;
  return 0;
}

void report_keep_contexts(struct report *r, const uint8_t *keep) {
  for (size_t i = 0; i < r->site_count; i++)
    r->sites[i].first_context = r->sites[i].context_count = 0;
  size_t n = 0;
  for (size_t i = 0; i < r->context_count; i++) {
    struct report_context *c = &r->contexts[i];
    if (!keep[i]) {
      free_keys(c->key);
      continue;
    }
    r->contexts[n] = *c;
    struct report_site *s = (struct report_site *)c->site;
    if (s && !s->context_count++)
      s->first_context = n;
    n++;
  }
  r->context_count = n;
  load_stats(r);
}

const char *report_frame_object(const struct report_frame *f) {
  return f->outside ? f->function : f->object;
}
