/* Parsing map sections: what the linker leaves, and what it must refuse. */
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

#define COV 0x5000

static void two_functions(struct mip_buf *m) {
  build_unit(m, "a.c", COV, COV + 2);
  build_function(m, "main", "", 0, 11, 0x1000, COV + 1);
  build_function(m, "helper", "a.c", MIP_FN_LOCAL, 22, 0x1100, COV);
}

START_TEST(parses_units_and_functions) {
  struct mip_buf m = {0};
  two_functions(&m);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "x", &map, &err), 0);
  ck_assert_uint_eq(map.function_count, 2);
  ck_assert_uint_eq(map.extent_count, 1);
  ck_assert_uint_eq(map.extents[0].size, 2);
  /* sorted by counter address */
  ck_assert_str_eq(map.functions[0].name, "helper");
  ck_assert_str_eq(map.functions[0].unit, "a.c");
  ck_assert_uint_eq(map.functions[0].cfg_hash, 22);
  ck_assert_str_eq(map.functions[1].name, "main");
  ck_assert_str_eq(map.functions[1].unit, "");
  ck_assert_uint_eq(map.functions[1].entry, 0x1000);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

START_TEST(clears_the_thumb_bit_where_flagged) {
  /* An Arm Thumb function's entry comes with bit 0 set; an odd x86-64
   * entry without the flag is an address as it is. */
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 2);
  build_function(&m, "thumb", "", MIP_FN_THUMB_BIT, 11, 0x1001, COV);
  build_function(&m, "odd", "", 0, 22, 0x1101, COV + 1);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "x", &map, &err), 0);
  ck_assert_str_eq(map.functions[0].name, "thumb");
  ck_assert_uint_eq(map.functions[0].entry, 0x1000);
  ck_assert_uint_eq(map.functions[0].flags, 0);
  ck_assert_uint_eq(map.functions[1].entry, 0x1101);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

START_TEST(functions_before_unit_and_padding) {
  /* COMDAT records may land before any unit record, and linkers may pad
   * between input sections. */
  struct mip_buf m = {0};
  build_function(&m, "_Z5twiceIiET_S0_", "", MIP_FN_COMDAT, 1, 0x2000, COV);
  mip_buf_extend(&m, 16);
  build_unit(&m, "b.cc", COV, COV + 1);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "x", &map, &err), 0);
  ck_assert_uint_eq(map.function_count, 1);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

START_TEST(discarded_functions_are_dropped) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  build_function(&m, "kept", "", 0, 1, 0x1000, COV);
  build_function(&m, "gc_d", "", 0, 1, 0, 0); /* --gc-sections */
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "x", &map, &err), 0);
  ck_assert_uint_eq(map.function_count, 1);
  ck_assert_uint_eq(map.discarded, 1);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

START_TEST(unknown_record_kinds_are_skipped) {
  struct mip_buf m = {0};
  two_functions(&m);
  struct mip_rec_map_record future = {77, 1, 24};
  mip_rec_map_record_encode(&future, mip_buf_extend(&m, 24));
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "x", &map, &err), 0);
  ck_assert_uint_eq(map.function_count, 2);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

static void expect_error(struct mip_buf *m, const char *needle) {
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m->data, m->size, "f.map", &map, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "message '%s' lacks '%s'", err.msg,
                needle);
  ck_assert_msg(strncmp(err.msg, "f.map: ", 7) == 0, "'%s'", err.msg);
  mip_map_free(&map);
  mip_buf_free(m);
}

/* A name from the file, quoted in a message, keeps it one line: its
 * newline and terminal escape become '?'. */
START_TEST(messages_stay_one_line) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  const struct slot_spec slots[] = {{MIP_RAW_COV, 1, COV, 0},
                                    {MIP_RAW_CNT, 1, 0x6000, 0}};
  build_function_slots(&m, "evil\nname\x1b[2J", "", 0, 1, 0x1000, slots, 2);
  expect_error(&m, "function evil?name?[2J has counters of kind 2 outside");
}
END_TEST

START_TEST(refuses_newer_record_version) {
  struct mip_buf m = {0};
  two_functions(&m);
  m.data[2] = 9; /* version of the unit record */
  expect_error(&m, "newer");
}
END_TEST

START_TEST(refuses_bad_record_size) {
  struct mip_buf m = {0};
  two_functions(&m);
  m.data[4] = 0xff; /* size beyond the end */
  expect_error(&m, "corrupt map");
}
END_TEST

START_TEST(refuses_truncated_section) {
  struct mip_buf m = {0};
  two_functions(&m);
  m.size -= 5;
  expect_error(&m, "corrupt map");
}
END_TEST

START_TEST(refuses_map_without_unit) {
  struct mip_buf m = {0};
  build_function(&m, "f", "", 0, 1, 0x1000, COV);
  expect_error(&m, "coverage counter");
}
END_TEST

START_TEST(refuses_shared_counter) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  build_function(&m, "f", "", 0, 1, 0x1000, COV);
  build_function(&m, "g", "", 0, 1, 0x1010, COV);
  expect_error(&m, "share a counter");
}
END_TEST

START_TEST(refuses_units_that_disagree) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  build_unit(&m, "b.c", COV, COV + 2);
  expect_error(&m, "disagree");
}
END_TEST

START_TEST(refuses_unterminated_name) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  size_t at = m.size;
  build_function(&m, "abc", "", 0, 1, 0x1000, COV);
  /* the NUL after the name */
  m.data[at + mip_rec_map_record_size + mip_rec_map_function_size +
         mip_rec_map_slot_size + 3] = 'x';
  expect_error(&m, "bad function name");
}
END_TEST

START_TEST(mapfile_round_trip_and_bare_section) {
  struct mip_buf m = {0};
  two_functions(&m);
  struct mip_build_id id = {4, {1, 2, 3, 4}};
  struct mip_error err;
  const char *path = test_path("x.mipmap");
  const struct mip_symbol symbols[] = {{0x1000, 0x40}, {0x1100, 0x20}};
  ck_assert_int_eq(
      mip_mapfile_write(path, &id, m.data, m.size, symbols, 2, &err), 0);
  struct mip_map map;
  ck_assert_int_eq(mip_mapfile_read(path, &map, &err), 0);
  ck_assert(mip_build_id_equal(&map.build_id, &id));
  ck_assert_uint_eq(map.function_count, 2);
  mip_map_free(&map);

  const char *bare = test_path("bare.section");
  write_file(bare, m.data, m.size);
  ck_assert_int_eq(mip_mapfile_read(bare, &map, &err), 0);
  ck_assert_uint_eq(map.build_id.size, 0);
  ck_assert_uint_eq(map.function_count, 2);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

Suite *map_suite(void) {
  Suite *s = suite_create("map");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, parses_units_and_functions);
  tcase_add_test(tc, clears_the_thumb_bit_where_flagged);
  tcase_add_test(tc, functions_before_unit_and_padding);
  tcase_add_test(tc, discarded_functions_are_dropped);
  tcase_add_test(tc, unknown_record_kinds_are_skipped);
  tcase_add_test(tc, refuses_newer_record_version);
  tcase_add_test(tc, refuses_bad_record_size);
  tcase_add_test(tc, refuses_truncated_section);
  tcase_add_test(tc, refuses_map_without_unit);
  tcase_add_test(tc, refuses_shared_counter);
  tcase_add_test(tc, refuses_units_that_disagree);
  tcase_add_test(tc, refuses_unterminated_name);
  tcase_add_test(tc, messages_stay_one_line);
  tcase_add_test(tc, mapfile_round_trip_and_bare_section);
  suite_add_tcase(s, tc);
  return s;
}
