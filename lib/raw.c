/* Raw profiles, as the runtime writes them (mip/layout/raw_*.inc). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "mipfmt.h"

/* The record each element of a payload of entries starts with (a later
 * version may append fields to it), 0 for the other kinds: every reader,
 * mipdata dump's too, may then read a whole record at each element. */
static uint32_t entry_size(uint32_t kind) {
  switch (kind) {
  case MIP_RAW_EDGES:
    return mip_rec_raw_edge_size;
  case MIP_RAW_STATS:
    return mip_rec_raw_stat_size;
  case MIP_RAW_POOL_ORD:
    return mip_rec_raw_pool_rank_size;
  case MIP_RAW_HEAP_PEAKS:
    return mip_rec_heap_peak_size;
  }
  return 0;
}

static int read_sections(struct mip_raw *raw, const struct mip_rec_raw_header *h,
                         const char *path, struct mip_error *err) {
  const struct mip_file *f = &raw->file;
  if (h->section_count > MIP_MAX_EXTENTS)
    return mip_fail(err, path, "corrupt raw profile: %" PRIu32 " sections",
                    h->section_count);
  uint64_t table_end =
      h->header_size + (uint64_t)h->section_count * mip_rec_raw_section_size;
  if (table_end > f->size)
    return mip_fail(err, path,
                    "truncated raw profile (section table needs %" PRIu64
                    " bytes, file has %zu)",
                    table_end, f->size);
  for (uint32_t i = 0; i < h->section_count; i++) {
    struct mip_rec_raw_section s;
    mip_rec_raw_section_decode(&s, f->data + h->header_size +
                                       i * mip_rec_raw_section_size);
    /* Payloads are padded to 8 bytes; a file that ends early lost its
     * tail, however little of it. (A size within 7 of 2^64 has no padded
     * size: left as it is, the check refuses it.) */
    uint64_t padded =
        s.size > UINT64_MAX - 7 ? s.size : (s.size + 7) & ~(uint64_t)7;
    if (mip_check_section(f->size, path, "raw profile", i, s.offset, padded,
                          err))
      return -1;
    /* (A pooled file holds no counters: its reader names any it finds.) */
    uint32_t known = raw->pooled ? 0 : mip_raw_kind_elem_size(s.kind);
    if (s.elem_size == 0 || s.size % s.elem_size ||
        (known && s.elem_size != known) || s.elem_size < entry_size(s.kind))
      return mip_fail(err, path, "corrupt raw profile: section %" PRIu32
                                 " has a bad element size",
                      i);
    if (mip_raw_find(raw, s.kind))
      return mip_fail(err, path,
                      "corrupt raw profile: counter kind %" PRIu32 " twice",
                      s.kind);
    if (!raw->pooled && s.kind > MIP_RAW_POOL_BASE &&
        s.kind <= MIP_RAW_POOL_LAST)
      return mip_fail(err, path,
                      "corrupt raw profile: pooled totals (kind %" PRIu32
                      ") in a file of one run",
                      s.kind);
    struct mip_raw_payload *out = &raw->sections[raw->section_count++];
    out->extent = (struct mip_extent){s.kind, s.elem_size, s.link_addr, s.size};
    out->data = f->data + s.offset;
    /* Kinds below 32 are counter arrays (raw_kinds.inc). */
    if (s.kind < MIP_RAW_EDGES && !raw->pooled)
      raw->extents[raw->extent_count++] = out->extent;
  }
  return 0;
}

/* Version 1 headers end before runs, with a reserved u32 for flags. */
#define RAW_V1_HEADER_SIZE (mip_rec_raw_header_size - 8)

static int read_header(struct mip_raw *raw, struct mip_rec_raw_header *h,
                       const char *path, struct mip_error *err) {
  const struct mip_file *f = &raw->file;
  if (mip_check_start(f, path, MIP_RAW_MAGIC, "raw profile",
                      RAW_V1_HEADER_SIZE, err))
    return -1;
  uint8_t bytes[mip_rec_raw_header_size] = {0};
  memcpy(bytes, f->data, f->size < sizeof bytes ? f->size : sizeof bytes);
  mip_rec_raw_header_decode(h, bytes);
  if (h->version == 1) {
    h->flags = 0;
    h->runs = 1;
  }
  size_t min_header =
      h->version == 1 ? RAW_V1_HEADER_SIZE : mip_rec_raw_header_size;
  if (mip_check_header(f, path, "raw profile", h->version, MIP_RAW_VERSION,
                       h->header_size, min_header, h->build_id_size, err))
    return -1;
  if (h->flags & ~(MIP_RAW_POOLED | MIP_RAW_COV_ZERO))
    return mip_fail(err, path, "corrupt raw profile: unknown flags 0x%" PRIx32,
                    h->flags);
  if (h->flags & MIP_RAW_POOLED && h->flags & MIP_RAW_COV_ZERO)
    return mip_fail(err, path,
                    "corrupt raw profile: coverage bytes in a pooled file");
  if ((h->flags & MIP_RAW_POOLED) ? h->runs == 0 : h->runs != 1)
    return mip_fail(err, path,
                    "corrupt raw profile: %" PRIu64 " runs in a %s file",
                    h->runs,
                    (h->flags & MIP_RAW_POOLED) ? "pooled" : "one-run");
  raw->runs = h->runs;
  raw->pooled = (h->flags & MIP_RAW_POOLED) != 0;
  raw->cov_zero = (h->flags & MIP_RAW_COV_ZERO) != 0;
  return 0;
}

int mip_raw_read(const char *path, struct mip_raw *raw,
                 struct mip_error *err) {
  struct mip_file file;
  if (mip_file_read(path, &file, err)) {
    memset(raw, 0, sizeof *raw);
    return -1;
  }
  return mip_raw_parse(&file, path, raw, err);
}

int mip_raw_parse(struct mip_file *file, const char *path, struct mip_raw *raw,
                  struct mip_error *err) {
  memset(raw, 0, sizeof *raw);
  raw->file = *file; /* the payloads point into it */
  *file = (struct mip_file){0};
  struct mip_rec_raw_header h;
  if (read_header(raw, &h, path, err))
    return -1;
  raw->build_id.size = h.build_id_size;
  memcpy(raw->build_id.bytes, h.build_id, h.build_id_size);
  raw->modes = h.modes;
  raw->pid = h.pid;
  return read_sections(raw, &h, path, err) ||
                 (raw->pooled && mip_raw_pool_parse(raw, path, err)) ||
                 mip_raw_heap_parse(raw, path, err)
             ? -1
             : 0;
}

const struct mip_extent *mip_raw_extent(const struct mip_raw *raw,
                                        uint32_t kind) {
  return mip_extent_find(raw->extents, raw->extent_count, kind);
}

const struct mip_raw_payload *mip_raw_find(const struct mip_raw *raw,
                                           uint32_t kind) {
  for (size_t i = 0; i < raw->section_count; i++)
    if (raw->sections[i].extent.kind == kind)
      return &raw->sections[i];
  return NULL;
}

void mip_raw_free(struct mip_raw *raw) {
  free(raw->heap.contexts);
  free(raw->heap.stacks);
  free(raw->heap.segments);
  free(raw->heap.points);
  free(raw->heap.other_peaks);
  memset(&raw->heap, 0, sizeof raw->heap);
  mip_file_free(&raw->file);
}
