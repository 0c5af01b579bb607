/* The runtime's pieces, outside an instrumented program: file name
 * patterns, and the raw writer on a counter section of our own. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../../rt/profile/mip_rt.h"
#include "builder.h"
#include "suites.h"

/* Gives this test binary a coverage section, as an instrumented one has:
 * named as the plugin names it (Counters.cpp), so zeros without file
 * bytes (SHT_NOBITS), which continuous mode's page padding, linked into
 * the unit tests, matches. The test sets its bytes. */
#pragma clang section bss = "__mip_cov"
__attribute__((used)) static uint8_t fake_cov[5];
#pragma clang section bss = ""

/* The pattern expanded for the main program, not forked: nothing
 * inserted. */
static int expand_path(const char *pattern, char *out, size_t size) {
  struct mip_rt_image image = *mip_rt_self();
  image.is_main = 1;
  return mip_rt_profile_path(pattern, &image, 0, out, size);
}

START_TEST(expands_pid_host_and_percent) {
  char out[256], want[256];
  struct utsname u;
  uname(&u);
  ck_assert_int_eq(expand_path("p%p-%h-%%-%x.mipraw", out, sizeof out), 0);
  snprintf(want, sizeof want, "p%d-%s-%%-%%x.mipraw", (int)getpid(),
           u.nodename);
  ck_assert_str_eq(out, want);
}
END_TEST

START_TEST(percent_c_asks_for_continuous_mode) {
  char out[256];
  ck_assert_int_eq(mip_rt_pattern_continuous("run-%c%p.mipraw"), 1);
  ck_assert_int_eq(mip_rt_pattern_continuous("%c"), 1);
  ck_assert_int_eq(mip_rt_pattern_continuous("run.mipraw"), 0);
  ck_assert_int_eq(mip_rt_pattern_continuous("100%%c.mipraw"), 0);
  ck_assert_int_eq(mip_rt_pattern_continuous("a%"), 0);
  /* %c is a mode: nothing in the name */
  ck_assert_int_eq(expand_path("dir/%cx%%c.mipraw", out, sizeof out), 0);
  ck_assert_str_eq(out, "dir/x%c.mipraw");
}
END_TEST

START_TEST(reports_names_too_long) {
  char out[8];
  ck_assert_int_eq(expand_path("a-long-name", out, sizeof out), -1);
  ck_assert_int_eq(expand_path("%p%p%p", out, sizeof out), -1);
}
END_TEST

START_TEST(writes_a_readable_raw_profile) {
  static const uint8_t entered[sizeof fake_cov] = {1, 0, 1, 1, 0};
  memcpy(fake_cov, entered, sizeof fake_cov);
  struct mip_rt_image image;
  mip_rt_image_init(&image);
  const char *path = test_path("sub/dir/out.mipraw"); /* parents made */
  const char *why = NULL;
  ck_assert_int_eq(mip_rt_write_raw(path, &image, &why), 0);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  const struct mip_raw_payload *cov = mip_raw_find(&raw, MIP_RAW_COV);
  ck_assert_ptr_nonnull(cov);
  /* Continuous mode's object (rt/continuous/, linked into the unit tests)
   * pads each counter section to whole pages,
   * and the payload is the whole section. */
  ck_assert_uint_eq(cov->extent.size, 4096);
  ck_assert_uint_eq((uintptr_t)fake_cov % 4096, 0);
  ck_assert_mem_eq(cov->data, fake_cov, sizeof fake_cov);
  for (size_t i = sizeof fake_cov; i < cov->extent.size; i++)
    ck_assert_uint_eq(cov->data[i], 0);
  ck_assert_uint_eq(cov->extent.link_addr,
                    (uintptr_t)fake_cov - image.load_bias);
  ck_assert_uint_eq(raw.pid, (uint32_t)getpid());
  ck_assert_uint_gt(raw.build_id.size, 0);
  mip_raw_free(&raw);
}
END_TEST

static int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

START_TEST(failure_leaves_nothing_behind) {
  struct mip_rt_image image;
  mip_rt_image_init(&image);
  /* The target is a directory: the temporary file is written, the rename
   * fails, and the temporary file must go. */
  const char *dir = test_path("blocked");
  char target[300];
  snprintf(target, sizeof target, "%s/x", dir);
  ck_assert_int_eq(mkdir(dir, 0755), 0);
  ck_assert_int_eq(mkdir(target, 0755), 0);
  FILE *f = fopen(test_path("blocked/x/keep"), "w");
  fclose(f);
  const char *why = NULL;
  ck_assert_int_eq(mip_rt_write_raw(target, &image, &why), -1);
  ck_assert_ptr_nonnull(why);
  ck_assert_int_eq(count_entries(dir), 1);
}
END_TEST

Suite *runtime_suite(void) {
  Suite *s = suite_create("runtime");
  TCase *tc = tcase_create("runtime");
  tcase_add_test(tc, expands_pid_host_and_percent);
  tcase_add_test(tc, percent_c_asks_for_continuous_mode);
  tcase_add_test(tc, reports_names_too_long);
  tcase_add_test(tc, writes_a_readable_raw_profile);
  tcase_add_test(tc, failure_leaves_nothing_behind);
  suite_add_tcase(s, tc);
  return s;
}
