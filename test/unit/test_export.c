/* What mipdata export's writers share: the protocol-buffer wire encoding
 * (against the examples of protobuf.dev's encoding guide) and the tables
 * of distinct strings. */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "protobuf.h"
#include "suites.h"

static void assert_bytes(const struct mip_buf *b, const uint8_t *want,
                         size_t n) {
  ck_assert_uint_eq(b->size, n);
  ck_assert_mem_eq(b->data, want, n);
}

START_TEST(varints) {
  struct mip_buf b = {0};
  pb_varint(&b, 150); /* the guide's example */
  assert_bytes(&b, (const uint8_t[]){0x96, 0x01}, 2);
  b.size = 0;
  pb_varint(&b, 0);
  assert_bytes(&b, (const uint8_t[]){0x00}, 1);
  b.size = 0;
  pb_varint(&b, UINT64_MAX); /* ten bytes, the last holding one bit */
  assert_bytes(&b,
               (const uint8_t[]){0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                 0xff, 0x01},
               10);
  mip_buf_free(&b);
}
END_TEST

START_TEST(fields) {
  struct mip_buf b = {0}, msg = {0}, packed = {0};
  pb_uint(&b, 1, 150); /* Test1 { a: 150 } */
  assert_bytes(&b, (const uint8_t[]){0x08, 0x96, 0x01}, 3);
  b.size = 0;
  pb_uint(&b, 1, 0); /* a default value is not written */
  ck_assert_uint_eq(b.size, 0);
  pb_string(&b, 2, "testing"); /* Test2 { b: "testing" } */
  assert_bytes(
      &b, (const uint8_t[]){0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'}, 9);
  b.size = 0;
  pb_uint(&msg, 1, 150); /* Test3 { c: Test1 { a: 150 } } */
  pb_message(&b, 3, &msg);
  assert_bytes(&b, (const uint8_t[]){0x1a, 0x03, 0x08, 0x96, 0x01}, 5);
  ck_assert_uint_eq(msg.size, 0);
  b.size = 0;
  pb_varint(&packed, 3); /* Test5 { f: [3, 270, 86942] }, packed */
  pb_varint(&packed, 270);
  pb_varint(&packed, 86942);
  pb_packed(&b, 6, &packed);
  assert_bytes(
      &b, (const uint8_t[]){0x32, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05}, 8);
  b.size = 0;
  pb_packed(&b, 6, &packed); /* an empty packed field is left out */
  ck_assert_uint_eq(b.size, 0);
  mip_buf_free(&b);
  mip_buf_free(&msg);
  mip_buf_free(&packed);
}
END_TEST

START_TEST(names) {
  struct export_names n;
  export_names_init(&n);
  int added;
  ck_assert_uint_eq(export_name_id(&n, "", &added), 0);
  ck_assert_int_eq(added, 0);
  ck_assert_uint_eq(export_name_id(&n, "main", &added), 1);
  ck_assert_int_eq(added, 1);
  ck_assert_uint_eq(export_name_id(&n, "helper", &added), 2);
  ck_assert_uint_eq(export_name_id(&n, "main", &added), 1);
  ck_assert_int_eq(added, 0);
  char name[32];
  for (int i = 0; i < 5000; i++) { /* past every table's first size */
    snprintf(name, sizeof name, "f%d", i);
    ck_assert_uint_eq(export_name_id(&n, name, NULL), (uint32_t)i + 3);
  }
  ck_assert_uint_eq(n.count, 5003);
  ck_assert_str_eq(export_name(&n, 0), "");
  ck_assert_str_eq(export_name(&n, 2), "helper");
  ck_assert_str_eq(export_name(&n, 4002), "f3999");
  ck_assert_uint_eq(export_name_id(&n, "f3999", NULL), 4002);
  export_names_free(&n);
}
END_TEST

/* Names as long as C++ makes them are never cut. */
START_TEST(format_uncut) {
  struct mip_buf b = {0};
  char *name = malloc(20001);
  memset(name, 'x', 20000);
  name[20000] = 0;
  const char *s = export_format(&b, "%s (%s:%d)", name, "a.cpp", 7);
  ck_assert_uint_eq(strlen(s), 20000 + strlen(" (a.cpp:7)"));
  ck_assert_str_eq(s + 20000, " (a.cpp:7)");
  ck_assert_str_eq(export_format(&b, "%d", 42), "42"); /* emptied first */
  free(name);
  mip_buf_free(&b);
}
END_TEST

Suite *export_suite(void) {
  Suite *s = suite_create("export");
  TCase *tc = tcase_create("export");
  tcase_add_test(tc, varints);
  tcase_add_test(tc, fields);
  tcase_add_test(tc, names);
  tcase_add_test(tc, format_uncut);
  suite_add_tcase(s, tc);
  return s;
}
