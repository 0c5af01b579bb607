/* Indexed profiles: created from a map, written, read back, merged. */
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

#define COV 0x5000
static const struct mip_build_id ID = {2, {0xaa, 0xbb}};

/* Three functions: main (counter 2), helper in a.c (counter 0), helper in
 * b.c (counter 1). */
static void make_profile(struct mip_profile *p) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 3);
  build_function(&m, "main", "", 0, 1, 0x1000, COV + 2);
  build_function(&m, "helper", "a.c", MIP_FN_LOCAL, 2, 0x1100, COV);
  build_function(&m, "helper", "b.c", MIP_FN_LOCAL, 3, 0x1200, COV + 1);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "m", &map, &err), 0);
  map.build_id = ID;
  mip_profile_from_map(&map, p);
  mip_map_free(&map);
  mip_buf_free(&m);
}

static void add_run(struct mip_profile *p, const uint8_t cov[3]) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, COV, cov, 3);
  const char *path = test_path("run.mipraw");
  write_file(path, b.data, b.size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_int_eq(mip_profile_add_raw(p, "p.mip", &raw, path, &err), 0);
  mip_raw_free(&raw);
  mip_buf_free(&b);
}

static const char *key(const struct mip_profile *p, size_t i) {
  return mip_profile_string(p, p->functions[i].key);
}

START_TEST(locals_are_keyed_by_unit) {
  struct mip_profile p;
  make_profile(&p);
  ck_assert_uint_eq(p.function_count, 3);
  ck_assert_str_eq(key(&p, 0), "a.c;helper");
  ck_assert_str_eq(key(&p, 1), "b.c;helper");
  ck_assert_str_eq(key(&p, 2), "main");
  ck_assert_str_eq(mip_profile_string(&p, p.functions[1].name), "helper");
  ck_assert_str_eq(mip_profile_string(&p, p.functions[1].unit), "b.c");
  ck_assert_uint_eq(p.functions[1].cov_offset, 1);
  mip_profile_free(&p);
}
END_TEST

START_TEST(merge_counts_covering_runs) {
  struct mip_profile p;
  make_profile(&p);
  add_run(&p, (const uint8_t[]){1, 0, 1});
  add_run(&p, (const uint8_t[]){1, 0, 0});
  ck_assert_uint_eq(p.runs, 2);
  ck_assert_uint_eq(p.functions[0].covered_runs, 2); /* a.c;helper */
  ck_assert_uint_eq(p.functions[1].covered_runs, 0); /* b.c;helper */
  ck_assert_uint_eq(p.functions[2].covered_runs, 1); /* main */
  mip_profile_free(&p);
}
END_TEST

/* An AArch64 run's file: its coverage bytes are 0 once entered, and its
 * header says so. */
static void add_cov_zero_run(struct mip_profile *p, const uint8_t cov[3]) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, COV, cov, 3);
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, b.data);
  h.flags |= MIP_RAW_COV_ZERO;
  mip_rec_raw_header_encode(&h, b.data);
  const char *path = test_path("run.mipraw");
  write_file(path, b.data, b.size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_int_eq(mip_profile_add_raw(p, "p.mip", &raw, path, &err), 0);
  mip_raw_free(&raw);
  mip_buf_free(&b);
}

START_TEST(merge_takes_zero_for_entered_with_cov_zero) {
  struct mip_profile p;
  make_profile(&p);
  add_cov_zero_run(&p, (const uint8_t[]){0, 1, 0});
  add_run(&p, (const uint8_t[]){1, 0, 0}); /* a file without the flag */
  ck_assert_uint_eq(p.runs, 2);
  ck_assert_uint_eq(p.functions[0].covered_runs, 2); /* a.c;helper */
  ck_assert_uint_eq(p.functions[1].covered_runs, 0); /* b.c;helper */
  ck_assert_uint_eq(p.functions[2].covered_runs, 1); /* main */
  mip_profile_free(&p);
}
END_TEST

START_TEST(write_read_round_trip) {
  struct mip_profile p, back;
  struct mip_error err;
  make_profile(&p);
  add_run(&p, (const uint8_t[]){0, 1, 1});
  const char *path = test_path("rt.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  ck_assert_int_eq(mip_profile_read(path, &back, &err), 0);
  ck_assert(mip_build_id_equal(&back.build_id, &ID));
  ck_assert_uint_eq(back.runs, 1);
  ck_assert_uint_eq(back.function_count, 3);
  for (size_t i = 0; i < 3; i++) {
    ck_assert_str_eq(key(&back, i), key(&p, i));
    ck_assert_uint_eq(back.functions[i].covered_runs,
                      p.functions[i].covered_runs);
    ck_assert_uint_eq(back.functions[i].entry, p.functions[i].entry);
  }
  mip_profile_free(&p);
  mip_profile_free(&back);
}
END_TEST

START_TEST(view_finds_functions_by_key) {
  struct mip_profile p;
  struct mip_error err;
  make_profile(&p);
  add_run(&p, (const uint8_t[]){0, 1, 1});
  const char *path = test_path("view.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  struct mip_view v;
  ck_assert_int_eq(mip_view_open(path, &v, &err), 0);
  ck_assert_uint_eq(v.runs, 1);
  ck_assert(mip_build_id_equal(&v.build_id, &ID));
  ck_assert_uint_eq(mip_view_count(&v, MIP_PROF_FUNCTIONS), 3);
  uint64_t first;
  ck_assert_uint_eq(mip_view_find(&v, "main", &first), 1);
  ck_assert_uint_eq(first, 2);
  ck_assert_uint_eq(mip_view_find(&v, "b.c;helper", &first), 1);
  ck_assert_uint_eq(first, 1);
  /* A local function is known by unit;name only. */
  ck_assert_uint_eq(mip_view_find(&v, "helper", &first), 0);
  ck_assert_uint_eq(mip_view_find(&v, "zzz", &first), 0);
  ck_assert_uint_eq(first, 3);
  struct mip_profile_function f;
  ck_assert_int_eq(mip_view_function(&v, 1, &f, &err), 0);
  ck_assert_str_eq(mip_view_string(&v, f.name), "helper");
  ck_assert_str_eq(mip_view_string(&v, f.unit), "b.c");
  ck_assert_uint_eq(f.covered_runs, 1);
  ck_assert_uint_eq(f.cfg_hash, 3);
  ck_assert_uint_eq(f.cnt_offset, MIP_NO_OFFSET); /* coverage only */
  ck_assert_ptr_null(mip_view_string(&v, (uint32_t)v.tables[MIP_PROF_STRINGS].count));
  mip_view_close(&v);
  mip_profile_free(&p);
}
END_TEST

/* Static functions of two files both called a.c share a key: the view
 * finds both, next to each other. */
START_TEST(view_finds_every_function_of_a_key) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 3);
  build_function(&m, "helper", "a.c", MIP_FN_LOCAL, 7, 0x1200, COV);
  build_function(&m, "helper", "a.c", MIP_FN_LOCAL, 8, 0x1100, COV + 1);
  build_function(&m, "main", "", 0, 1, 0x1000, COV + 2);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "m", &map, &err), 0);
  struct mip_profile p;
  mip_profile_from_map(&map, &p);
  const char *path = test_path("twins.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  struct mip_view v;
  ck_assert_int_eq(mip_view_open(path, &v, &err), 0);
  uint64_t first;
  ck_assert_uint_eq(mip_view_find(&v, "a.c;helper", &first), 2);
  ck_assert_uint_eq(first, 0);
  struct mip_profile_function a, b;
  ck_assert_int_eq(mip_view_function(&v, 0, &a, &err), 0);
  ck_assert_int_eq(mip_view_function(&v, 1, &b, &err), 0);
  ck_assert_uint_eq(a.entry, 0x1100); /* same key: by entry */
  ck_assert_uint_eq(b.cfg_hash, 7);
  mip_view_close(&v);
  mip_profile_free(&p);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

START_TEST(view_refuses_what_it_cannot_open) {
  struct mip_view v;
  struct mip_error err;
  ck_assert_int_eq(mip_view_open(test_path("none.mip"), &v, &err), -1);
  ck_assert_ptr_nonnull(strstr(err.msg, "none.mip: cannot open"));
  const char *empty = test_path("empty.mip");
  write_file(empty, "", 0);
  ck_assert_int_eq(mip_view_open(empty, &v, &err), -1);
  ck_assert_ptr_nonnull(strstr(err.msg, "empty.mip: empty file"));
  ck_assert_int_eq(mip_view_open(test_dir(), &v, &err), -1);
  ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
}
END_TEST

START_TEST(refuses_raw_of_another_build) {
  struct mip_profile p;
  make_profile(&p);
  struct mip_build_id other = {2, {0xaa, 0xcc}};
  struct mip_buf b = {0};
  build_raw(&b, &other, COV, (const uint8_t[]){1, 1, 1}, 3);
  const char *path = test_path("other.mipraw");
  write_file(path, b.data, b.size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_int_eq(mip_profile_add_raw(&p, "p.mip", &raw, path, &err), -1);
  ck_assert_msg(strstr(err.msg, "aacc") && strstr(err.msg, "aabb"),
                "both build-ids named: %s", err.msg);
  ck_assert_uint_eq(p.runs, 0);
  mip_raw_free(&raw);
  mip_buf_free(&b);
  mip_profile_free(&p);
}
END_TEST

START_TEST(refuses_raw_with_other_layout) {
  struct mip_profile p;
  make_profile(&p);
  p.build_id.size = 0; /* created from a bare section: layout decides */
  struct mip_buf b = {0};
  build_raw(&b, &ID, COV, (const uint8_t[]){1, 1, 1, 1}, 4);
  const char *path = test_path("layout.mipraw");
  write_file(path, b.data, b.size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_int_eq(mip_profile_add_raw(&p, "p.mip", &raw, path, &err), -1);
  ck_assert_ptr_nonnull(strstr(err.msg, "another build"));
  mip_raw_free(&raw);
  mip_buf_free(&b);
  mip_profile_free(&p);
}
END_TEST

START_TEST(merging_profiles_adds_runs) {
  struct mip_profile a, b;
  struct mip_error err;
  make_profile(&a);
  make_profile(&b);
  add_run(&a, (const uint8_t[]){1, 0, 0});
  add_run(&b, (const uint8_t[]){1, 1, 0});
  add_run(&b, (const uint8_t[]){0, 1, 0});
  ck_assert_int_eq(mip_profile_add_profile(&a, "a", &b, "b", &err), 0);
  ck_assert_uint_eq(a.runs, 3);
  ck_assert_uint_eq(a.functions[0].covered_runs, 2);
  ck_assert_uint_eq(a.functions[1].covered_runs, 2);
  ck_assert_uint_eq(a.functions[2].covered_runs, 0);
  mip_profile_free(&a);
  mip_profile_free(&b);
}
END_TEST

static void expect_read_error(const void *data, size_t size,
                              const char *needle) {
  const char *path = test_path("bad.mip");
  write_file(path, data, size);
  struct mip_profile p;
  struct mip_error err;
  ck_assert_int_eq(mip_profile_read(path, &p, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  mip_profile_free(&p);
}

/* Section 0 of the indexed profile in data, rewritten. */
static void set_first_section(uint8_t *data, uint64_t offset, uint64_t size) {
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, data);
  struct mip_rec_profile_section s;
  mip_rec_profile_section_decode(&s, data + h.header_size);
  s.offset = offset;
  s.size = size;
  mip_rec_profile_section_encode(&s, data + h.header_size);
}

/* The bytes of a good profile file, in f. */
static void good_profile_file(struct mip_file *f) {
  struct mip_profile p;
  struct mip_error err;
  make_profile(&p);
  const char *path = test_path("good.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  ck_assert_int_eq(mip_file_read(path, f, &err), 0);
  mip_profile_free(&p);
}

START_TEST(refuses_sections_past_the_end) {
  struct mip_file f;
  good_profile_file(&f);
  set_first_section(f.data, UINT64_MAX - 7, 8);
  expect_read_error(f.data, f.size, "section 0 lies outside the file (offset "
                                    "18446744073709551608, size 8;");
  set_first_section(f.data, 8, UINT64_MAX);
  expect_read_error(f.data, f.size, "section 0 lies outside the file (offset "
                                    "8, size 18446744073709551615;");
  set_first_section(f.data, f.size - 8, 16);
  expect_read_error(f.data, f.size, "truncated profile (section 0 needs bytes "
                                    "up to");
  mip_file_free(&f);
}
END_TEST

START_TEST(refuses_bad_profiles) {
  struct mip_file f;
  good_profile_file(&f);

  expect_read_error(f.data, 0, "empty file");
  expect_read_error(f.data, 60, "truncated");
  expect_read_error(f.data, f.size - 9, "truncated");
  f.data[0] ^= 1;
  expect_read_error(f.data, f.size, "bad magic");
  f.data[0] ^= 1;
  f.data[8] = 99;
  expect_read_error(f.data, f.size, "newer");
  mip_file_free(&f);
}
END_TEST

Suite *profile_suite(void) {
  Suite *s = suite_create("profile");
  TCase *tc = tcase_create("profile");
  tcase_add_test(tc, locals_are_keyed_by_unit);
  tcase_add_test(tc, merge_counts_covering_runs);
  tcase_add_test(tc, merge_takes_zero_for_entered_with_cov_zero);
  tcase_add_test(tc, write_read_round_trip);
  tcase_add_test(tc, view_finds_functions_by_key);
  tcase_add_test(tc, view_finds_every_function_of_a_key);
  tcase_add_test(tc, view_refuses_what_it_cannot_open);
  tcase_add_test(tc, refuses_raw_of_another_build);
  tcase_add_test(tc, refuses_raw_with_other_layout);
  tcase_add_test(tc, merging_profiles_adds_runs);
  tcase_add_test(tc, refuses_bad_profiles);
  tcase_add_test(tc, refuses_sections_past_the_end);
  suite_add_tcase(s, tc);
  return s;
}
