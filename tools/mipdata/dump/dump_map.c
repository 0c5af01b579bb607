/*
 * mipdata dump of a map: a map file (.mipmap), a map section dumped on
 * its own, or the .debug_mip section of a binary or object file (found
 * and decompressed as `mipdata extract` finds it). The section is checked
 * whole by mip_map_parse first, as create and extract check it; then
 * every record is printed, in section order, with its body.
 */
#include <string.h>

#include "dump.h"
#include "elf_image.h"
#include "mip/layouts.h"

static const char *record_name(uint16_t kind) {
  switch (kind) {
  case MIP_MAP_UNIT:
    return "unit";
  case MIP_MAP_FUNCTION:
    return "function";
  case MIP_MAP_BLOCKS:
    return "blocks";
  case MIP_MAP_HEAP_SITE:
    return "heap site";
  case MIP_MAP_DATA:
    return "data";
  case MIP_MAP_EDGE_COUNTS:
    return "edge counts";
  }
  return "unknown";
}

/* count records of a layout at p, in an array called key */
static void records(struct dump_out *d, const char *key, enum dump_layout_id id,
                    const uint8_t *p, uint64_t count, uint64_t offset) {
  uint32_t size = dump_layout_size(id);
  dump_array_begin(d, key);
  for (uint64_t i = 0; i < count; i++) {
    dump_record_begin(d, NULL, id, p + i * size, offset + i * size);
    dump_object_end(d);
  }
  dump_array_end(d);
}

/* The body of a record of a known kind; every size in it was checked by
 * mip_map_parse. off: of the body in the file. */
static void unit_body(struct dump_out *d, const uint8_t *b, uint64_t off) {
  struct mip_rec_map_unit u;
  mip_rec_map_unit_decode(&u, b);
  uint64_t at = mip_rec_map_unit_size;
  records(d, "sections", DUMP_map_unit_section, b + at, u.section_count,
          off + at);
  at += (uint64_t)u.section_count * mip_rec_map_unit_section_size;
  dump_string(d, "name", (const char *)b + at, off + at);
}

static void function_body(struct dump_out *d, const uint8_t *b, uint64_t off) {
  struct mip_rec_map_function f;
  mip_rec_map_function_decode(&f, b);
  uint64_t at = mip_rec_map_function_size;
  records(d, "slots", DUMP_map_slot, b + at, f.slot_count, off + at);
  at += (uint64_t)f.slot_count * mip_rec_map_slot_size;
  dump_string(d, "name", (const char *)b + at, off + at);
  at += f.name_size + 1;
  if (f.unit_size)
    dump_string(d, "unit", (const char *)b + at, off + at);
}

static void blocks_body(struct dump_out *d, const uint8_t *b, uint64_t off) {
  struct mip_rec_map_blocks h;
  mip_rec_map_blocks_decode(&h, b);
  uint64_t at = mip_rec_map_blocks_size;
  records(d, "blocks", DUMP_map_block, b + at, h.block_count, off + at);
  at += (uint64_t)h.block_count * mip_rec_map_block_size;
  dump_elements(d, "deps", b + at, h.dep_count, 4, off + at);
}

static void heap_site_body(struct dump_out *d, const uint8_t *b,
                           uint64_t off) {
  struct mip_rec_map_heap_site s;
  mip_rec_map_heap_site_decode(&s, b);
  uint64_t at = mip_rec_map_heap_site_size;
  dump_string(d, "file", (const char *)b + at, off + at);
  at += s.file_size + 1;
  dump_string(d, "function_name", (const char *)b + at, off + at);
}

/* The name and, for a local one, the unit that follow a record's fields
 * at at. */
static void name_and_unit(struct dump_out *d, const uint8_t *b, uint64_t at,
                          uint64_t off, uint32_t name_size,
                          uint32_t unit_size) {
  dump_string(d, "name", (const char *)b + at, off + at);
  at += name_size + 1;
  if (unit_size)
    dump_string(d, "unit", (const char *)b + at, off + at);
}

static void data_body(struct dump_out *d, const uint8_t *b, uint64_t off) {
  struct mip_rec_map_data r;
  mip_rec_map_data_decode(&r, b);
  name_and_unit(d, b, mip_rec_map_data_size, off, r.name_size, r.unit_size);
}

static void edge_counts_body(struct dump_out *d, const uint8_t *b,
                             uint64_t off) {
  struct mip_rec_map_edge_counts r;
  mip_rec_map_edge_counts_decode(&r, b);
  name_and_unit(d, b, mip_rec_map_edge_counts_size, off, r.name_size,
                r.unit_size);
}

static void record(struct dump_out *d, const struct mip_map_record *r,
                   const uint8_t *section, uint64_t base) {
  uint64_t off = base + r->offset;
  uint64_t body = off + mip_rec_map_record_size;
  dump_record_begin(d, NULL, DUMP_map_record, section + r->offset, off);
  dump_string(d, "name", record_name(r->hdr.kind), DUMP_NO_OFFSET);
  static const int layouts[] = {
      [MIP_MAP_UNIT] = DUMP_map_unit + 1,
      [MIP_MAP_FUNCTION] = DUMP_map_function + 1,
      [MIP_MAP_BLOCKS] = DUMP_map_blocks + 1,
      [MIP_MAP_HEAP_SITE] = DUMP_map_heap_site + 1,
      [MIP_MAP_DATA] = DUMP_map_data + 1,
      [MIP_MAP_EDGE_COUNTS] = DUMP_map_edge_counts + 1,
  };
  if (r->hdr.kind < sizeof layouts / sizeof layouts[0] && layouts[r->hdr.kind]) {
    dump_record_begin(d, "body", (enum dump_layout_id)(layouts[r->hdr.kind] - 1),
                      r->body, body);
    if (r->hdr.kind == MIP_MAP_UNIT)
      unit_body(d, r->body, body);
    else if (r->hdr.kind == MIP_MAP_FUNCTION)
      function_body(d, r->body, body);
    else if (r->hdr.kind == MIP_MAP_BLOCKS)
      blocks_body(d, r->body, body);
    else if (r->hdr.kind == MIP_MAP_DATA)
      data_body(d, r->body, body);
    else if (r->hdr.kind == MIP_MAP_EDGE_COUNTS)
      edge_counts_body(d, r->body, body);
    else
      heap_site_body(d, r->body, body);
    dump_object_end(d);
  }
  dump_object_end(d);
}

/* The section of size bytes at data, base its offset in the file
 * (DUMP_NO_OFFSET for a compressed section: offsets are then in the
 * section). */
static void section(struct dump_out *d, const uint8_t *data, size_t size,
                    uint64_t base) {
  dump_object_begin(d, "section", base);
  dump_u64(d, "size", size, DUMP_NO_OFFSET);
  dump_array_begin(d, "records");
  struct mip_map_record r;
  size_t at = 0;
  struct mip_error err;
  uint64_t in_file = base == DUMP_NO_OFFSET ? 0 : base;
  while (mip_map_next_record(data, size, &at, &r, "", &err) > 0)
    record(d, &r, data, in_file);
  dump_array_end(d);
  dump_object_end(d);
}

static void print_mapfile(struct dump_out *d, const char *path,
                          const struct mip_file *f) {
  uint8_t bytes[mip_rec_mapfile_header_size] = {0}; /* version 1: shorter */
  memcpy(bytes, f->data,
         f->size < sizeof bytes ? f->size : sizeof bytes);
  struct mip_rec_mapfile_header h;
  mip_rec_mapfile_header_decode(&h, bytes);
  if (h.version == 1)
    h.symbols_size = 0;
  dump_string(d, "file", path, DUMP_NO_OFFSET);
  dump_string(d, "kind", "map file", DUMP_NO_OFFSET);
  dump_u64(d, "size", f->size, DUMP_NO_OFFSET);
  dump_record_begin(d, "header", DUMP_mapfile_header, bytes, 0);
  dump_object_end(d);
  section(d, f->data + h.header_size, h.section_size, h.header_size);
  uint64_t symbols = h.header_size + h.section_size;
  records(d, "symbols", DUMP_symbol, f->data + symbols,
          h.symbols_size / mip_rec_symbol_size, symbols);
}

static int dump_elf(const char *path, struct dump_out *d,
                    struct mip_error *err) {
  struct elf_image img;
  if (elf_image_open(path, &img, err))
    return -1;
  GElf_Shdr shdr;
  Elf_Data *data = NULL;
  struct mip_map map;
  int rc = -1;
  if (elf_image_map(&img, &shdr, &data, &map, err) == 0) {
    struct mip_build_id id;
    elf_image_build_id(&img, &id);
    char hex[2 * MIP_BUILD_ID_MAX + 1];
    dump_start(d);
    dump_string(d, "file", path, DUMP_NO_OFFSET);
    dump_string(d, "kind", "ELF file", DUMP_NO_OFFSET);
    dump_string(d, "build_id", mip_build_id_hex(&id, hex, sizeof hex),
                DUMP_NO_OFFSET);
    int compressed = (shdr.sh_flags & SHF_COMPRESSED) != 0;
    section(d, data->d_buf, data->d_size,
            compressed ? DUMP_NO_OFFSET : shdr.sh_offset);
    dump_end(d);
    rc = 0;
  }
  mip_map_free(&map);
  elf_image_close(&img);
  return rc;
}

int dump_map(const char *path, struct mip_file *f, struct dump_out *d,
             struct mip_error *err) {
  if (f->size >= 4 && memcmp(f->data, "\177ELF", 4) == 0) {
    mip_file_free(f);
    return dump_elf(path, d, err);
  }
  struct mip_map map;
  int rc = mip_mapfile_parse(f, path, &map, err);
  if (rc == 0) {
    dump_start(d);
    if (mip_file_magic(&map.file) == MIP_MAPFILE_MAGIC)
      print_mapfile(d, path, &map.file);
    else {
      dump_string(d, "file", path, DUMP_NO_OFFSET);
      dump_string(d, "kind", "map section", DUMP_NO_OFFSET);
      dump_u64(d, "size", map.file.size, DUMP_NO_OFFSET);
      section(d, map.file.data, map.file.size, 0);
    }
    dump_end(d);
  }
  mip_map_free(&map);
  return rc;
}
