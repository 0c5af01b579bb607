/*
 * Heap data in indexed profiles: sites from the map, contexts from runs.
 *
 * A raw context names a call stack of runtime return addresses. Each
 * address inside a segment of the profiled image (same build-id), or of
 * another image whose symbolizer was given, becomes the frames the
 * symbolizer gives for link-time address (address - load_bias - 1), the
 * call instruction: the innermost inlined function first, then the
 * functions it was inlined into; another image's frames name their object.
 * An address anywhere else becomes one frame naming the object it is in.
 * Contexts whose site and frames are the same are one context: their
 * MemInfoBlocks combine with mip_mib_merge, which does not care about
 * order, and everything is kept in one canonical form
 * (mip_heap_normalize), so the bytes of a profile do not depend on the
 * order of the runs merged into it.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "intern.h"
#include "mip/le.h"

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

/* ---- sites ----------------------------------------------------------- */

struct by_cov {
  uint64_t cov_offset;
  uint32_t function;
};

static int compare_cov(const void *a, const void *b) {
  const struct by_cov *x = a, *y = b;
  return (x->cov_offset > y->cov_offset) - (x->cov_offset < y->cov_offset);
}

void mip_heap_sites_from_map(const struct mip_map *map, struct mip_profile *p) {
  const struct mip_extent *sites =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_SITE);
  const struct mip_extent *cov =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_COV);
  if (map->heap_site_count && sites && cov) {
    struct by_cov *index = mip_xcalloc(p->function_count, sizeof *index);
    for (size_t i = 0; i < p->function_count; i++)
      index[i] = (struct by_cov){p->functions[i].cov_offset, (uint32_t)i};
    qsort(index, p->function_count, sizeof *index, compare_cov);
    struct mip_interner strings;
    mip_interner_init(&strings, &p->strings, p->strings.size);
    p->heap_sites = mip_xcalloc(map->heap_site_count, sizeof *p->heap_sites);
    for (size_t i = 0; i < map->heap_site_count; i++) {
      const struct mip_map_heap_site *m = &map->heap_sites[i];
      /* The map parser saw the function: it is there. */
      struct by_cov key = {m->function - cov->link_addr, 0};
      const struct by_cov *f =
          bsearch(&key, index, p->function_count, sizeof key, compare_cov);
      p->heap_sites[p->heap_site_count++] =
          (struct mip_heap_site){f ? f->function : 0,
                                 mip_intern_path(&strings, m->file),
                                 mip_intern(&strings, m->name),
                                 m->line,
                                 m->column,
                                 m->allocator,
                                 m->site - sites->link_addr};
    }
    mip_interner_free(&strings);
    free(index);
  }
  p->heap_strings_at = p->strings.size;
}

int mip_heap_same_sites(const struct mip_profile *a,
                        const struct mip_profile *b) {
  if (a->heap_site_count != b->heap_site_count)
    return 0;
  for (size_t i = 0; i < a->heap_site_count; i++) {
    const struct mip_heap_site *x = &a->heap_sites[i], *y = &b->heap_sites[i];
    if (x->function != y->function || x->line != y->line ||
        x->column != y->column || x->allocator != y->allocator ||
        x->site_offset != y->site_offset ||
        strcmp(mip_profile_string(a, x->file),
               mip_profile_string(b, y->file)) ||
        strcmp(mip_profile_string(a, x->name), mip_profile_string(b, y->name)))
      return 0;
  }
  return 1;
}

static int compare_site_offset(const void *key, const void *site) {
  uint64_t k = *(const uint64_t *)key;
  uint64_t s = ((const struct mip_heap_site *)site)->site_offset;
  return (k > s) - (k < s);
}

/* The profile's site at a runtime address, through the load bias of the
 * image's segments: MIP_NO_SITE for no site or another image's. */
static int resolve_site(const struct mip_profile *p,
                        const struct mip_raw_heap *h, uint64_t site,
                        uint32_t *out, const char *raw_path,
                        struct mip_error *err) {
  *out = MIP_NO_SITE;
  const struct mip_extent *ext =
      mip_extent_find(p->extents, p->extent_count, MIP_RAW_SITE);
  if (!site || !ext || !p->build_id.size)
    return 0;
  for (size_t i = 0; i < h->segment_count; i++) {
    const struct mip_raw_heap_segment *seg = &h->segments[i];
    if (!mip_build_id_equal(&seg->build_id, &p->build_id))
      continue;
    uint64_t link = site - seg->load_bias;
    if (link < ext->link_addr || link - ext->link_addr >= ext->size)
      continue;
    uint64_t offset = link - ext->link_addr;
    const struct mip_heap_site *s =
        p->heap_site_count ? bsearch(&offset, p->heap_sites, p->heap_site_count,
                                     sizeof *p->heap_sites, compare_site_offset)
                           : NULL;
    if (!s)
      return mip_fail(err, raw_path,
                      "corrupt raw profile: a heap context names the site "
                      "byte at 0x%" PRIx64 " of the image, which its map "
                      "does not list",
                      link);
    *out = (uint32_t)(s - p->heap_sites);
    return 0;
  }
  return 0;
}

/* ---- frames: one index per distinct frame ----------------------------- */

struct frame_table {
  struct mip_profile *p;
  size_t frames_cap; /* of p->heap_frames */
  uint32_t *slots;   /* index + 1; 0: empty */
  size_t cap;
};

static uint64_t hash_frame(const struct mip_heap_frame *f) {
  uint64_t h = mix(mix(0, f->function), f->file);
  return mix(mix(mix(mix(h, f->line), f->column), f->flags), f->object);
}

static int same_frame(const struct mip_heap_frame *a,
                      const struct mip_heap_frame *b) {
  return a->function == b->function && a->file == b->file &&
         a->line == b->line && a->column == b->column &&
         a->flags == b->flags && a->object == b->object;
}

static void frame_place(struct frame_table *t, uint32_t index) {
  size_t i = hash_frame(&t->p->heap_frames[index]) & (t->cap - 1);
  while (t->slots[i])
    i = (i + 1) & (t->cap - 1);
  t->slots[i] = index + 1;
}

/* Rehashes every frame into a table of at least twice their number. */
static void frame_table_rehash(struct frame_table *t) {
  if (!t->cap)
    t->cap = 256;
  while (t->cap < 2 * (t->p->heap_frame_count + 1))
    t->cap *= 2;
  free(t->slots);
  t->slots = mip_xcalloc(t->cap, sizeof *t->slots);
  for (size_t i = 0; i < t->p->heap_frame_count; i++)
    frame_place(t, (uint32_t)i);
}

static void frame_table_init(struct frame_table *t, struct mip_profile *p) {
  memset(t, 0, sizeof *t);
  t->p = p;
  t->frames_cap = p->heap_frame_count;
  frame_table_rehash(t);
}

static uint32_t frame_add(struct frame_table *t,
                          const struct mip_heap_frame *f) {
  struct mip_profile *p = t->p;
  size_t i = hash_frame(f) & (t->cap - 1);
  for (; t->slots[i]; i = (i + 1) & (t->cap - 1))
    if (same_frame(&p->heap_frames[t->slots[i] - 1], f))
      return t->slots[i] - 1;
  if (p->heap_frame_count == t->frames_cap)
    p->heap_frames =
        mip_xrealloc(p->heap_frames, t->frames_cap = t->frames_cap * 2 + 64,
                     sizeof *p->heap_frames);
  uint32_t index = (uint32_t)p->heap_frame_count++;
  p->heap_frames[index] = *f;
  t->slots[i] = index + 1;
  if (2 * (p->heap_frame_count + 1) > t->cap)
    frame_table_rehash(t);
  return index;
}

/* ---- contexts -------------------------------------------------------- */

/* Growing the stack and context arrays of a profile. */
struct growth {
  size_t stack_cap, context_cap;
};

static void push_frame(struct mip_profile *p, struct growth *g,
                       uint32_t frame) {
  if (p->heap_stack_count == g->stack_cap)
    p->heap_stack =
        mip_xrealloc(p->heap_stack, g->stack_cap = g->stack_cap * 2 + 256,
                     sizeof *p->heap_stack);
  p->heap_stack[p->heap_stack_count++] = frame;
}

static struct mip_heap_context *push_context(struct mip_profile *p,
                                             struct growth *g) {
  if (p->heap_context_count == g->context_cap)
    p->heap_contexts =
        mip_xrealloc(p->heap_contexts, g->context_cap = g->context_cap * 2 + 64,
                     sizeof *p->heap_contexts);
  struct mip_heap_context *c = &p->heap_contexts[p->heap_context_count++];
  memset(c, 0, sizeof *c);
  c->first_frame = (uint32_t)p->heap_stack_count;
  return c;
}

static void add_stats(struct mip_heap_stats *to,
                      const struct mip_heap_stats *from) {
  to->unseen_frees = add_saturating(to->unseen_frees, from->unseen_frees);
  to->freed_unseen = add_saturating(to->freed_unseen, from->freed_unseen);
  to->truncated_stacks =
      add_saturating(to->truncated_stacks, from->truncated_stacks);
  to->dropped = add_saturating(to->dropped, from->dropped);
  to->uninterposed = add_saturating(to->uninterposed, from->uninterposed);
  to->live_uninterposed =
      add_saturating(to->live_uninterposed, from->live_uninterposed);
  if (from->stack_depth > to->stack_depth)
    to->stack_depth = from->stack_depth;
  if (from->sample_bytes > to->sample_bytes)
    to->sample_bytes = from->sample_bytes;
  if (from->uncounted > to->uncounted)
    to->uncounted = from->uncounted;
}

/* ---- sampled and exact runs ------------------------------------------ */

/* An exact run's MemInfoBlock as a sampled one: each block weighs one. */
static void weigh_exact(struct mip_mib *m) {
  m->v[MIP_MIBI_SampleWeight] = m->v[MIP_MIBI_AllocCount] << 16;
  m->v[MIP_MIBI_SampleBytes] = m->v[MIP_MIBI_TotalSize];
}

int mip_heap_sampling_check(const struct mip_profile *p, uint64_t rate,
                            int has_heap, const char *path,
                            struct mip_error *err) {
  if (!p->has_heap || !has_heap || !p->heap_stats.sample_bytes == !rate ||
      p->heap_mix_sampled)
    return 0;
  return mip_fail(err, path,
                  "its heap data is %s, the merge's so far %s: a sampled "
                  "profile's figures are estimates (--mix-sampled merges "
                  "them, each block of an exact run weighing one)",
                  rate ? "sampled" : "exact", rate ? "exact" : "sampled");
}

/* Before a run or profile at rate (0: exact) joins p, once mixing is
 * checked: p's own contexts weighed if it was exact and the other is
 * sampled; whether the other's must be. */
static int weigh_for_mix(struct mip_profile *p, uint64_t rate) {
  if (!p->has_heap)
    return 0;
  if (rate && !p->heap_stats.sample_bytes)
    for (size_t i = 0; i < p->heap_context_count; i++)
      weigh_exact(&p->heap_contexts[i].mib);
  return !rate && p->heap_stats.sample_bytes;
}

/* ---- one run --------------------------------------------------------- */

static const struct mip_raw_heap_segment *
segment_of(const struct mip_raw_heap *h, uint64_t addr) {
  size_t lo = 0, hi = h->segment_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (h->segments[mid].start <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo || addr >= h->segments[lo - 1].end)
    return NULL;
  return &h->segments[lo - 1];
}

static int in_image(const struct mip_profile *p,
                    const struct mip_raw_heap_segment *seg) {
  return seg && p->build_id.size &&
         mip_build_id_equal(&seg->build_id, &p->build_id);
}

/* Who symbolizes the code of a segment: the profile's image's symbolizer,
 * the one given for the segment's image, or nobody (NULL). */
static const struct mip_symbolizer *
symbolizer_of(const struct mip_profile *p, const struct mip_symbolizer *sym,
              const struct mip_raw_heap_segment *seg) {
  if (in_image(p, seg))
    return sym;
  if (!seg || !p->build_id.size || !seg->build_id.size || !sym->image)
    return NULL;
  return sym->image(sym->images, &seg->build_id);
}

/* The name of the object a segment belongs to. */
static const char *object_name(const struct mip_raw_heap_segment *seg) {
  return !seg ? "[unknown]" : seg->path[0] ? seg->path : "[executable]";
}

/* The frames of each distinct return address that some symbolizer knows
 * the image of, found once: addresses sorted, each with its frame
 * indices. */
struct address_frames {
  uint64_t *addrs; /* runtime return addresses */
  uint32_t *first, *count;
  size_t n;
  uint32_t *frames;
};

static int compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static uint64_t lookup_address(uint64_t ret,
                               const struct mip_raw_heap_segment *seg) {
  return ret - seg->load_bias - 1; /* inside the call instruction */
}

/* Every return address of the stacks whose image has a symbolizer,
 * sorted and unique. */
static void collect_addresses(const struct mip_profile *p,
                              const struct mip_raw_heap *h,
                              const struct mip_symbolizer *sym,
                              struct address_frames *out) {
  size_t cap = 0;
  for (size_t i = 0; i < h->context_count; i++) {
    const struct mip_raw_heap_stack *s =
        mip_raw_heap_stack_find(h, h->contexts[i].stack);
    for (uint32_t d = 0; d < s->depth; d++) {
      uint64_t ret = mip_get_le64(s->frames + 8 * (size_t)d);
      if (!symbolizer_of(p, sym, segment_of(h, ret)))
        continue;
      if (out->n == cap)
        out->addrs =
            mip_xrealloc(out->addrs, cap = cap * 2 + 256, sizeof *out->addrs);
      out->addrs[out->n++] = ret;
    }
  }
  if (out->n)
    qsort(out->addrs, out->n, sizeof *out->addrs, compare_u64);
  size_t unique = 0;
  for (size_t i = 0; i < out->n; i++)
    if (!unique || out->addrs[unique - 1] != out->addrs[i])
      out->addrs[unique++] = out->addrs[i];
  out->n = unique;
}

static void
symbolize_addresses(struct mip_profile *p, const struct mip_raw_heap *h,
                    const struct mip_symbolizer *sym,
                    struct mip_interner *strings, struct frame_table *frames,
                    struct address_frames *out) {
  memset(out, 0, sizeof *out);
  collect_addresses(p, h, sym, out);
  out->first = mip_xcalloc(out->n, sizeof *out->first);
  out->count = mip_xcalloc(out->n, sizeof *out->count);
  size_t used = 0, frames_cap = 0;
  for (size_t i = 0; i < out->n; i++) {
    const struct mip_raw_heap_segment *seg = segment_of(h, out->addrs[i]);
    const struct mip_symbolizer *by = symbolizer_of(p, sym, seg);
    uint32_t object =
        in_image(p, seg) ? 0 : mip_intern(strings, object_name(seg));
    const struct mip_frame_info *info = NULL;
    size_t n = by->frames(by->ctx, lookup_address(out->addrs[i], seg), &info);
    static const struct mip_frame_info unknown = {"", "", 0, 0};
    if (n == 0) {
      info = &unknown;
      n = 1;
    }
    if (used + n > frames_cap)
      out->frames = mip_xrealloc(out->frames, frames_cap = 2 * (used + n) + 256,
                                 sizeof *out->frames);
    out->first[i] = (uint32_t)used;
    out->count[i] = (uint32_t)n;
    for (size_t k = 0; k < n; k++) {
      struct mip_heap_frame f = {
          mip_intern(strings, info[k].function),
          mip_intern(strings, info[k].file),
          info[k].line,
          info[k].column,
          k + 1 < n ? MIP_FRAME_INLINED : 0,
          object};
      out->frames[used++] = frame_add(frames, &f);
    }
  }
}

static void free_address_frames(struct address_frames *a) {
  free(a->addrs);
  free(a->first);
  free(a->count);
  free(a->frames);
}

static uint32_t outside_frame(const struct mip_raw_heap_segment *seg,
                              struct mip_interner *strings,
                              struct frame_table *frames) {
  struct mip_heap_frame f = {mip_intern(strings, object_name(seg)), 0, 0, 0,
                             MIP_FRAME_OUTSIDE, 0};
  return frame_add(frames, &f);
}

int mip_heap_add_raw(struct mip_profile *p, const struct mip_raw *raw,
                     const char *raw_path,
                     const struct mip_symbolizer *symbolizer,
                     struct mip_error *err) {
  const struct mip_raw_heap *h = &raw->heap;
  if (mip_heap_sampling_check(p, h->stats.sample_bytes,
                              h->present || h->has_stats, raw_path, err))
    return -1;
  if (!h->present) {
    /* An image whose heap state lives in another image's runtime still
     * counts its own unseen frees. */
    if (h->has_stats) {
      add_stats(&p->heap_stats, &h->stats);
      p->has_heap = 1;
      mip_heap_normalize(p);
    }
    return 0;
  }
  if (!symbolizer)
    return mip_fail(err, raw_path,
                    "has heap data: its call stacks need the profiled "
                    "binary's debug information (--debug BINARY)");
  uint32_t *sites = mip_xcalloc(h->context_count, sizeof *sites);
  for (size_t i = 0; i < h->context_count; i++)
    if (resolve_site(p, h, h->contexts[i].site, &sites[i], raw_path, err)) {
      free(sites);
      return -1;
    }
  /* Checked: from here on nothing fails. */
  int weigh = weigh_for_mix(p, h->stats.sample_bytes);
  int peak = MIP_HEAP_PEAK_NONE;
  if (h->has_timeline) {
    /* The kept run's peak first, then a pooled file's others. */
    size_t n = 1 + h->other_peak_count;
    struct mip_heap_peak *peaks = mip_xcalloc(n, sizeof *peaks);
    peaks[0] = h->peak;
    if (h->other_peak_count)
      memcpy(peaks + 1, h->other_peaks, h->other_peak_count * sizeof *peaks);
    peak = mip_heap_peaks_add(p, peaks, n, h->points, h->point_count);
    free(peaks);
  }
  struct mip_interner strings;
  mip_interner_init(&strings, &p->strings, p->heap_strings_at);
  struct frame_table frames;
  frame_table_init(&frames, p);
  struct address_frames known;
  symbolize_addresses(p, h, symbolizer, &strings, &frames, &known);
  struct growth g = {p->heap_stack_count, p->heap_context_count};
  for (size_t i = 0; i < h->context_count; i++) {
    const struct mip_raw_heap_context *rc = &h->contexts[i];
    const struct mip_raw_heap_stack *s = mip_raw_heap_stack_find(h, rc->stack);
    struct mip_heap_context *c = push_context(p, &g);
    c->site = sites[i];
    c->flags = (s->flags & 1) ? MIP_CONTEXT_TRUNCATED : 0;
    c->mib = rc->mib;
    if (weigh)
      weigh_exact(&c->mib);
    if (peak == MIP_HEAP_PEAK_OURS)
      mip_heap_at_peak_clear(&c->mib);
    for (uint32_t d = 0; d < s->depth; d++) {
      uint64_t ret = mip_get_le64(s->frames + 8 * (size_t)d);
      const uint64_t *at =
          known.n ? bsearch(&ret, known.addrs, known.n, sizeof ret, compare_u64)
                  : NULL;
      if (!at) {
        push_frame(p, &g, outside_frame(segment_of(h, ret), &strings, &frames));
        continue;
      }
      size_t k = (size_t)(at - known.addrs);
      for (uint32_t j = 0; j < known.count[k]; j++)
        push_frame(p, &g, known.frames[known.first[k] + j]);
    }
    c->frame_count = (uint32_t)(p->heap_stack_count - c->first_frame);
  }
  add_stats(&p->heap_stats, &h->stats);
  p->has_heap = 1;
  free_address_frames(&known);
  free(frames.slots);
  mip_interner_free(&strings);
  free(sites);
  mip_heap_normalize(p);
  return 0;
}

/* ---- another profile -------------------------------------------------- */

void mip_heap_add_profile(struct mip_profile *p,
                          const struct mip_profile *other) {
  if (!other->has_heap)
    return;
  int weigh = weigh_for_mix(p, other->heap_stats.sample_bytes);
  int peak = mip_heap_peaks_add(p, other->heap_peaks, other->heap_peak_count,
                                other->heap_points, other->heap_point_count);
  struct mip_interner strings;
  mip_interner_init(&strings, &p->strings, p->heap_strings_at);
  struct frame_table frames;
  frame_table_init(&frames, p);
  uint32_t *remap = mip_xcalloc(other->heap_frame_count, sizeof *remap);
  for (size_t i = 0; i < other->heap_frame_count; i++) {
    const struct mip_heap_frame *o = &other->heap_frames[i];
    struct mip_heap_frame f = {
        mip_intern(&strings, mip_profile_string(other, o->function)),
        mip_intern(&strings, mip_profile_string(other, o->file)),
        o->line,
        o->column,
        o->flags,
        mip_intern(&strings, mip_profile_string(other, o->object))};
    remap[i] = frame_add(&frames, &f);
  }
  struct growth g = {p->heap_stack_count, p->heap_context_count};
  for (size_t i = 0; i < other->heap_context_count; i++) {
    const struct mip_heap_context *o = &other->heap_contexts[i];
    struct mip_heap_context *c = push_context(p, &g);
    c->site = o->site;
    c->flags = o->flags;
    c->mib = o->mib;
    if (weigh)
      weigh_exact(&c->mib);
    if (peak == MIP_HEAP_PEAK_OURS)
      mip_heap_at_peak_clear(&c->mib);
    c->frame_count = o->frame_count;
    for (uint32_t k = 0; k < o->frame_count; k++)
      push_frame(p, &g, remap[other->heap_stack[o->first_frame + k]]);
  }
  add_stats(&p->heap_stats, &other->heap_stats);
  p->has_heap = 1;
  free(remap);
  free(frames.slots);
  mip_interner_free(&strings);
  mip_heap_normalize(p);
}

/* ---- the canonical form ---------------------------------------------- */

static int compare_strings(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Rewrites the frames' strings: the distinct ones, sorted, after
 * heap_strings_at. Frames that no context uses are gone by now. */
static void normalize_strings(struct mip_profile *p) {
  size_t n = p->heap_frame_count;
  uint8_t *copy = mip_xmalloc(p->strings.size);
  memcpy(copy, p->strings.data, p->strings.size);
  const char **names = mip_xcalloc(3 * n, sizeof *names);
  size_t count = 0;
  for (size_t i = 0; i < n; i++) {
    const struct mip_heap_frame *f = &p->heap_frames[i];
    const uint32_t offsets[] = {f->function, f->file, f->object};
    for (int k = 0; k < 3; k++)
      if (offsets[k])
        names[count++] = (const char *)copy + offsets[k];
  }
  if (count)
    qsort(names, count, sizeof *names, compare_strings);
  size_t unique = 0;
  for (size_t i = 0; i < count; i++)
    if (!unique || strcmp(names[unique - 1], names[i]))
      names[unique++] = names[i];
  p->strings.size = p->heap_strings_at;
  uint32_t *offsets = mip_xcalloc(unique, sizeof *offsets);
  for (size_t i = 0; i < unique; i++) {
    offsets[i] = (uint32_t)p->strings.size;
    mip_buf_append(&p->strings, names[i], strlen(names[i]) + 1);
  }
  for (size_t i = 0; i < n; i++) {
    struct mip_heap_frame *f = &p->heap_frames[i];
    uint32_t *fields[3] = {&f->function, &f->file, &f->object};
    for (int k = 0; k < 3; k++) {
      if (!*fields[k])
        continue;
      const char *s = (const char *)copy + *fields[k];
      const char **at =
          bsearch(&s, names, unique, sizeof *names, compare_strings);
      *fields[k] = offsets[at - names];
    }
  }
  free(offsets);
  free(names);
  free(copy);
}

/* With strings in sorted order, comparing offsets compares strings. */
static int compare_frames(const void *a, const void *b) {
  const struct mip_heap_frame *x = a, *y = b;
  const uint32_t xs[] = {x->function, x->file,  x->line,
                         x->column,   x->flags, x->object};
  const uint32_t ys[] = {y->function, y->file,  y->line,
                         y->column,   y->flags, y->object};
  for (int i = 0; i < 6; i++)
    if (xs[i] != ys[i])
      return xs[i] < ys[i] ? -1 : 1;
  return 0;
}

struct frame_order {
  struct mip_heap_frame frame;
  uint32_t old;
};

static int compare_frame_order(const void *a, const void *b) {
  return compare_frames(&((const struct frame_order *)a)->frame,
                        &((const struct frame_order *)b)->frame);
}

/* Sorts and deduplicates the frames; returns old index -> new index. */
static uint32_t *normalize_frames(struct mip_profile *p) {
  size_t n = p->heap_frame_count;
  struct frame_order *order = mip_xcalloc(n, sizeof *order);
  for (size_t i = 0; i < n; i++)
    order[i] = (struct frame_order){p->heap_frames[i], (uint32_t)i};
  if (n)
    qsort(order, n, sizeof *order, compare_frame_order);
  uint32_t *remap = mip_xcalloc(n, sizeof *remap);
  size_t out = 0;
  for (size_t i = 0; i < n; i++) {
    if (!out || compare_frames(&p->heap_frames[out - 1], &order[i].frame))
      p->heap_frames[out++] = order[i].frame;
    remap[order[i].old] = (uint32_t)(out - 1);
  }
  p->heap_frame_count = out;
  free(order);
  return remap;
}

/* Drops frames no context uses; returns how the indices moved. */
static uint32_t *drop_unused_frames(struct mip_profile *p) {
  size_t n = p->heap_frame_count;
  uint8_t *used = mip_xcalloc(n, 1);
  for (size_t i = 0; i < p->heap_context_count; i++) {
    const struct mip_heap_context *c = &p->heap_contexts[i];
    for (uint32_t k = 0; k < c->frame_count; k++)
      used[p->heap_stack[c->first_frame + k]] = 1;
  }
  uint32_t *remap = mip_xcalloc(n, sizeof *remap);
  size_t out = 0;
  for (size_t i = 0; i < n; i++)
    if (used[i]) {
      remap[i] = (uint32_t)out;
      p->heap_frames[out++] = p->heap_frames[i];
    }
  p->heap_frame_count = out;
  free(used);
  return remap;
}

static void remap_stack(struct mip_profile *p, const uint32_t *remap) {
  for (size_t i = 0; i < p->heap_context_count; i++) {
    const struct mip_heap_context *c = &p->heap_contexts[i];
    for (uint32_t k = 0; k < c->frame_count; k++)
      p->heap_stack[c->first_frame + k] =
          remap[p->heap_stack[c->first_frame + k]];
  }
}

static int compare_contexts(const void *a, const void *b, void *profile) {
  const struct mip_profile *p = profile;
  const struct mip_heap_context *x = a, *y = b;
  if (x->site != y->site)
    return x->site < y->site ? -1 : 1;
  for (uint32_t k = 0; k < x->frame_count && k < y->frame_count; k++) {
    uint32_t xk = p->heap_stack[x->first_frame + k];
    uint32_t yk = p->heap_stack[y->first_frame + k];
    if (xk != yk)
      return xk < yk ? -1 : 1;
  }
  return (x->frame_count > y->frame_count) - (x->frame_count < y->frame_count);
}

/* Sorts the contexts, combines the equal ones and lays their stacks out
 * in context order. */
static void normalize_contexts(struct mip_profile *p) {
  size_t n = p->heap_context_count;
  if (n)
    qsort_r(p->heap_contexts, n, sizeof *p->heap_contexts, compare_contexts, p);
  size_t out = 0;
  for (size_t i = 0; i < n; i++) {
    struct mip_heap_context *c = &p->heap_contexts[i];
    if (out && !compare_contexts(&p->heap_contexts[out - 1], c, p)) {
      struct mip_heap_context *into = &p->heap_contexts[out - 1];
      mip_mib_merge(&into->mib, &c->mib);
      into->flags |= c->flags;
    } else {
      p->heap_contexts[out++] = *c;
    }
  }
  p->heap_context_count = out;
  /* Sized by what the contexts use, whatever the old table held. */
  size_t used = 0;
  for (size_t i = 0; i < out; i++)
    used += p->heap_contexts[i].frame_count;
  uint32_t *stack = mip_xcalloc(used, sizeof *stack);
  size_t at = 0;
  for (size_t i = 0; i < out; i++) {
    struct mip_heap_context *c = &p->heap_contexts[i];
    for (uint32_t k = 0; k < c->frame_count; k++)
      stack[at + k] = p->heap_stack[c->first_frame + k];
    c->first_frame = (uint32_t)at;
    at += c->frame_count;
  }
  free(p->heap_stack);
  p->heap_stack = stack;
  p->heap_stack_count = at;
}

void mip_heap_normalize(struct mip_profile *p) {
  if (!p->has_heap)
    return;
  uint32_t *remap = drop_unused_frames(p);
  remap_stack(p, remap);
  free(remap);
  normalize_strings(p);
  remap = normalize_frames(p);
  remap_stack(p, remap);
  free(remap);
  normalize_contexts(p);
}

/* The larger of end and where the strings at offsets[0..count) end. */
static size_t strings_end(const struct mip_profile *p, const uint32_t *offsets,
                          int count, size_t end) {
  for (int k = 0; k < count; k++) {
    size_t e = offsets[k] < p->strings.size
                   ? offsets[k] + strlen(mip_profile_string(p, offsets[k])) + 1
                   : 0;
    if (e > end)
      end = e;
  }
  return end;
}

size_t mip_heap_strings_start(const struct mip_profile *p) {
  size_t end = 1;
  for (size_t i = 0; i < p->function_count; i++) {
    const struct mip_profile_function *f = &p->functions[i];
    const uint32_t offsets[] = {f->key, f->name, f->unit};
    end = strings_end(p, offsets, 3, end);
  }
  for (size_t i = 0; i < p->heap_site_count; i++) {
    const uint32_t offsets[] = {p->heap_sites[i].file, p->heap_sites[i].name};
    end = strings_end(p, offsets, 2, end);
  }
  for (size_t i = 0; i < p->data_count; i++) {
    const uint32_t offsets[] = {p->data[i].key, p->data[i].name,
                                p->data[i].unit};
    end = strings_end(p, offsets, 3, end);
  }
  for (size_t i = 0; i < p->edge_counts_count; i++) {
    const uint32_t offsets[] = {p->edge_counts[i].key, p->edge_counts[i].name,
                                p->edge_counts[i].unit};
    end = strings_end(p, offsets, 3, end);
  }
  return end;
}

void mip_heap_free(struct mip_profile *p) {
  free(p->heap_sites);
  free(p->heap_frames);
  free(p->heap_stack);
  free(p->heap_contexts);
  p->heap_sites = NULL;
  p->heap_frames = NULL;
  p->heap_stack = NULL;
  p->heap_contexts = NULL;
  p->heap_site_count = p->heap_frame_count = p->heap_stack_count = 0;
  p->heap_context_count = 0;
  mip_heap_peaks_free(p);
}
