#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"

static void record_header(struct mip_buf *map, uint16_t kind, size_t start) {
  mip_buf_align(map, 8);
  struct mip_rec_map_record h = {kind, 1, (uint32_t)(map->size - start)};
  mip_rec_map_record_encode(&h, map->data + start);
}

static void add_string(struct mip_buf *map, const char *s) {
  mip_buf_append(map, s, strlen(s) + 1);
}

void build_unit_sections(struct mip_buf *map, const char *name,
                         const struct slot_spec *sections, size_t count) {
  size_t start = map->size;
  mip_buf_extend(map, mip_rec_map_record_size);
  struct mip_rec_map_unit u = {0, (uint32_t)count, (uint32_t)strlen(name), 0};
  mip_rec_map_unit_encode(&u, mip_buf_extend(map, mip_rec_map_unit_size));
  for (size_t i = 0; i < count; i++) {
    uint32_t elem = mip_raw_counter_size(sections[i].kind);
    if (!elem)
      elem = 1;
    struct mip_rec_map_unit_section s = {sections[i].kind, elem,
                                         sections[i].addr, sections[i].stop};
    mip_rec_map_unit_section_encode(
        &s, mip_buf_extend(map, mip_rec_map_unit_section_size));
  }
  add_string(map, name);
  record_header(map, MIP_MAP_UNIT, start);
}

void build_function_slots(struct mip_buf *map, const char *name,
                          const char *unit, uint32_t flags, uint64_t cfg_hash,
                          uint64_t entry, const struct slot_spec *slots,
                          size_t count) {
  size_t start = map->size;
  mip_buf_extend(map, mip_rec_map_record_size);
  struct mip_rec_map_function f = {cfg_hash,
                                   entry,
                                   flags,
                                   (uint32_t)count,
                                   (uint32_t)strlen(name),
                                   (uint32_t)strlen(unit)};
  mip_rec_map_function_encode(&f,
                              mip_buf_extend(map, mip_rec_map_function_size));
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_map_slot s = {slots[i].kind, slots[i].count, slots[i].addr};
    mip_rec_map_slot_encode(&s, mip_buf_extend(map, mip_rec_map_slot_size));
  }
  add_string(map, name);
  if (*unit)
    add_string(map, unit);
  record_header(map, MIP_MAP_FUNCTION, start);
}

void build_blocks(struct mip_buf *map, uint64_t cov_addr,
                  const struct mip_block *blocks, uint32_t block_count,
                  const uint32_t *deps, uint32_t dep_count) {
  size_t start = map->size;
  mip_buf_extend(map, mip_rec_map_record_size);
  struct mip_rec_map_blocks h = {cov_addr, block_count, dep_count};
  mip_rec_map_blocks_encode(&h, mip_buf_extend(map, mip_rec_map_blocks_size));
  for (uint32_t i = 0; i < block_count; i++) {
    struct mip_rec_map_block b = {blocks[i].line, blocks[i].probe,
                                  blocks[i].dep_first, blocks[i].dep_count};
    mip_rec_map_block_encode(&b, mip_buf_extend(map, mip_rec_map_block_size));
  }
  for (uint32_t i = 0; i < dep_count; i++)
    mip_put_le32(mip_buf_extend(map, 4), deps[i]);
  record_header(map, MIP_MAP_BLOCKS, start);
}

void build_edge_counts_version(struct mip_buf *map, uint16_t version,
                               const char *name, const char *unit,
                               uint32_t flags, uint64_t cfg_hash,
                               uint64_t counters, uint32_t count) {
  size_t start = map->size;
  mip_buf_extend(map, mip_rec_map_record_size);
  struct mip_rec_map_edge_counts r = {cfg_hash, counters,
                                      count,    flags,
                                      (uint32_t)strlen(name),
                                      (uint32_t)strlen(unit)};
  mip_rec_map_edge_counts_encode(
      &r, mip_buf_extend(map, mip_rec_map_edge_counts_size));
  add_string(map, name);
  if (*unit)
    add_string(map, unit);
  record_header(map, MIP_MAP_EDGE_COUNTS, start);
  mip_put_le16(map->data + start + 2, version);
}

void build_edge_counts(struct mip_buf *map, const char *name,
                       const char *unit, uint32_t flags, uint64_t cfg_hash,
                       uint64_t counters, uint32_t count) {
  build_edge_counts_version(map, MIP_MAP_EDGE_COUNTS_VERSION, name, unit,
                            flags, cfg_hash, counters, count);
}

void build_raw_payloads(struct mip_buf *raw, const struct mip_build_id *id,
                        const struct payload_spec *payloads, size_t count) {
  struct mip_rec_raw_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_RAW_MAGIC;
  h.version = MIP_RAW_VERSION;
  h.header_size = mip_rec_raw_header_size;
  h.runs = 1;
  h.section_count = (uint32_t)count;
  h.build_id_size = id->size;
  memcpy(h.build_id, id->bytes, id->size);
  for (size_t i = 0; i < count; i++)
    if (payloads[i].kind < 64)
      h.modes |= MIP_MODE_BIT(payloads[i].kind);
  mip_rec_raw_header_encode(&h, mip_buf_extend(raw, mip_rec_raw_header_size));
  uint64_t offset = (mip_rec_raw_header_size +
                     count * mip_rec_raw_section_size + 7) & ~(uint64_t)7;
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_raw_section s = {payloads[i].kind, payloads[i].elem_size,
                                    payloads[i].link_addr, payloads[i].size,
                                    offset};
    mip_rec_raw_section_encode(&s,
                               mip_buf_extend(raw, mip_rec_raw_section_size));
    offset += (payloads[i].size + 7) & ~(uint64_t)7;
  }
  for (size_t i = 0; i < count; i++) {
    mip_buf_align(raw, 8);
    mip_buf_append(raw, payloads[i].data, payloads[i].size);
  }
  mip_buf_align(raw, 8);
}

void build_unit(struct mip_buf *map, const char *name, uint64_t cov_start,
                uint64_t cov_stop) {
  const struct slot_spec cov = {MIP_RAW_COV, 0, cov_start, cov_stop};
  build_unit_sections(map, name, &cov, 1);
}

void build_function(struct mip_buf *map, const char *name, const char *unit,
                    uint32_t flags, uint64_t cfg_hash, uint64_t entry,
                    uint64_t cov_addr) {
  const struct slot_spec cov = {MIP_RAW_COV, 1, cov_addr, 0};
  build_function_slots(map, name, unit, flags, cfg_hash, entry, &cov, 1);
}

void build_raw(struct mip_buf *raw, const struct mip_build_id *id,
               uint64_t cov_link_addr, const uint8_t *cov, size_t count) {
  const struct payload_spec p = {MIP_RAW_COV, 1, cov_link_addr, cov, count};
  build_raw_payloads(raw, id, &p, 1);
}

void build_heap_site(struct mip_buf *map, uint64_t site, uint64_t function,
                     uint32_t line, uint32_t column, uint32_t allocator,
                     const char *file, const char *name) {
  size_t start = map->size;
  mip_buf_extend(map, mip_rec_map_record_size);
  struct mip_rec_map_heap_site r = {site,
                                    function,
                                    line,
                                    column,
                                    allocator,
                                    (uint32_t)strlen(file),
                                    (uint32_t)strlen(name),
                                    0};
  mip_rec_map_heap_site_encode(&r,
                               mip_buf_extend(map, mip_rec_map_heap_site_size));
  add_string(map, file);
  add_string(map, name);
  record_header(map, MIP_MAP_HEAP_SITE, start);
}

uint32_t full_schema(uint32_t *schema) {
  for (int i = 0; i < MIP_MIB_COUNT; i++)
    schema[i] = mip_mib_defs[i].id;
  return MIP_MIB_COUNT;
}

void build_heap_mibs(struct mip_buf *out, const uint32_t *schema,
                     uint32_t field_count,
                     const struct heap_context_spec *contexts, size_t count) {
  uint32_t size = mip_rec_raw_heap_context_size;
  for (uint32_t i = 0; i < field_count; i++)
    size += mip_mib_width(schema[i]);
  size = (size + 7) & ~7u;
  struct mip_rec_raw_heap_mibs h = {field_count, size, count};
  mip_rec_raw_heap_mibs_encode(&h, mip_buf_extend(out, mip_rec_raw_heap_mibs_size));
  for (uint32_t i = 0; i < field_count; i++)
    mip_put_le32(mip_buf_extend(out, 4), schema[i]);
  mip_buf_align(out, 8);
  for (size_t c = 0; c < count; c++) {
    uint8_t *at = mip_buf_extend(out, size);
    struct mip_rec_raw_heap_context head = {contexts[c].stack,
                                            contexts[c].site};
    mip_rec_raw_heap_context_encode(&head, at);
    at += mip_rec_raw_heap_context_size;
    for (uint32_t i = 0; i < field_count; i++) {
      int k = mip_mib_index(schema[i]);
      uint64_t v = k < 0 ? 0xababababababababULL : contexts[c].mib.v[k];
      if (mip_mib_width(schema[i]) == 4)
        mip_put_le32(at, (uint32_t)v);
      else
        mip_put_le64(at, v);
      at += mip_mib_width(schema[i]);
    }
  }
}

void build_heap_stacks(struct mip_buf *out, const struct heap_stack_spec *s,
                       size_t count) {
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_raw_heap_stack r = {s[i].id, s[i].depth, s[i].flags};
    mip_rec_raw_heap_stack_encode(
        &r, mip_buf_extend(out, mip_rec_raw_heap_stack_size));
    for (uint32_t d = 0; d < s[i].depth; d++)
      mip_put_le64(mip_buf_extend(out, 8), s[i].frames[d]);
  }
}

void build_heap_segments(struct mip_buf *out,
                         const struct heap_segment_spec *s, size_t count) {
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_raw_heap_segment r;
    memset(&r, 0, sizeof r);
    r.start = s[i].start;
    r.end = s[i].end;
    r.load_bias = s[i].load_bias;
    r.build_id_size = s[i].id ? s[i].id->size : 0;
    if (s[i].id)
      memcpy(r.build_id, s[i].id->bytes, s[i].id->size);
    r.name_size = (uint32_t)strlen(s[i].path);
    mip_rec_raw_heap_segment_encode(
        &r, mip_buf_extend(out, mip_rec_raw_heap_segment_size));
    add_string(out, s[i].path);
    mip_buf_align(out, 8);
  }
}

static char dir[64];

const char *test_dir(void) {
  if (!dir[0]) {
    strcpy(dir, "/tmp/mip-unit-XXXXXX");
    if (!mkdtemp(dir)) { /* runs before the tests: no ck_assert here */
      perror("mkdtemp");
      abort();
    }
  }
  return dir;
}

const char *test_path(const char *name) {
  static char path[4][256];
  static int next;
  char *p = path[next++ % 4];
  snprintf(p, 256, "%s/%s", test_dir(), name);
  return p;
}

void write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(data, 1, size, f), size);
  fclose(f);
}

/* main (entry 0x1000) and leaf (0x1100); main has four blocks: the entry,
 * two probed arms and an inferred join. */
void build_two_function_map(struct mip_buf *m) {
  const struct slot_spec sections[] = {
      {MIP_RAW_COV, 0, 0x5000, 0x5002},
      {MIP_RAW_CNT, 0, 0x6000, 0x6010},
      {MIP_RAW_ORD, 0, 0x7000, 0x7008},
      {MIP_RAW_BLK, 0, 0x8000, 0x8002},
  };
  build_unit_sections(m, "a.c", sections, 4);
  const struct slot_spec main_slots[] = {{MIP_RAW_COV, 1, 0x5000, 0},
                                         {MIP_RAW_CNT, 1, 0x6000, 0},
                                         {MIP_RAW_ORD, 1, 0x7000, 0},
                                         {MIP_RAW_BLK, 2, 0x8000, 0}};
  build_function_slots(m, "main", "", 0, 1, 0x1000, main_slots, 4);
  const struct slot_spec leaf_slots[] = {{MIP_RAW_COV, 1, 0x5001, 0},
                                         {MIP_RAW_CNT, 1, 0x6008, 0},
                                         {MIP_RAW_ORD, 1, 0x7004, 0}};
  build_function_slots(m, "leaf", "", 0, 2, 0x1100, leaf_slots, 3);
  const struct mip_block blocks[] = {{10, MIP_PROBE_ENTRY, 0, 0, 0},
                                     {11, 0, 0, 0, 0},
                                     {12, 1, 0, 0, 0},
                                     {13, MIP_PROBE_NONE, 0, 2, 0}};
  const uint32_t deps[] = {1, 2};
  build_blocks(m, 0x5000, blocks, 4, deps, 2);
}
