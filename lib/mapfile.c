/*
 * Map files (.mipmap): the map section as `mipdata extract` found it, with
 * the image's build-id and (version 2) its function symbols
 * (mip/layout/mapfile_header.inc, symbol.inc). A map section dumped on its
 * own by objcopy is read too: it has neither.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "mipfmt.h"

/* Version 1 headers end before symbols_size. */
#define MAPFILE_V1_HEADER_SIZE (mip_rec_mapfile_header_size - 8)

static int read_symbols(struct mip_map *map, const uint8_t *p, uint64_t size,
                        const char *path, struct mip_error *err) {
  if (size % mip_rec_symbol_size)
    return mip_fail(err, path, "corrupt map file: bad symbol table size");
  size_t count = size / mip_rec_symbol_size;
  map->symbols = mip_xcalloc(count, sizeof *map->symbols);
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_symbol s;
    mip_rec_symbol_decode(&s, p + i * mip_rec_symbol_size);
    if (i && s.addr < map->symbols[i - 1].addr)
      return mip_fail(err, path, "corrupt map file: symbols out of order");
    map->symbols[i] = (struct mip_symbol){s.addr, s.size};
  }
  map->symbol_count = count;
  return 0;
}

static int parse_mapfile(const char *path, const struct mip_file *f,
                         struct mip_map *map, struct mip_error *err) {
  if (mip_check_start(f, path, MIP_MAPFILE_MAGIC, "map file",
                      MAPFILE_V1_HEADER_SIZE, err))
    return -1;
  uint8_t bytes[mip_rec_mapfile_header_size] = {0};
  memcpy(bytes, f->data,
         f->size < sizeof bytes ? f->size : sizeof bytes);
  struct mip_rec_mapfile_header h;
  mip_rec_mapfile_header_decode(&h, bytes);
  if (h.version == 1)
    h.symbols_size = 0; /* not in the header */
  size_t min_header = h.version == 1 ? MAPFILE_V1_HEADER_SIZE
                                     : mip_rec_mapfile_header_size;
  if (mip_check_header(f, path, "map file", h.version, MIP_MAPFILE_VERSION,
                       h.header_size, min_header, h.build_id_size, err))
    return -1;
  uint64_t body = f->size - h.header_size;
  if (h.section_size > body || h.symbols_size != body - h.section_size)
    return mip_fail(err, path,
                    "truncated map file (needs %" PRIu64 " bytes after the "
                    "header, %" PRIu64 " present)",
                    h.section_size + h.symbols_size, body);
  const uint8_t *section = f->data + h.header_size;
  if (mip_map_parse(section, h.section_size, path, map, err) ||
      read_symbols(map, section + h.section_size, h.symbols_size, path, err))
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
  struct mip_file f;
  if (mip_file_read(path, &f, err)) {
    memset(map, 0, sizeof *map);
    return -1;
  }
  return mip_mapfile_parse(&f, path, map, err);
}

int mip_mapfile_parse(struct mip_file *file, const char *path,
                      struct mip_map *map, struct mip_error *err) {
  memset(map, 0, sizeof *map);
  struct mip_file f = *file;
  *file = (struct mip_file){0};
  int rc = parse_any_map(path, &f, map, err);
  map->file = f; /* the map points into it */
  return rc;
}

void mip_mapfile_encode(const struct mip_build_id *id, const uint8_t *section,
                        size_t size, const struct mip_symbol *symbols,
                        size_t symbol_count, struct mip_buf *out) {
  struct mip_rec_mapfile_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_MAPFILE_MAGIC;
  h.version = MIP_MAPFILE_VERSION;
  h.header_size = mip_rec_mapfile_header_size;
  h.build_id_size = id->size;
  memcpy(h.build_id, id->bytes, id->size);
  h.section_size = size;
  h.symbols_size = (uint64_t)symbol_count * mip_rec_symbol_size;
  mip_rec_mapfile_header_encode(
      &h, mip_buf_extend(out, mip_rec_mapfile_header_size));
  mip_buf_append(out, section, size);
  for (size_t i = 0; i < symbol_count; i++) {
    struct mip_rec_symbol s = {symbols[i].addr, symbols[i].size};
    mip_rec_symbol_encode(&s, mip_buf_extend(out, mip_rec_symbol_size));
  }
}

int mip_mapfile_write(const char *path, const struct mip_build_id *id,
                      const uint8_t *section, size_t size,
                      const struct mip_symbol *symbols, size_t symbol_count,
                      struct mip_error *err) {
  struct mip_buf out = {0};
  mip_mapfile_encode(id, section, size, symbols, symbol_count, &out);
  int rc = mip_file_write_atomic(path, out.data, out.size, err);
  mip_buf_free(&out);
  return rc;
}
