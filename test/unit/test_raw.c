/* Reading raw profiles, good and bad. */
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

static const struct mip_build_id ID = {3, {9, 8, 7}};
static const uint8_t COV[5] = {1, 0, 0, 1, 1};

static const char *raw_file(struct mip_buf *b, const char *name) {
  const char *path = test_path(name);
  write_file(path, b->data, b->size);
  return path;
}

START_TEST(reads_what_it_is_given) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, 0x4000, COV, sizeof COV);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(raw_file(&b, "ok.mipraw"), &raw, &err), 0);
  ck_assert(mip_build_id_equal(&raw.build_id, &ID));
  const struct mip_raw_payload *cov = mip_raw_find(&raw, MIP_RAW_COV);
  ck_assert_ptr_nonnull(cov);
  ck_assert_uint_eq(cov->extent.link_addr, 0x4000);
  ck_assert_mem_eq(cov->data, COV, sizeof COV);
  mip_raw_free(&raw);
  mip_buf_free(&b);
}
END_TEST

static void expect_error(struct mip_buf *b, const char *needle) {
  const char *path = raw_file(b, "bad.mipraw");
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  ck_assert_msg(strncmp(err.msg, path, strlen(path)) == 0, "'%s'", err.msg);
  mip_raw_free(&raw);
  mip_buf_free(b);
}

/* The first section table entry of a raw profile in b, rewritten. */
static void set_first_section(struct mip_buf *b, uint64_t offset,
                              uint64_t size) {
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, b->data);
  struct mip_rec_raw_section s;
  mip_rec_raw_section_decode(&s, b->data + h.header_size);
  s.offset = offset;
  s.size = size;
  mip_rec_raw_section_encode(&s, b->data + h.header_size);
}

START_TEST(refuses_sections_past_the_end) {
  /* a size whose padding to 8 would wrap: not a 1-byte payload */
  struct mip_buf b = {0};
  build_raw(&b, &ID, 0x4000, COV, sizeof COV);
  set_first_section(&b, 64, UINT64_MAX - 2);
  expect_error(&b, "section 0 lies outside the file (offset 64, size "
                   "18446744073709551613;");
  /* an offset near 2^64: no wrapped "needs bytes up to 146" */
  build_raw(&b, &ID, 0x4000, COV, sizeof COV);
  set_first_section(&b, UINT64_MAX - 100, 8);
  expect_error(&b, "section 0 lies outside the file (offset "
                   "18446744073709551515, size 8;");
}
END_TEST

START_TEST(refuses_empty) {
  struct mip_buf b = {0};
  mip_buf_extend(&b, 0);
  expect_error(&b, "empty file");
}
END_TEST

START_TEST(refuses_wrong_magic) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, 0x4000, COV, sizeof COV);
  b.data[1] = 'X';
  expect_error(&b, "not a MIP raw profile");
}
END_TEST

START_TEST(refuses_newer_version) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, 0x4000, COV, sizeof COV);
  b.data[8] = MIP_RAW_VERSION + 1;
  expect_error(&b, "newer");
}
END_TEST

START_TEST(refuses_truncated_header) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, 0x4000, COV, sizeof COV);
  b.size = 50;
  expect_error(&b, "truncated");
}
END_TEST

START_TEST(refuses_truncated_payload) {
  struct mip_buf b = {0};
  build_raw(&b, &ID, 0x4000, COV, sizeof COV);
  b.size -= 8 + 2;
  expect_error(&b, "truncated");
}
END_TEST

START_TEST(refuses_missing_file) {
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(test_path("absent.mipraw"), &raw, &err), -1);
  ck_assert_ptr_nonnull(strstr(err.msg, "cannot open"));
  mip_raw_free(&raw);
}
END_TEST

Suite *raw_suite(void) {
  Suite *s = suite_create("raw");
  TCase *tc = tcase_create("read");
  tcase_add_test(tc, reads_what_it_is_given);
  tcase_add_test(tc, refuses_empty);
  tcase_add_test(tc, refuses_sections_past_the_end);
  tcase_add_test(tc, refuses_wrong_magic);
  tcase_add_test(tc, refuses_newer_version);
  tcase_add_test(tc, refuses_truncated_header);
  tcase_add_test(tc, refuses_truncated_payload);
  tcase_add_test(tc, refuses_missing_file);
  suite_add_tcase(s, tc);
  return s;
}
