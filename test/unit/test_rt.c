/* The runtime's pieces, outside an instrumented program: file name
 * patterns, the raw writer on a counter section of our own, and how the
 * writer treats what is at the name. */
#include <dirent.h>
#include <fcntl.h>
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

/* A mip_rt_fill_fn: the string arg, and the name of the file written
 * (from /proc/self/fd) in written_to. */
static char written_to[512];
static int fill_text(int fd, const void *arg) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, written_to, sizeof written_to - 1);
  written_to[n > 0 ? n : 0] = '\0';
  const char *text = arg;
  return write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
}

static int fail_fill(int fd, const void *arg) {
  (void)fd;
  (void)arg;
  return -1;
}

static void read_text(const char *path, char *out, size_t size) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  out[fread(out, 1, size - 1, f)] = '\0';
  fclose(f);
}

START_TEST(failure_leaves_nothing_behind) {
  /* The name is a directory: the temporary file is written, the rename
   * fails, and the temporary file must go; so must one whose fill fails. */
  const char *dir = test_path("blocked");
  char target[300];
  snprintf(target, sizeof target, "%s/x", dir);
  ck_assert_int_eq(mkdir(dir, 0755), 0);
  ck_assert_int_eq(mkdir(target, 0755), 0);
  FILE *f = fopen(test_path("blocked/x/keep"), "w");
  fclose(f);
  const char *why = NULL;
  ck_assert_int_eq(mip_rt_replace_file(target, fill_text, "run", &why), -1);
  ck_assert_ptr_nonnull(why);
  ck_assert_int_eq(count_entries(dir), 1);
  snprintf(target, sizeof target, "%s/y", dir);
  ck_assert_int_eq(mip_rt_replace_file(target, fail_fill, NULL, &why), -1);
  ck_assert_int_eq(count_entries(dir), 1);
  /* Through mip_rt_write_file, nothing is made beside a directory either. */
  struct mip_rt_image image;
  mip_rt_image_init(&image);
  snprintf(target, sizeof target, "%s/x", dir);
  ck_assert_int_eq(mip_rt_write_raw(target, &image, &why), -1);
  ck_assert_int_eq(count_entries(dir), 1);
}
END_TEST

/* The temporary file is "<name>.tmp." and 16 hex digits drawn anew each
 * time, never the thread id, which anyone can foresee. */
START_TEST(temporary_names_cannot_be_foreseen) {
  char path[300], first[512], prefix[320];
  snprintf(path, sizeof path, "%s", test_path("temp.mipraw"));
  const char *why = NULL;
  ck_assert_int_eq(mip_rt_write_file(path, 4, O_WRONLY, fill_text, "one", &why),
                   0);
  snprintf(first, sizeof first, "%s", written_to);
  ck_assert_int_eq(mip_rt_write_file(path, 4, O_WRONLY, fill_text, "two", &why),
                   0);
  snprintf(prefix, sizeof prefix, "%s.tmp.", path);
  size_t n = strlen(prefix);
  ck_assert_int_eq(strncmp(first, prefix, n), 0);
  ck_assert_uint_eq(strlen(first), n + 16);
  ck_assert_uint_eq(strspn(first + n, "0123456789abcdef"), 16);
  ck_assert_str_ne(first, written_to);
  char tid[24];
  snprintf(tid, sizeof tid, "%d", (int)getpid());
  ck_assert_str_ne(first + n, tid);
  char text[16];
  read_text(path, text, sizeof text);
  ck_assert_str_eq(text, "two");
}
END_TEST

/* A link at the name (here this user's, in a directory that is not
 * sticky): the kernel follows it, the file it names is written in place
 * (cut first), the link stays; one that names nothing yet gets it made. */
START_TEST(a_link_is_written_through_not_replaced) {
  const char *file = test_path("linked.mipraw");
  write_file(file, "an older, longer file", 21);
  char link[300];
  snprintf(link, sizeof link, "%s", test_path("link.mipraw"));
  ck_assert_int_eq(symlink("linked.mipraw", link), 0);
  const char *why = NULL;
  ck_assert_int_eq(mip_rt_write_file(link, 3, O_WRONLY, fill_text, "new", &why),
                   0);
  struct stat st;
  ck_assert_int_eq(lstat(link, &st), 0);
  ck_assert(S_ISLNK(st.st_mode));
  char text[32];
  read_text(file, text, sizeof text);
  ck_assert_str_eq(text, "new");
  snprintf(link, sizeof link, "%s", test_path("dangling.mipraw"));
  ck_assert_int_eq(symlink("made.mipraw", link), 0);
  ck_assert_int_eq(
      mip_rt_write_file(link, 4, O_WRONLY, fill_text, "made", &why), 0);
  read_text(test_path("made.mipraw"), text, sizeof text);
  ck_assert_str_eq(text, "made");
}
END_TEST

/* The rule of fs.protected_symlinks: another user's name in a sticky
 * world-writable directory, unless the directory is theirs. */
START_TEST(another_users_name_in_a_sticky_directory) {
  const char *shared = test_path("shared");
  ck_assert_int_eq(mkdir(shared, 0755), 0);
  ck_assert_int_eq(chmod(shared, 01777), 0);
  char name[300];
  snprintf(name, sizeof name, "%s/x.mipraw", shared);
  struct stat st = {.st_uid = geteuid()};
  ck_assert_int_eq(mip_rt_foreign_in_sticky(name, &st), 0); /* ours */
  st.st_uid = geteuid() + 1;
  ck_assert_int_eq(mip_rt_foreign_in_sticky(name, &st), 1);
  ck_assert_int_eq(chmod(shared, 0777), 0); /* not sticky */
  ck_assert_int_eq(mip_rt_foreign_in_sticky(name, &st), 0);
  ck_assert_int_eq(chmod(shared, 01775), 0); /* not world-writable */
  ck_assert_int_eq(mip_rt_foreign_in_sticky(name, &st), 0);
  ck_assert_int_eq(mip_rt_foreign_in_sticky("/x.mipraw", &st), 0);
  /* A directory that cannot be looked at counts as sticky. */
  ck_assert_int_eq(mip_rt_foreign_in_sticky("/no/such/dir/x", &st), 1);
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
  tcase_add_test(tc, temporary_names_cannot_be_foreseen);
  tcase_add_test(tc, a_link_is_written_through_not_replaced);
  tcase_add_test(tc, another_users_name_in_a_sticky_directory);
  suite_add_tcase(s, tc);
  return s;
}
