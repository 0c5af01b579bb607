/*
 * mipdata dump of a raw profile (.mipraw): the header, the section table
 * and every payload, read and checked first by the raw reader (mip_raw_parse). Where the
 * heap payloads' entries lie comes from what the reader found (each
 * stack's frames, each segment's path), in file order.
 */
#include <stdlib.h>
#include <string.h>

#include "dump.h"
#include "mip/layouts.h"

/* "COV", "EDGES", ...: the names docs/formats.md gives the kinds. */
static const char *kind_name(uint32_t kind) {
  switch (kind) {
  case MIP_RAW_EDGES:
    return "EDGES";
  case MIP_RAW_STATS:
    return "STATS";
  case MIP_RAW_HEAP_MIBS:
    return "HEAP_MIBS";
  case MIP_RAW_HEAP_STACKS:
    return "HEAP_STACKS";
  case MIP_RAW_HEAP_SEGMENTS:
    return "HEAP_SEGMENTS";
  case MIP_RAW_HEAP_TIMELINE:
    return "HEAP_TIMELINE";
  case MIP_RAW_HEAP_PEAKS:
    return "HEAP_PEAKS";
  case MIP_RAW_POOL_COV:
    return "POOL_COV";
  case MIP_RAW_POOL_CNT:
    return "POOL_CNT";
  case MIP_RAW_POOL_ORD:
    return "POOL_ORD";
  case MIP_RAW_POOL_BLK:
    return "POOL_BLK";
  case MIP_RAW_POOL_SITE:
    return "POOL_SITE";
  case MIP_RAW_POOL_DATA:
    return "POOL_DATA";
  case MIP_RAW_POOL_BCNT:
    return "POOL_BCNT";
  }
  const char *name = mip_raw_kind_name(kind);
  return name ? name : "unknown";
}

static void entries(struct dump_out *d, enum dump_layout_id id,
                    const uint8_t *p, const struct mip_extent *e,
                    uint64_t offset) {
  dump_array_begin(d, "entries");
  for (uint64_t i = 0; i < e->size / e->elem_size; i++) {
    dump_record_begin(d, NULL, id, p + i * e->elem_size,
                      offset + i * e->elem_size);
    dump_object_end(d);
  }
  dump_array_end(d);
}

/* A MemInfoBlock field's name as mib.inc gives it; field_ID for one this
 * build does not know. */
static const char *mib_name(uint32_t id, char *buf, size_t size) {
  int i = mip_mib_index(id);
  if (i >= 0)
    return mip_mib_defs[i].name;
  snprintf(buf, size, "field_%u", (unsigned)id);
  return buf;
}

void dump_mib_fields(struct dump_out *d, const uint8_t *schema, uint64_t count,
                     const uint8_t *record, uint32_t at, uint64_t offset) {
  for (uint64_t i = 0; i < count; i++) {
    uint32_t id = mip_get_le32(schema + 4 * i);
    uint32_t width = mip_mib_width(id);
    char buf[32];
    const char *name = mib_name(id, buf, sizeof buf);
    dump_u64(d, name,
             width == 4 ? mip_get_le32(record + at) : mip_get_le64(record + at),
             offset + at);
    at += width;
  }
}

void dump_mib_schema(struct dump_out *d, const char *key, const uint8_t *schema,
                     uint64_t count, uint64_t offset) {
  dump_array_begin(d, key);
  for (uint64_t i = 0; i < count; i++) {
    uint32_t id = mip_get_le32(schema + 4 * i);
    char buf[32];
    dump_object_begin(d, NULL, offset + 4 * i);
    dump_u64(d, "id", id, offset + 4 * i);
    dump_string(d, "name", mib_name(id, buf, sizeof buf), DUMP_NO_OFFSET);
    dump_object_end(d);
  }
  dump_array_end(d);
}

static void heap_mibs(struct dump_out *d, const uint8_t *p, uint64_t offset) {
  struct mip_rec_raw_heap_mibs h;
  mip_rec_raw_heap_mibs_decode(&h, p);
  dump_record_begin(d, "header", DUMP_raw_heap_mibs, p, offset);
  dump_object_end(d);
  const uint8_t *schema = p + mip_rec_raw_heap_mibs_size;
  dump_mib_schema(d, "schema", schema, h.field_count, offset + mip_rec_raw_heap_mibs_size);
  uint64_t first = mip_rec_raw_heap_mibs_size +
                   (((uint64_t)h.field_count * 4 + 7) & ~(uint64_t)7);
  dump_array_begin(d, "records");
  for (uint64_t i = 0; i < h.record_count; i++) {
    uint64_t at = first + i * h.record_size;
    dump_record_begin(d, NULL, DUMP_raw_heap_context, p + at, offset + at);
    dump_mib_fields(d, schema, h.field_count, p + at,
                    mip_rec_raw_heap_context_size, offset + at);
    dump_object_end(d);
  }
  dump_array_end(d);
}

static int by_frames(const void *a, const void *b) {
  const struct mip_raw_heap_stack *x = *(const struct mip_raw_heap_stack *const *)a,
                                  *y = *(const struct mip_raw_heap_stack *const *)b;
  return (x->frames > y->frames) - (x->frames < y->frames);
}

static void heap_stacks(struct dump_out *d, const struct mip_raw *raw) {
  const struct mip_raw_heap *h = &raw->heap;
  const struct mip_raw_heap_stack **order =
      mip_xcalloc(h->stack_count + 1, sizeof *order);
  for (size_t i = 0; i < h->stack_count; i++)
    order[i] = &h->stacks[i];
  qsort(order, h->stack_count, sizeof *order, by_frames);
  dump_array_begin(d, "entries");
  for (size_t i = 0; i < h->stack_count; i++) {
    const uint8_t *rec = order[i]->frames - mip_rec_raw_heap_stack_size;
    uint64_t offset = (uint64_t)(rec - raw->file.data);
    dump_record_begin(d, NULL, DUMP_raw_heap_stack, rec, offset);
    dump_elements(d, "frames", order[i]->frames, order[i]->depth, 8,
                  offset + mip_rec_raw_heap_stack_size);
    dump_object_end(d);
  }
  dump_array_end(d);
  free(order);
}

static int by_path(const void *a, const void *b) {
  const struct mip_raw_heap_segment *x = *(const struct mip_raw_heap_segment *const *)a,
                                    *y = *(const struct mip_raw_heap_segment *const *)b;
  return (x->path > y->path) - (x->path < y->path);
}

static void heap_segments(struct dump_out *d, const struct mip_raw *raw) {
  const struct mip_raw_heap *h = &raw->heap;
  const struct mip_raw_heap_segment **order =
      mip_xcalloc(h->segment_count + 1, sizeof *order);
  for (size_t i = 0; i < h->segment_count; i++)
    order[i] = &h->segments[i];
  qsort(order, h->segment_count, sizeof *order, by_path);
  dump_array_begin(d, "entries");
  for (size_t i = 0; i < h->segment_count; i++) {
    const uint8_t *rec =
        (const uint8_t *)order[i]->path - mip_rec_raw_heap_segment_size;
    uint64_t offset = (uint64_t)(rec - raw->file.data);
    dump_record_begin(d, NULL, DUMP_raw_heap_segment, rec, offset);
    dump_string(d, "path", order[i]->path,
                offset + mip_rec_raw_heap_segment_size);
    dump_object_end(d);
  }
  dump_array_end(d);
  free(order);
}

/* TIMELINE: the peak, the header, then the points (checked: they fit). */
static void heap_timeline(struct dump_out *d, const uint8_t *p,
                          uint64_t offset) {
  dump_record_begin(d, "peak", DUMP_heap_peak, p, offset);
  dump_object_end(d);
  uint64_t at = mip_rec_heap_peak_size;
  struct mip_rec_raw_heap_timeline t;
  mip_rec_raw_heap_timeline_decode(&t, p + at);
  dump_record_begin(d, "header", DUMP_raw_heap_timeline, p + at, offset + at);
  dump_object_end(d);
  at += mip_rec_raw_heap_timeline_size;
  dump_array_begin(d, "points");
  for (uint32_t i = 0; i < t.point_count; i++, at += t.point_size) {
    dump_record_begin(d, NULL, DUMP_heap_point, p + at, offset + at);
    dump_object_end(d);
  }
  dump_array_end(d);
}

/* POOL_BLK: its header, then each distinct coverage pattern: its head
 * (how many runs had it) and its bits, as bytes. */
static void pool_patterns(struct dump_out *d, const struct mip_raw *raw,
                          const uint8_t *p, uint64_t offset) {
  const struct mip_raw_pool *pool = &raw->pool;
  dump_record_begin(d, "header", DUMP_raw_pool_blocks, p, offset);
  dump_object_end(d);
  dump_array_begin(d, "patterns");
  for (uint64_t i = 0; i < pool->pattern_count; i++) {
    const uint8_t *rec = pool->patterns + i * pool->pattern_size;
    uint64_t at = (uint64_t)(rec - raw->file.data);
    dump_record_begin(d, NULL, DUMP_raw_pool_pattern, rec, at);
    uint64_t bits = pool->cov_size + pool->blk_size;
    dump_hex(d, "bits", rec + mip_rec_raw_pool_pattern_size, (bits + 7) / 8,
             at + mip_rec_raw_pool_pattern_size);
    dump_object_end(d);
  }
  dump_array_end(d);
}

static void payload(struct dump_out *d, const struct mip_raw *raw,
                    const struct mip_raw_payload *s) {
  const struct mip_extent *e = &s->extent;
  uint64_t offset = (uint64_t)(s->data - raw->file.data);
  if (e->kind < MIP_RAW_EDGES && mip_raw_kind_name(e->kind))
    dump_elements(d, "counters", s->data, e->size / e->elem_size,
                  e->elem_size, offset);
  else if (e->kind == MIP_RAW_EDGES)
    entries(d, DUMP_raw_edge, s->data, e, offset);
  else if (e->kind == MIP_RAW_STATS)
    entries(d, DUMP_raw_stat, s->data, e, offset);
  else if (e->kind == MIP_RAW_HEAP_MIBS)
    heap_mibs(d, s->data, offset);
  else if (e->kind == MIP_RAW_HEAP_STACKS)
    heap_stacks(d, raw);
  else if (e->kind == MIP_RAW_HEAP_SEGMENTS)
    heap_segments(d, raw);
  else if (e->kind == MIP_RAW_HEAP_TIMELINE)
    heap_timeline(d, s->data, offset);
  else if (e->kind == MIP_RAW_HEAP_PEAKS)
    entries(d, DUMP_heap_peak, s->data, e, offset);
  else if (e->kind == MIP_RAW_POOL_ORD)
    entries(d, DUMP_raw_pool_rank, s->data, e, offset);
  else if (e->kind == MIP_RAW_POOL_BLK)
    pool_patterns(d, raw, s->data, offset);
  else if (e->kind > MIP_RAW_POOL_BASE && e->kind <= MIP_RAW_POOL_LAST)
    dump_elements(d, "totals", s->data, e->size / 8, 8, offset);
}

static void print_raw(struct dump_out *d, const char *path,
                      const struct mip_raw *raw) {
  const uint8_t *data = raw->file.data;
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, data);
  dump_start(d);
  dump_string(d, "file", path, DUMP_NO_OFFSET);
  dump_string(d, "kind", "raw profile", DUMP_NO_OFFSET);
  dump_u64(d, "size", raw->file.size, DUMP_NO_OFFSET);
  dump_record_begin(d, "header", DUMP_raw_header, data, 0);
  dump_object_end(d);
  dump_array_begin(d, "sections");
  for (size_t i = 0; i < raw->section_count; i++) {
    uint64_t entry = h.header_size + i * (uint64_t)mip_rec_raw_section_size;
    dump_record_begin(d, NULL, DUMP_raw_section, data + entry, entry);
    dump_string(d, "name", kind_name(raw->sections[i].extent.kind),
                DUMP_NO_OFFSET);
    payload(d, raw, &raw->sections[i]);
    dump_object_end(d);
  }
  dump_array_end(d);
  dump_end(d);
}

int dump_raw(const char *path, struct mip_file *f, struct dump_out *d,
             struct mip_error *err) {
  struct mip_raw raw;
  int rc = mip_raw_parse(f, path, &raw, err);
  if (rc == 0)
    print_raw(d, path, &raw);
  mip_raw_free(&raw);
  return rc;
}
