/* File names as MIP shows them (lib/path.h): the names debug information
 * gives, as the compiler joined a unit's directory and the file name it
 * was given, each with the one name of the file. */
#include <string.h>

#include "../../lib/intern.h"
#include "../../lib/path.h"
#include "suites.h"

/* A name and what mip_path_tidy makes of it. */
struct tidied {
  const char *path, *tidy;
};

static void check_tidy(const struct tidied *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char buf[256];
    ck_assert_uint_lt(strlen(cases[i].path), sizeof buf);
    strcpy(buf, cases[i].path);
    mip_path_tidy(buf);
    ck_assert_str_eq(buf, cases[i].tidy);
  }
}

#define CHECK_TIDY(cases) check_tidy(cases, sizeof cases / sizeof *cases)

START_TEST(dot_steps_go) {
  static const struct tidied cases[] = {{"/build/src/./a.c", "/build/src/a.c"},
                                        {"/build/././a.c", "/build/a.c"},
                                        {"/./a.c", "/a.c"},
                                        {"/build/./", "/build/"},
                                        {"/./", "/"}};
  CHECK_TIDY(cases);
}
END_TEST

/* A file compiled as .//sub/a.c (zstd's lib/Makefile does so) in /dir;
 * on Linux a leading "//" is the root, as "/". */
START_TEST(repeated_slashes_are_one) {
  static const struct tidied cases[] = {
      {"/dir/.//sub/a.c", "/dir/sub/a.c"},
      {"a//b", "a/b"},
      {"/dir///sub////a.c", "/dir/sub/a.c"},
      {"/dir//./sub/.//a.c", "/dir/sub/a.c"},
      {"/dir/sub//", "/dir/sub/"},
      {"//usr/include/stdio.h", "/usr/include/stdio.h"},
      {"//", "/"}};
  CHECK_TIDY(cases);
}
END_TEST

START_TEST(a_trailing_dot_step_goes) {
  static const struct tidied cases[] = {{"/dir/sub/.", "/dir/sub"},
                                        {"/dir/sub//.", "/dir/sub"},
                                        {"/dir/sub/./.", "/dir/sub"},
                                        {"/.", "/"},
                                        {"//.", "/"},
                                        {"a/.", "a"}};
  CHECK_TIDY(cases);
}
END_TEST

/* "dir/.." goes with dir, lexically (zstd's programs/ builds
 * ../lib/common/x.c; gcc's search paths are spelled so); ".." at the
 * root is the root. */
START_TEST(dot_dot_steps_resolve) {
  static const struct tidied cases[] = {
      {"/build/programs/../lib/common/zstd_common.c",
       "/build/lib/common/zstd_common.c"},
      {"/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/stdio.h",
       "/usr/include/stdio.h"},
      {"/dir/..", "/"},
      {"/dir/../", "/"},
      {"/a/b/../../c", "/c"},
      {"/..", "/"},
      {"/../../a.c", "/a.c"},
      {"/a/./../b//c/../d.c", "/b/d.c"},
      {"/a/b/..", "/a"},
      {"/a/b/../", "/a/"}};
  CHECK_TIDY(cases);
}
END_TEST

/* A relative name loses its "." steps, its leading "./" included, and
 * keeps the ".." steps that lead out of it. */
START_TEST(relative_names) {
  static const struct tidied cases[] = {{"./a.c", "a.c"},
                                        {"././src/a.c", "src/a.c"},
                                        {"./", "."},
                                        {".", "."},
                                        {"a/..", "."},
                                        {"a/../..", ".."},
                                        {"../a.c", "../a.c"},
                                        {"../../lib/a.c", "../../lib/a.c"},
                                        {"a/../../b.c", "../b.c"},
                                        {"src/../../x/./y.c", "../x/y.c"},
                                        {"./../a.c", "../a.c"}};
  CHECK_TIDY(cases);
}
END_TEST

/* Names that start with a dot and names without steps are as they
 * were. */
START_TEST(other_names_stay) {
  static const struct tidied cases[] = {{"/dir/.hidden/a.c", "/dir/.hidden/a.c"},
                                        {"/dir/a./b.c", "/dir/a./b.c"},
                                        {"/dir/...", "/dir/..."},
                                        {"/dir/..a/b.c", "/dir/..a/b.c"},
                                        {".hidden.c", ".hidden.c"},
                                        {"a.c", "a.c"},
                                        {"/", "/"},
                                        {"", ""},
                                        {"/dir/sub/a.c", "/dir/sub/a.c"}};
  CHECK_TIDY(cases);
}
END_TEST

/* The interner gives every spelling of a file one string: the tidy one. */
START_TEST(interned_paths_are_tidy) {
  struct mip_buf strings = {0};
  mip_buf_append(&strings, "", 1);
  struct mip_interner t;
  mip_interner_init(&t, &strings, 0);
  uint32_t plain = mip_intern_path(&t, "/dir/sub/a.c");
  const char *spellings[] = {"/dir/.//sub/a.c", "/dir//sub/a.c",
                             "/dir/./sub/a.c", "//dir/sub/./a.c"};
  for (size_t i = 0; i < sizeof spellings / sizeof *spellings; i++)
    ck_assert_uint_eq(mip_intern_path(&t, spellings[i]), plain);
  ck_assert_str_eq((const char *)strings.data + plain, "/dir/sub/a.c");
  ck_assert_str_eq((const char *)strings.data +
                       mip_intern_path(&t, "/dir/sub/."),
                   "/dir/sub");
  ck_assert_uint_eq(mip_intern_path(&t, "/dir/x/../sub/a.c"), plain);
  ck_assert_str_eq((const char *)strings.data + mip_intern_path(&t, "./a.c"),
                   "a.c");
  mip_interner_free(&t);
  mip_buf_free(&strings);
}
END_TEST

Suite *path_suite(void) {
  Suite *s = suite_create("path");
  TCase *tc = tcase_create("path");
  tcase_add_test(tc, dot_steps_go);
  tcase_add_test(tc, repeated_slashes_are_one);
  tcase_add_test(tc, a_trailing_dot_step_goes);
  tcase_add_test(tc, dot_dot_steps_resolve);
  tcase_add_test(tc, relative_names);
  tcase_add_test(tc, other_names_stay);
  tcase_add_test(tc, interned_paths_are_tidy);
  suite_add_tcase(s, tc);
  return s;
}
