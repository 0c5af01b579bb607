/*
 * The map: what the plugin wrote into the .debug_mip section of every
 * object file (mip/layout/map_*.inc), concatenated and relocated by the
 * linker. Records come in any order and may be separated by zero padding.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "mipfmt.h"

struct record {
  const uint8_t *body; /* after the record header */
  size_t body_size;
  size_t offset; /* of the record, in the section */
};

/* Steps to the record at *at. Returns 1 and fills rec, 0 at the end, -1 on
 * a malformed record. */
static int next_record(const uint8_t *data, size_t size, size_t *at,
                       struct mip_rec_map_record *hdr, struct record *rec,
                       const char *path, struct mip_error *err) {
  while (*at + mip_rec_map_record_size <= size) {
    mip_rec_map_record_decode(hdr, data + *at);
    if (hdr->kind == 0 && hdr->size == 0) { /* linker padding */
      *at += 8;
      continue;
    }
    if (hdr->size < mip_rec_map_record_size || hdr->size % 8 ||
        hdr->size > size - *at)
      return mip_fail(err, path,
                      "corrupt map: record at offset %zu has size %" PRIu32,
                      *at, hdr->size);
    rec->body = data + *at + mip_rec_map_record_size;
    rec->body_size = hdr->size - mip_rec_map_record_size;
    rec->offset = *at;
    *at += hdr->size;
    return 1;
  }
  if (*at < size)
    return mip_fail(err, path, "corrupt map: %zu stray bytes at offset %zu",
                    size - *at, *at);
  return 0;
}

static int check_version(const struct mip_rec_map_record *hdr, unsigned newest,
                         const char *path, struct mip_error *err) {
  if (hdr->version == 0 || hdr->version > newest)
    return mip_fail(err, path,
                    "map record version %u is newer than this mipdata "
                    "reads (%u); update MIP",
                    hdr->version, newest);
  return 0;
}

/* A string of n bytes at p followed by a NUL, inside [p, end). */
static const char *string_at(const uint8_t *p, const uint8_t *end,
                             uint32_t n) {
  if ((size_t)(end - p) <= n || p[n] != '\0' || memchr(p, '\0', n))
    return NULL;
  return (const char *)p;
}

static int add_extent(struct mip_map *map, const struct mip_extent *e,
                      const char *path, struct mip_error *err) {
  for (size_t i = 0; i < map->extent_count; i++) {
    const struct mip_extent *have = &map->extents[i];
    if (have->kind != e->kind)
      continue;
    if (have->link_addr != e->link_addr || have->size != e->size ||
        have->elem_size != e->elem_size)
      return mip_fail(err, path,
                      "corrupt map: units disagree on where counter kind "
                      "%" PRIu32 " lives",
                      e->kind);
    return 0;
  }
  if (map->extent_count == MIP_MAX_EXTENTS)
    return mip_fail(err, path, "corrupt map: too many counter kinds");
  map->extents[map->extent_count++] = *e;
  return 0;
}

static int parse_unit(struct mip_map *map, const struct mip_rec_map_record *hdr,
                      const struct record *rec, const char *path,
                      struct mip_error *err) {
  if (check_version(hdr, MIP_MAP_UNIT_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_unit_size)
    return mip_fail(err, path, "corrupt map: short unit record at %zu",
                    rec->offset);
  struct mip_rec_map_unit unit;
  mip_rec_map_unit_decode(&unit, rec->body);
  const uint8_t *p = rec->body + mip_rec_map_unit_size;
  const uint8_t *end = rec->body + rec->body_size;
  if (unit.section_count > (size_t)(end - p) / mip_rec_map_unit_section_size)
    return mip_fail(err, path, "corrupt map: unit record at %zu overflows",
                    rec->offset);
  for (uint32_t i = 0; i < unit.section_count; i++) {
    struct mip_rec_map_unit_section s;
    mip_rec_map_unit_section_decode(&s, p);
    p += mip_rec_map_unit_section_size;
    if (s.stop < s.start || s.elem_size == 0)
      return mip_fail(err, path, "corrupt map: bad counter bounds in unit "
                                 "record at %zu",
                      rec->offset);
    struct mip_extent e = {s.kind, s.elem_size, s.start, s.stop - s.start};
    if (add_extent(map, &e, path, err))
      return -1;
  }
  if (!string_at(p, end, unit.name_size))
    return mip_fail(err, path, "corrupt map: bad unit name at %zu",
                    rec->offset);
  return 0;
}

/* Fills fn from a function record. Returns 1 when the function is in the
 * image, 0 when the linker discarded its code, -1 on error. */
static int parse_function(const struct mip_map *map,
                          const struct mip_rec_map_record *hdr,
                          const struct record *rec,
                          struct mip_map_function *fn, const char *path,
                          struct mip_error *err) {
  if (check_version(hdr, MIP_MAP_FUNCTION_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_function_size)
    return mip_fail(err, path, "corrupt map: short function record at %zu",
                    rec->offset);
  struct mip_rec_map_function r;
  mip_rec_map_function_decode(&r, rec->body);
  const uint8_t *p = rec->body + mip_rec_map_function_size;
  const uint8_t *end = rec->body + rec->body_size;
  if (r.slot_count > (size_t)(end - p) / mip_rec_map_slot_size)
    return mip_fail(err, path, "corrupt map: function record at %zu overflows",
                    rec->offset);
  int have_cov = 0;
  for (uint32_t i = 0; i < r.slot_count; i++, p += mip_rec_map_slot_size) {
    struct mip_rec_map_slot slot;
    mip_rec_map_slot_decode(&slot, p);
    if (slot.kind == MIP_RAW_COV) {
      fn->cov_addr = slot.addr;
      have_cov = 1;
    }
  }
  fn->name = string_at(p, end, r.name_size);
  if (!fn->name)
    return mip_fail(err, path, "corrupt map: bad function name at %zu",
                    rec->offset);
  p += r.name_size + 1;
  fn->unit = r.unit_size ? string_at(p, end, r.unit_size) : "";
  if (!fn->unit)
    return mip_fail(err, path, "corrupt map: bad unit name at %zu",
                    rec->offset);
  fn->flags = r.flags;
  fn->cfg_hash = r.cfg_hash;
  fn->entry = r.entry;
  const struct mip_extent *cov =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_COV);
  if (!have_cov || !cov)
    return mip_fail(err, path,
                    "corrupt map: function record at %zu has no coverage "
                    "counter",
                    rec->offset);
  /* A function the linker dropped (--gc-sections) keeps its record, but
   * the reference to its counter resolves outside the section. */
  return fn->cov_addr >= cov->link_addr &&
         fn->cov_addr - cov->link_addr < cov->size;
}

static int by_cov_addr(const void *a, const void *b) {
  const struct mip_map_function *x = a, *y = b;
  return (x->cov_addr > y->cov_addr) - (x->cov_addr < y->cov_addr);
}

static int check_unique_counters(const struct mip_map *map, const char *path,
                                 struct mip_error *err) {
  for (size_t i = 1; i < map->function_count; i++)
    if (map->functions[i].cov_addr == map->functions[i - 1].cov_addr)
      return mip_fail(err, path,
                      "corrupt map: functions %s and %s share a counter",
                      map->functions[i - 1].name, map->functions[i].name);
  return 0;
}

static int parse_units(const uint8_t *data, size_t size, const char *path,
                       struct mip_map *map, struct mip_error *err) {
  struct mip_rec_map_record hdr;
  struct record rec;
  size_t at = 0;
  int more;
  while ((more = next_record(data, size, &at, &hdr, &rec, path, err)) > 0)
    if (hdr.kind == MIP_MAP_UNIT && parse_unit(map, &hdr, &rec, path, err))
      return -1;
  return more;
}

static int parse_functions(const uint8_t *data, size_t size, const char *path,
                           struct mip_map *map, struct mip_error *err) {
  struct mip_rec_map_record hdr;
  struct record rec;
  size_t at = 0, cap = 0;
  int more;
  while ((more = next_record(data, size, &at, &hdr, &rec, path, err)) > 0) {
    if (hdr.kind != MIP_MAP_FUNCTION)
      continue; /* units were read already; newer kinds are skipped */
    struct mip_map_function fn;
    int in_image = parse_function(map, &hdr, &rec, &fn, path, err);
    if (in_image < 0)
      return -1;
    if (!in_image) {
      map->discarded++;
      continue;
    }
    if (map->function_count == cap)
      map->functions = mip_xrealloc(map->functions, cap = cap ? 2 * cap : 64,
                                    sizeof *map->functions);
    map->functions[map->function_count++] = fn;
  }
  return more;
}

int mip_map_parse(const uint8_t *data, size_t size, const char *path,
                  struct mip_map *map, struct mip_error *err) {
  memset(map, 0, sizeof *map);
  if (size == 0)
    return mip_fail(err, path, "empty map");
  if (parse_units(data, size, path, map, err) ||
      parse_functions(data, size, path, map, err))
    return -1;
  if (map->extent_count == 0)
    return mip_fail(err, path, "corrupt map: no unit record");
  if (map->function_count)
    qsort(map->functions, map->function_count, sizeof *map->functions,
          by_cov_addr);
  return check_unique_counters(map, path, err);
}

static int parse_mapfile(const char *path, const struct mip_file *f,
                         struct mip_map *map, struct mip_error *err) {
  if (mip_check_start(f, path, MIP_MAPFILE_MAGIC, "map file",
                      mip_rec_mapfile_header_size, err))
    return -1;
  struct mip_rec_mapfile_header h;
  mip_rec_mapfile_header_decode(&h, f->data);
  if (mip_check_header(f, path, "map file", h.version, MIP_MAPFILE_VERSION,
                       h.header_size, mip_rec_mapfile_header_size,
                       h.build_id_size, err))
    return -1;
  if (h.section_size != f->size - h.header_size)
    return mip_fail(err, path,
                    "truncated map file (map section needs %" PRIu64
                    " bytes, %zu present)",
                    h.section_size, f->size - h.header_size);
  if (mip_map_parse(f->data + h.header_size, h.section_size, path, map, err))
    return -1;
  map->build_id.size = h.build_id_size;
  memcpy(map->build_id.bytes, h.build_id, h.build_id_size);
  return 0;
}

static int parse_any_map(const char *path, const struct mip_file *f,
                         struct mip_map *map, struct mip_error *err) {
  if (f->size == 0)
    return mip_fail(err, path, "empty file");
  uint64_t magic = mip_file_magic(f);
  if (magic == MIP_MAPFILE_MAGIC)
    return parse_mapfile(path, f, map, err);
  if (magic == MIP_RAW_MAGIC || magic == MIP_PROFILE_MAGIC)
    return mip_fail(err, path, "not a map file (this is %s)",
                    magic == MIP_RAW_MAGIC ? "a raw profile"
                                           : "an indexed profile");
  /* A bare section dumped with objcopy: no header, no build-id. */
  struct mip_error inner;
  if (mip_map_parse(f->data, f->size, path, map, &inner))
    return mip_fail(err, path, "not a MIP map file or map section (%s)",
                    inner.msg + strlen(path) + 2);
  return 0;
}

int mip_mapfile_read(const char *path, struct mip_map *map,
                     struct mip_error *err) {
  memset(map, 0, sizeof *map);
  struct mip_file f;
  if (mip_file_read(path, &f, err))
    return -1;
  int rc = parse_any_map(path, &f, map, err);
  map->file = f; /* the map points into it */
  return rc;
}

int mip_mapfile_write(const char *path, const struct mip_build_id *id,
                      const uint8_t *section, size_t size,
                      struct mip_error *err) {
  struct mip_rec_mapfile_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_MAPFILE_MAGIC;
  h.version = MIP_MAPFILE_VERSION;
  h.header_size = mip_rec_mapfile_header_size;
  h.build_id_size = id->size;
  memcpy(h.build_id, id->bytes, id->size);
  h.section_size = size;
  struct mip_buf out = {0};
  mip_rec_mapfile_header_encode(&h, mip_buf_extend(&out, mip_rec_mapfile_header_size));
  mip_buf_append(&out, section, size);
  int rc = mip_file_write_atomic(path, out.data, out.size, err);
  mip_buf_free(&out);
  return rc;
}

void mip_map_free(struct mip_map *map) {
  free(map->functions);
  map->functions = NULL;
  mip_file_free(&map->file);
}
