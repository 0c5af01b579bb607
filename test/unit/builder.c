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

void build_unit(struct mip_buf *map, const char *name, uint64_t cov_start,
                uint64_t cov_stop) {
  size_t start = map->size;
  mip_buf_extend(map, mip_rec_map_record_size);
  struct mip_rec_map_unit u = {0, 1, (uint32_t)strlen(name), 0};
  mip_rec_map_unit_encode(&u, mip_buf_extend(map, mip_rec_map_unit_size));
  struct mip_rec_map_unit_section s = {MIP_RAW_COV, 1, cov_start, cov_stop};
  mip_rec_map_unit_section_encode(
      &s, mip_buf_extend(map, mip_rec_map_unit_section_size));
  add_string(map, name);
  record_header(map, MIP_MAP_UNIT, start);
}

void build_function(struct mip_buf *map, const char *name, const char *unit,
                    uint32_t flags, uint64_t cfg_hash, uint64_t entry,
                    uint64_t cov_addr) {
  size_t start = map->size;
  mip_buf_extend(map, mip_rec_map_record_size);
  struct mip_rec_map_function f = {cfg_hash,
                                   entry,
                                   flags,
                                   1,
                                   (uint32_t)strlen(name),
                                   (uint32_t)strlen(unit)};
  mip_rec_map_function_encode(&f,
                              mip_buf_extend(map, mip_rec_map_function_size));
  struct mip_rec_map_slot slot = {MIP_RAW_COV, 1, cov_addr};
  mip_rec_map_slot_encode(&slot, mip_buf_extend(map, mip_rec_map_slot_size));
  add_string(map, name);
  if (*unit)
    add_string(map, unit);
  record_header(map, MIP_MAP_FUNCTION, start);
}

void build_raw(struct mip_buf *raw, const struct mip_build_id *id,
               uint64_t cov_link_addr, const uint8_t *cov, size_t count) {
  struct mip_rec_raw_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_RAW_MAGIC;
  h.version = MIP_RAW_VERSION;
  h.header_size = mip_rec_raw_header_size;
  h.modes = MIP_MODE_BIT(MIP_RAW_COV);
  h.section_count = 1;
  h.build_id_size = id->size;
  memcpy(h.build_id, id->bytes, id->size);
  mip_rec_raw_header_encode(&h, mip_buf_extend(raw, mip_rec_raw_header_size));
  uint64_t payload = (mip_rec_raw_header_size + mip_rec_raw_section_size + 7) &
                     ~(uint64_t)7;
  struct mip_rec_raw_section s = {MIP_RAW_COV, 1, cov_link_addr, count,
                                  payload};
  mip_rec_raw_section_encode(&s, mip_buf_extend(raw, mip_rec_raw_section_size));
  mip_buf_align(raw, 8);
  mip_buf_append(raw, cov, count);
  mip_buf_align(raw, 8);
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
