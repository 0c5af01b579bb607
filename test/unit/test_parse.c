/* The readers' entry points for bytes already in memory (mip_*_parse):
 * a file's bytes parse to what reading the file gives, a refusal names
 * the path given, and the bytes are taken either way. */
#include <string.h>

#include "builder.h"
#include "suites.h"

#define COV 0x5000
static const struct mip_build_id ID = {2, {0xaa, 0xbb}};
static const uint8_t RUN[2] = {1, 0};

static void two_functions(struct mip_buf *m) {
  build_unit(m, "a.c", COV, COV + 2);
  build_function(m, "main", "", 0, 11, 0x1000, COV + 1);
  build_function(m, "helper", "a.c", MIP_FN_LOCAL, 22, 0x1100, COV);
}

/* A copy of bytes in a block of its own, as a parse takes it. */
static struct mip_file copy_of(const void *data, size_t size) {
  struct mip_file f = {mip_xmalloc(size), size};
  memcpy(f.data, data, size);
  return f;
}

static struct mip_file file_bytes(const char *path) {
  struct mip_file f;
  struct mip_error err;
  ck_assert_msg(mip_file_read(path, &f, &err) == 0, "%s", err.msg);
  return f;
}

/* A profile of two_functions with one run, written to path. */
static void written_profile(struct mip_profile *p, const char *path) {
  struct mip_buf m = {0}, raw = {0};
  struct mip_map map;
  struct mip_raw r;
  struct mip_error err;
  two_functions(&m);
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "m", &map, &err), 0);
  map.build_id = ID;
  mip_profile_from_map(&map, p);
  build_raw(&raw, &ID, COV, RUN, 2);
  struct mip_file bytes = copy_of(raw.data, raw.size);
  ck_assert_msg(mip_raw_parse(&bytes, "r.mipraw", &r, &err) == 0, "%s",
                err.msg);
  ck_assert_int_eq(mip_profile_add_raw(p, path, &r, "r.mipraw", &err), 0);
  ck_assert_int_eq(mip_profile_write(path, p, &err), 0);
  mip_raw_free(&r);
  mip_map_free(&map);
  mip_buf_free(&raw);
  mip_buf_free(&m);
}

START_TEST(profile_encodes_and_parses_as_written) {
  struct mip_profile p, back;
  struct mip_error err;
  const char *path = test_path("p.mip");
  written_profile(&p, path);
  struct mip_file written = file_bytes(path);
  struct mip_buf encoded = {0};
  mip_profile_encode(&p, &encoded);
  ck_assert_uint_eq(encoded.size, written.size);
  ck_assert_mem_eq(encoded.data, written.data, written.size);

  struct mip_file bytes = copy_of(written.data, written.size);
  ck_assert_msg(mip_profile_parse(&bytes, "mem.mip", &back, &err) == 0, "%s",
                err.msg);
  ck_assert_ptr_null(bytes.data);
  ck_assert_uint_eq(back.runs, 1);
  ck_assert_uint_eq(back.function_count, 2);
  ck_assert_uint_eq(back.functions[0].covered_runs, 1); /* a.c;helper */
  ck_assert_uint_eq(back.functions[1].covered_runs, 0); /* main */
  mip_profile_free(&back);

  struct mip_view v;
  bytes = copy_of(written.data, written.size);
  ck_assert_msg(mip_view_parse(&bytes, "mem.mip", &v, &err) == 0, "%s",
                err.msg);
  ck_assert_uint_eq(v.runs, 1);
  ck_assert_uint_eq(mip_view_count(&v, MIP_PROF_FUNCTIONS), 2);
  mip_view_close(&v);

  bytes = copy_of(written.data, written.size - 9);
  ck_assert_int_eq(mip_profile_parse(&bytes, "cut.mip", &back, &err), -1);
  ck_assert_ptr_null(bytes.data);
  ck_assert_msg(strncmp(err.msg, "cut.mip: truncated", 18) == 0, "%s",
                err.msg);
  mip_profile_free(&back);
  bytes = (struct mip_file){mip_xmalloc(1), 0};
  ck_assert_int_eq(mip_view_parse(&bytes, "none.mip", &v, &err), -1);
  ck_assert_str_eq(err.msg, "none.mip: empty file");
  mip_buf_free(&encoded);
  mip_file_free(&written);
  mip_profile_free(&p);
}
END_TEST

START_TEST(raw_parses_as_read) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, COV, RUN, 2);
  struct mip_file bytes = copy_of(b.data, b.size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_msg(mip_raw_parse(&bytes, "mem.mipraw", &raw, &err) == 0, "%s",
                err.msg);
  ck_assert_ptr_null(bytes.data);
  ck_assert(mip_build_id_equal(&raw.build_id, &ID));
  const struct mip_raw_payload *cov = mip_raw_find(&raw, MIP_RAW_COV);
  ck_assert_ptr_nonnull(cov);
  ck_assert_uint_eq(cov->extent.link_addr, COV);
  ck_assert_mem_eq(cov->data, RUN, 2);
  mip_raw_free(&raw);

  bytes = copy_of(b.data, 60);
  ck_assert_int_eq(mip_raw_parse(&bytes, "cut.mipraw", &raw, &err), -1);
  ck_assert_ptr_null(bytes.data);
  ck_assert_msg(strncmp(err.msg, "cut.mipraw: ", 12) == 0, "%s", err.msg);
  mip_raw_free(&raw);
  mip_buf_free(&b);
}
END_TEST

START_TEST(mapfile_parses_as_read) {
  struct mip_buf m = {0};
  two_functions(&m);
  struct mip_error err;
  const char *path = test_path("x.mipmap");
  const struct mip_symbol symbols[] = {{0x1000, 0x40}, {0x1100, 0x20}};
  ck_assert_int_eq(
      mip_mapfile_write(path, &ID, m.data, m.size, symbols, 2, &err), 0);
  struct mip_file bytes = file_bytes(path);
  struct mip_map map;
  ck_assert_msg(mip_mapfile_parse(&bytes, "mem.mipmap", &map, &err) == 0,
                "%s", err.msg);
  ck_assert_ptr_null(bytes.data);
  ck_assert(mip_build_id_equal(&map.build_id, &ID));
  ck_assert_uint_eq(map.function_count, 2);
  ck_assert_uint_eq(map.symbol_count, 2);
  mip_map_free(&map);

  bytes = copy_of(m.data, m.size); /* a bare section */
  ck_assert_int_eq(mip_mapfile_parse(&bytes, "bare", &map, &err), 0);
  ck_assert_uint_eq(map.build_id.size, 0);
  ck_assert_uint_eq(map.function_count, 2);
  mip_map_free(&map);

  bytes = copy_of(m.data, m.size - 5);
  ck_assert_int_eq(mip_mapfile_parse(&bytes, "cut", &map, &err), -1);
  ck_assert_msg(strncmp(err.msg, "cut: not a MIP map", 18) == 0, "%s",
                err.msg);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

Suite *parse_suite(void) {
  Suite *s = suite_create("parse");
  TCase *tc = tcase_create("bytes");
  tcase_add_test(tc, profile_encodes_and_parses_as_written);
  tcase_add_test(tc, raw_parses_as_read);
  tcase_add_test(tc, mapfile_parses_as_read);
  suite_add_tcase(s, tc);
  return s;
}
