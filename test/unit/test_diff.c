/* mipdata diff's arithmetic (tools/mipdata/diff/diff_ratio.c): which changes
 * count as up, down or the same, the spread of ratios, changes in %;
 * never NaN or infinity. How keys name files (report_path.c): relative
 * to the build's root, after --path-map; and matching contexts that share
 * a key (report_match.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "suites.h"

START_TEST(ratios_count_and_spread) {
  /* base -> new: 1 -> 2, 2 -> 2, 4 -> 1, 0 -> 5, 3 -> 0 */
  static const double pairs[][2] = {{1, 2}, {2, 2}, {4, 1}, {0, 5}, {3, 0}};
  struct diff_ratios r = {0};
  double ratios[5];
  for (int i = 0; i < 5; i++)
    diff_ratios_add(&r, ratios, pairs[i][0], pairs[i][1]);
  diff_ratios_finish(&r, ratios);
  ck_assert_uint_eq(r.regressed, 2); /* 1 -> 2, 0 -> 5 */
  ck_assert_uint_eq(r.improved, 2);  /* 4 -> 1, 3 -> 0 */
  ck_assert_uint_eq(r.unchanged, 1);
  /* Only pairs with both sides above 0 have a ratio: 2, 1, 0.25. */
  ck_assert_uint_eq(r.ratioed, 3);
  ck_assert_double_eq_tol(r.geomean, cbrt(2 * 1 * 0.25), 1e-12);
  /* Nearest rank of 3 sorted values: P10 the 1st, P50 the 2nd, P90 the
   * 3rd. */
  ck_assert(r.p10 == 0.25 && r.p50 == 1 && r.p90 == 2);
}
END_TEST

START_TEST(percentiles_by_nearest_rank) {
  struct diff_ratios r = {0};
  double ratios[10];
  /* Ratios 1.0 .. 1.9, added in another order. */
  for (int i = 9; i >= 0; i--)
    diff_ratios_add(&r, ratios, 10, 10 + i);
  diff_ratios_finish(&r, ratios);
  ck_assert_uint_eq(r.unchanged, 1);
  ck_assert_uint_eq(r.regressed, 9);
  ck_assert_double_eq_tol(r.p10, 1.0, 1e-12);
  ck_assert_double_eq_tol(r.p50, 1.4, 1e-12);
  ck_assert_double_eq_tol(r.p90, 1.8, 1e-12);
}
END_TEST

START_TEST(no_ratio_gives_ones_never_nan) {
  struct diff_ratios r = {0};
  double ratios[2];
  diff_ratios_add(&r, ratios, 0, 0);
  diff_ratios_add(&r, ratios, 0, 7);
  diff_ratios_finish(&r, ratios);
  ck_assert_uint_eq(r.ratioed, 0);
  ck_assert(r.geomean == 1 && r.p10 == 1 && r.p50 == 1 && r.p90 == 1);
  ck_assert_uint_eq(r.unchanged, 1);
  /* Changes in %: from 0 there is none (the value is new). */
  ck_assert(diff_percent(0, 5) == 0);
  ck_assert(diff_percent(200, 150) == -25);
  ck_assert(diff_percent(3, 0) == -100);
  /* Scaling rounds: 3 x 0.1 is the same as 0.3. */
  ck_assert(diff_same(3 * 0.1, 0.3));
  ck_assert(!diff_same(1, 1 + 1e-6));
  ck_assert(diff_same(0, 0));
}
END_TEST

START_TEST(extreme_ratios_stay_finite) {
  struct diff_ratios r = {0};
  double ratios[3];
  diff_ratios_add(&r, ratios, 1e-300, 1e300);
  diff_ratios_add(&r, ratios, 1e300, 1e-300);
  diff_ratios_add(&r, ratios, 1, (double)UINT64_MAX);
  diff_ratios_finish(&r, ratios);
  ck_assert(isfinite(r.geomean) && isfinite(r.p10) && isfinite(r.p90));
}
END_TEST

/* ---- files in keys (report_path.c) ---------------------------------- */

START_TEST(path_maps_parse_tidied) {
  struct report_path_map m;
  char why[128];
  ck_assert_int_eq(report_path_map_parse("lib/=src/./lib", &m, why, sizeof why), 0);
  ck_assert_str_eq(m.from, "lib");
  ck_assert_str_eq(m.to, "src/lib");
  report_path_map_free(&m);
  ck_assert_int_eq(report_path_map_parse("/b/x/../base=", &m, why, sizeof why), 0);
  ck_assert_str_eq(m.from, "/b/base");
  ck_assert_str_eq(m.to, "");
  report_path_map_free(&m);
  ck_assert_int_eq(report_path_map_parse("=src", &m, why, sizeof why), -1);
  ck_assert_int_eq(report_path_map_parse("lib", &m, why, sizeof why), -1);
}
END_TEST

/* A profile's files: a site and a frame of its own code in two
 * directories of its checkout, a system header inlined, a frame of
 * another object, and a static function's relative unit. */
struct files {
  struct report r;
  struct report_site site;
  struct report_frame frames[3];
  struct report_function function;
};

static void files_init(struct files *f, const char *checkout) {
  static char names[4][128];
  snprintf(names[0], 128, "%s/programs/prog.c", checkout);
  snprintf(names[1], 128, "%s/lib/wrap.c", checkout);
  memset(f, 0, sizeof *f);
  f->site.file = names[0];
  f->frames[0].file = names[1];
  f->frames[1].file = "/usr/include/x86_64-linux-gnu/bits/stdlib.h";
  f->frames[2].file = "/opt/other/x.c";
  f->frames[2].object = "/opt/other/libx.so";
  f->function.unit = "programs/prog.c";
  f->r.sites = &f->site;
  f->r.site_count = 1;
  f->r.frames = f->frames;
  f->r.frame_count = 3;
  f->r.functions = &f->function;
  f->r.function_count = 1;
}

static void files_free(struct files *f) {
  for (size_t i = 0; i < f->r.name_count; i++)
    free(f->r.names[i]);
  free(f->r.names);
  free(f->r.root);
  free(f->r.path_hits);
}

START_TEST(files_relative_to_the_root) {
  struct files f;
  files_init(&f, "/builds/pr");
  report_key_files(&f.r);
  ck_assert_str_eq(f.r.root, "/builds/pr");
  ck_assert_str_eq(f.site.key_file, "programs/prog.c");
  ck_assert_str_eq(f.frames[0].key_file, "lib/wrap.c");
  /* The system's header and another object's file are in no checkout. */
  ck_assert_str_eq(f.frames[1].key_file,
                   "/usr/include/x86_64-linux-gnu/bits/stdlib.h");
  ck_assert_str_eq(f.frames[2].key_file, "/opt/other/x.c");
  ck_assert_str_eq(f.function.key_unit, "programs/prog.c");
  files_free(&f);
}
END_TEST

START_TEST(path_map_rules_rename) {
  struct report_path_map maps[3];
  char why[128];
  ck_assert_int_eq(report_path_map_parse("/b/base/programs=/b/base/bin", &maps[0], why, sizeof why), 0);
  ck_assert_int_eq(report_path_map_parse("lib=src/lib", &maps[1], why, sizeof why), 0);
  ck_assert_int_eq(report_path_map_parse("li=nothing", &maps[2], why, sizeof why), 0);
  struct report_paths paths = {maps, 3};
  struct files f;
  files_init(&f, "/b/base");
  f.r.paths = &paths;
  report_key_files(&f.r);
  /* An absolute rule before the root, a relative one after; "li" is no
   * directory of lib/wrap.c. */
  ck_assert_str_eq(f.r.root, "/b/base");
  ck_assert_str_eq(f.site.key_file, "bin/prog.c");
  ck_assert_str_eq(f.frames[0].key_file, "src/lib/wrap.c");
  ck_assert_uint_eq(f.r.path_hits[0], 1);
  ck_assert_uint_eq(f.r.path_hits[1], 1);
  ck_assert_uint_eq(f.r.path_hits[2], 0);
  files_free(&f);
  for (int i = 0; i < 3; i++)
    report_path_map_free(&maps[i]);
}
END_TEST

/* Names of profiles written before '..' steps were resolved are tidied
 * when read; a tidy name is kept as it is. */
START_TEST(names_tidied_when_read) {
  struct report r;
  memset(&r, 0, sizeof r);
  const char *clean = "/b/lib/wrap.c";
  ck_assert_ptr_eq(report_tidy_name(&r, clean), clean);
  ck_assert_ptr_null(report_tidy_name(&r, NULL));
  ck_assert_str_eq(report_tidy_name(&r, "/b/programs/../lib/wrap.c"), clean);
  ck_assert_str_eq(report_tidy_name(&r, "./prog.c"), "prog.c");
  ck_assert_uint_eq(r.name_count, 2);
  for (size_t i = 0; i < r.name_count; i++)
    free(r.names[i]);
  free(r.names);
}
END_TEST

/* ---- matching contexts that share a key ------------------------------ */

static void keyed(struct report *r, struct report_context *c,
                  const char *const *keys, size_t n) {
  memset(r, 0, sizeof *r);
  for (size_t i = 0; i < n; i++)
    c[i].key[REPORT_FINE] = c[i].key[REPORT_COARSE] = (char *)keys[i];
  r->contexts = c;
  r->context_count = n;
}

/* Keyed by their image's frames alone, two contexts of base (two host
 * callers) share a key: they and new's context with it are one group. */
START_TEST(shared_fine_keys_are_summed) {
  static const char *const base_keys[] = {"K", "L", "K"};
  static const char *const new_keys[] = {"K", "M"};
  struct report_context bc[3] = {0}, nc[2] = {0};
  struct report base, cur;
  keyed(&base, bc, base_keys, 3);
  keyed(&cur, nc, new_keys, 2);
  struct report_match m;
  report_match(&m, &base, &cur, REPORT_CONTEXTS, REPORT_MATCH_SOURCE);
  ck_assert_uint_eq(m.group_count, 3);
  const struct report_match_group *k = &m.groups[0];
  ck_assert_str_eq(k->key, "K");
  ck_assert_uint_eq(k->count[REPORT_BASE], 2);
  ck_assert_uint_eq(k->count[REPORT_NEW], 1);
  ck_assert_uint_eq(report_match_member(&m, k, REPORT_BASE, 0), 0);
  ck_assert_uint_eq(report_match_member(&m, k, REPORT_BASE, 1), 2);
  ck_assert_uint_eq(m.matched[REPORT_BASE], 2);
  ck_assert_uint_eq(m.matched[REPORT_NEW], 1);
  ck_assert_uint_eq(m.collapsed[REPORT_BASE], 2);
  report_match_free(&m);
}
END_TEST

Suite *diff_suite(void) {
  Suite *s = suite_create("diff");
  TCase *t = tcase_create("ratios");
  tcase_add_test(t, ratios_count_and_spread);
  tcase_add_test(t, percentiles_by_nearest_rank);
  tcase_add_test(t, no_ratio_gives_ones_never_nan);
  tcase_add_test(t, extreme_ratios_stay_finite);
  suite_add_tcase(s, t);
  TCase *keys = tcase_create("keys");
  tcase_add_test(keys, path_maps_parse_tidied);
  tcase_add_test(keys, files_relative_to_the_root);
  tcase_add_test(keys, path_map_rules_rename);
  tcase_add_test(keys, names_tidied_when_read);
  tcase_add_test(keys, shared_fine_keys_are_summed);
  suite_add_tcase(s, keys);
  return s;
}
