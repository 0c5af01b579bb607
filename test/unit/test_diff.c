/* mipdata diff's arithmetic (tools/mipdata/diff/diff_ratio.c): which changes
 * count as up, down or the same, the spread of ratios, changes in %;
 * never NaN or infinity. */
#include <math.h>

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

Suite *diff_suite(void) {
  Suite *s = suite_create("diff");
  TCase *t = tcase_create("ratios");
  tcase_add_test(t, ratios_count_and_spread);
  tcase_add_test(t, percentiles_by_nearest_rank);
  tcase_add_test(t, no_ratio_gives_ones_never_nan);
  tcase_add_test(t, extreme_ratios_stay_finite);
  suite_add_tcase(s, t);
  return s;
}
