/*
 * The heap payloads of a raw profile (docs/heap.md): contexts with their
 * MemInfoBlocks (raw_heap_mibs.inc, raw_heap_context.inc, mib.inc), call
 * stacks (raw_heap_stack.inc) and loaded segments (raw_heap_segment.inc),
 * plus the MIP_STAT_HEAP_* statistics. Everything is checked here, when
 * the file is read, so merging never meets a bad payload.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "mip/layouts.h"
#include "mipfmt.h"

static int corrupt(const char *path, struct mip_error *err, const char *fmt,
                   ...) __attribute__((format(printf, 3, 4)));

static int corrupt(const char *path, struct mip_error *err, const char *fmt,
                   ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return mip_fail(err, path, "corrupt raw profile: %s", what);
}

/* ---- statistics ----------------------------------------------------- */

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static int read_stats(struct mip_raw *raw, const char *path,
                      struct mip_error *err) {
  const struct mip_raw_payload *s = mip_raw_find(raw, MIP_RAW_STATS);
  if (!s)
    return 0;
  if (s->extent.elem_size < mip_rec_raw_stat_size)
    return corrupt(path, err, "statistics entries of %" PRIu32 " bytes",
                   s->extent.elem_size);
  struct mip_heap_stats *st = &raw->heap.stats;
  for (uint64_t i = 0; i < s->extent.size / s->extent.elem_size; i++) {
    struct mip_rec_raw_stat r;
    mip_rec_raw_stat_decode(&r, s->data + i * s->extent.elem_size);
    if (r.key >= MIP_STAT_HEAP_UNSEEN_FREES &&
        r.key <= MIP_STAT_HEAP_SAMPLE_BYTES)
      raw->heap.has_stats = 1;
    if (r.key == MIP_STAT_HEAP_UNSEEN_FREES)
      st->unseen_frees = add_saturating(st->unseen_frees, r.value);
    else if (r.key == MIP_STAT_HEAP_FREED_UNSEEN)
      st->freed_unseen = add_saturating(st->freed_unseen, r.value);
    else if (r.key == MIP_STAT_HEAP_TRUNCATED_STACKS)
      st->truncated_stacks = add_saturating(st->truncated_stacks, r.value);
    else if (r.key == MIP_STAT_HEAP_DROPPED)
      st->dropped = add_saturating(st->dropped, r.value);
    else if (r.key == MIP_STAT_HEAP_STACK_DEPTH && r.value > st->stack_depth)
      st->stack_depth = r.value;
    else if (r.key == MIP_STAT_HEAP_UNINTERPOSED)
      st->uninterposed = add_saturating(st->uninterposed, r.value);
    else if (r.key == MIP_STAT_HEAP_LIVE_UNINTERPOSED)
      st->live_uninterposed = add_saturating(st->live_uninterposed, r.value);
    else if (r.key == MIP_STAT_HEAP_SAMPLE_BYTES && r.value > st->sample_bytes)
      st->sample_bytes = r.value;
  }
  return 0;
}

/* ---- stacks --------------------------------------------------------- */

static int by_stack_id(const void *a, const void *b) {
  const struct mip_raw_heap_stack *x = a, *y = b;
  return (x->id > y->id) - (x->id < y->id);
}

static int read_stacks(struct mip_raw_heap *heap,
                       const struct mip_raw_payload *s, const char *path,
                       struct mip_error *err) {
  if (!s)
    return 0;
  const uint8_t *p = s->data;
  uint64_t size = s->extent.size, at = 0;
  size_t cap = 0;
  while (at < size) {
    if (size - at < mip_rec_raw_heap_stack_size)
      return corrupt(path, err,
                     "truncated heap stack at offset %" PRIu64
                     " of the stacks payload (%" PRIu64 " bytes)",
                     at, size);
    struct mip_rec_raw_heap_stack r;
    mip_rec_raw_heap_stack_decode(&r, p + at);
    uint64_t frames = at + mip_rec_raw_heap_stack_size;
    if ((uint64_t)r.depth > (size - frames) / 8)
      return corrupt(path, err,
                     "heap stack %" PRIu64 " claims %" PRIu32
                     " frames, more than the stacks payload holds",
                     r.id, r.depth);
    if (heap->stack_count == cap)
      heap->stacks =
          mip_xrealloc(heap->stacks, cap = cap * 2 + 64, sizeof *heap->stacks);
    heap->stacks[heap->stack_count++] =
        (struct mip_raw_heap_stack){r.id, r.depth, r.flags, p + frames};
    at = frames + (uint64_t)r.depth * 8;
  }
  if (heap->stack_count)
    qsort(heap->stacks, heap->stack_count, sizeof *heap->stacks, by_stack_id);
  for (size_t i = 1; i < heap->stack_count; i++)
    if (heap->stacks[i].id == heap->stacks[i - 1].id)
      return corrupt(path, err, "heap stack id %" PRIu64 " appears twice",
                     heap->stacks[i].id);
  return 0;
}

const struct mip_raw_heap_stack *
mip_raw_heap_stack_find(const struct mip_raw_heap *heap, uint64_t id) {
  struct mip_raw_heap_stack key = {.id = id};
  return heap->stack_count ? bsearch(&key, heap->stacks, heap->stack_count,
                                     sizeof key, by_stack_id)
                           : NULL;
}

/* ---- segments ------------------------------------------------------- */

static int by_start(const void *a, const void *b) {
  const struct mip_raw_heap_segment *x = a, *y = b;
  return (x->start > y->start) - (x->start < y->start);
}

static int read_segments(struct mip_raw_heap *heap,
                         const struct mip_raw_payload *s, const char *path,
                         struct mip_error *err) {
  if (!s)
    return 0;
  const uint8_t *p = s->data;
  uint64_t size = s->extent.size, at = 0;
  size_t cap = 0;
  while (at < size) {
    size_t n = heap->segment_count;
    if (size - at < mip_rec_raw_heap_segment_size)
      return corrupt(path, err,
                     "truncated heap segment %zu (at offset %" PRIu64
                     " of a %" PRIu64 "-byte payload)",
                     n, at, size);
    struct mip_rec_raw_heap_segment r;
    mip_rec_raw_heap_segment_decode(&r, p + at);
    uint64_t name = at + mip_rec_raw_heap_segment_size;
    if (r.build_id_size > MIP_BUILD_ID_MAX)
      return corrupt(path, err,
                     "heap segment %zu has a build-id of %" PRIu32 " bytes", n,
                     r.build_id_size);
    if (r.start >= r.end)
      return corrupt(path, err,
                     "heap segment %zu is empty or ends before it starts", n);
    if ((uint64_t)r.name_size >= size - name || p[name + r.name_size] != 0 ||
        memchr(p + name, 0, r.name_size))
      return corrupt(path, err, "heap segment %zu has a bad path", n);
    if (heap->segment_count == cap)
      heap->segments = mip_xrealloc(heap->segments, cap = cap * 2 + 16,
                                    sizeof *heap->segments);
    struct mip_raw_heap_segment *seg = &heap->segments[heap->segment_count++];
    *seg = (struct mip_raw_heap_segment){r.start,
                                         r.end,
                                         r.load_bias,
                                         {r.build_id_size, {0}},
                                         (const char *)p + name};
    memcpy(seg->build_id.bytes, r.build_id, r.build_id_size);
    at = (name + r.name_size + 1 + 7) & ~(uint64_t)7;
    if (at > size)
      return corrupt(path, err,
                     "truncated heap segment %zu (its padding is cut)", n);
  }
  if (heap->segment_count)
    qsort(heap->segments, heap->segment_count, sizeof *heap->segments,
          by_start);
  for (size_t i = 1; i < heap->segment_count; i++)
    if (heap->segments[i].start < heap->segments[i - 1].end)
      return corrupt(path, err,
                     "heap segments at 0x%" PRIx64 " and 0x%" PRIx64 " overlap",
                     heap->segments[i - 1].start, heap->segments[i].start);
  return 0;
}

/* ---- contexts ------------------------------------------------------- */

/* Where each schema field lands in a record, and which known field it is
 * (-1: one this build does not know, skipped). */
struct schema {
  uint32_t count;
  int *index;
  uint32_t *offset;
  uint32_t *width;
  uint32_t record_min; /* head and fields */
};

static int read_schema(const uint8_t *p, uint64_t size, struct schema *s,
                       const char *path, struct mip_error *err) {
  uint64_t bytes = ((uint64_t)s->count * 4 + 7) & ~(uint64_t)7;
  if (bytes > size)
    return corrupt(path, err,
                   "truncated heap contexts payload (a schema of %" PRIu32
                   " fields, %" PRIu64 " bytes after the header)",
                   s->count, size);
  s->index = mip_xcalloc(s->count, sizeof *s->index);
  s->offset = mip_xcalloc(s->count, sizeof *s->offset);
  s->width = mip_xcalloc(s->count, sizeof *s->width);
  uint64_t at = mip_rec_raw_heap_context_size;
  for (uint32_t i = 0; i < s->count; i++) {
    uint32_t id = mip_get_le32(p + 4 * (size_t)i);
    if (id == 0)
      return corrupt(path, err, "heap context schema has field id 0");
    for (uint32_t j = 0; j < i; j++)
      if (mip_get_le32(p + 4 * (size_t)j) == id)
        return corrupt(path, err,
                       "heap context schema names field %" PRIu32 " twice", id);
    s->index[i] = mip_mib_index(id);
    s->width[i] = mip_mib_width(id);
    s->offset[i] = (uint32_t)at;
    at += s->width[i];
  }
  s->record_min = (uint32_t)at; /* at most 16 + 8 * 2^32: checked below */
  if (at > UINT32_MAX)
    return corrupt(path, err, "heap context schema of %" PRIu32 " fields",
                   s->count);
  return 0;
}

static void free_schema(struct schema *s) {
  free(s->index);
  free(s->offset);
  free(s->width);
}

static void decode_record(const uint8_t *p, const struct schema *s,
                          struct mip_raw_heap_context *c) {
  struct mip_rec_raw_heap_context head;
  mip_rec_raw_heap_context_decode(&head, p);
  memset(c, 0, sizeof *c);
  c->stack = head.stack;
  c->site = head.site;
  for (uint32_t i = 0; i < s->count; i++)
    if (s->index[i] >= 0)
      c->mib.v[s->index[i]] = s->width[i] == 4 ? mip_get_le32(p + s->offset[i])
                                               : mip_get_le64(p + s->offset[i]);
}

/* A block whose fields contradict each other would be merged into a
 * profile that every reader then refuses (profile_check.c): refused here,
 * with the same words. */
static int check_mibs(const struct mip_raw_heap *heap, const char *path,
                      struct mip_error *err) {
  char why[256];
  for (size_t i = 0; i < heap->context_count; i++)
    if (mip_mib_check(&heap->contexts[i].mib, why, sizeof why))
      return corrupt(path, err, "heap context %zu has %s", i, why);
  return 0;
}

static int read_contexts(struct mip_raw_heap *heap,
                         const struct mip_raw_payload *s, const char *path,
                         struct mip_error *err) {
  const uint8_t *p = s->data;
  uint64_t size = s->extent.size;
  if (size < mip_rec_raw_heap_mibs_size)
    return corrupt(path, err,
                   "truncated heap contexts payload (%" PRIu64
                   " bytes, its header needs %d)",
                   size, (int)mip_rec_raw_heap_mibs_size);
  struct mip_rec_raw_heap_mibs h;
  mip_rec_raw_heap_mibs_decode(&h, p);
  struct schema schema = {.count = h.field_count};
  const uint8_t *fields = p + mip_rec_raw_heap_mibs_size;
  uint64_t after = size - mip_rec_raw_heap_mibs_size;
  int rc = read_schema(fields, after, &schema, path, err);
  uint64_t records = mip_rec_raw_heap_mibs_size +
                     (((uint64_t)h.field_count * 4 + 7) & ~(uint64_t)7);
  if (rc == 0 && (h.record_size < schema.record_min || h.record_size % 8))
    rc = corrupt(path, err,
                 "heap context records of %" PRIu32
                 " bytes cannot hold their %" PRIu32 " bytes of fields",
                 h.record_size, schema.record_min);
  if (rc == 0 && h.record_count > (size - records) / h.record_size)
    rc = corrupt(path, err,
                 "truncated heap contexts payload (%" PRIu64
                 " records of %" PRIu32 " bytes, %" PRIu64 " bytes present)",
                 h.record_count, h.record_size, size - records);
  if (rc == 0 && h.record_count * h.record_size != size - records)
    rc = corrupt(path, err,
                 "heap contexts payload has %" PRIu64
                 " bytes after its %" PRIu64 " records",
                 size - records - h.record_count * h.record_size,
                 h.record_count);
  if (rc == 0) {
    heap->contexts = mip_xcalloc(h.record_count, sizeof *heap->contexts);
    for (uint64_t i = 0; i < h.record_count; i++)
      decode_record(p + records + i * h.record_size, &schema,
                    &heap->contexts[i]);
    heap->context_count = h.record_count;
  }
  free_schema(&schema);
  return rc ? rc : check_mibs(heap, path, err);
}

static int check_stack_references(const struct mip_raw_heap *heap,
                                  const char *path, struct mip_error *err) {
  for (size_t i = 0; i < heap->context_count; i++)
    if (!mip_raw_heap_stack_find(heap, heap->contexts[i].stack))
      return corrupt(path, err,
                     "heap context %zu uses stack %" PRIu64
                     ", which the stacks payload lacks",
                     i, heap->contexts[i].stack);
  return 0;
}

int mip_raw_heap_parse(struct mip_raw *raw, const char *path,
                       struct mip_error *err) {
  struct mip_raw_heap *heap = &raw->heap;
  const struct mip_raw_payload *mibs = mip_raw_find(raw, MIP_RAW_HEAP_MIBS);
  const struct mip_raw_payload *stacks = mip_raw_find(raw, MIP_RAW_HEAP_STACKS);
  const struct mip_raw_payload *segments =
      mip_raw_find(raw, MIP_RAW_HEAP_SEGMENTS);
  heap->present = mibs || stacks || segments;
  if (read_stats(raw, path, err) ||
      mip_raw_heap_timeline_parse(
          heap, mip_raw_find(raw, MIP_RAW_HEAP_TIMELINE), path, err) ||
      mip_raw_heap_peaks_parse(heap, mip_raw_find(raw, MIP_RAW_HEAP_PEAKS),
                               path, err) ||
      read_stacks(heap, stacks, path, err) ||
      read_segments(heap, segments, path, err) ||
      (mibs && read_contexts(heap, mibs, path, err)))
    return -1;
  return check_stack_references(heap, path, err);
}
