/* What a rebuild with a profile decides (lib/decide.c): the hot threshold,
 * function temperatures, MemProf's allocation classes at and around their
 * thresholds, and allocation sites whose contexts agree or disagree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

/* ---- the hot threshold -------------------------------------------------- */

static uint64_t threshold(const uint64_t *calls, size_t n, double share) {
  uint64_t copy[16];
  memcpy(copy, calls, n * sizeof *calls);
  return mip_hot_threshold(copy, n, share, 0);
}

START_TEST(hot_threshold_empty_and_zero) {
  uint64_t none[1] = {0};
  ck_assert_uint_eq(mip_hot_threshold(none, 0, 0.9, 0), UINT64_MAX);
  const uint64_t zeros[] = {0, 0, 0};
  ck_assert_uint_eq(threshold(zeros, 3, 0.9), UINT64_MAX);
  ck_assert_uint_eq(threshold(zeros, 3, 1.0), UINT64_MAX);
}
END_TEST

START_TEST(hot_threshold_sorts_most_first) {
  uint64_t calls[] = {3, 0, 10, 1, 7};
  ck_assert_uint_eq(mip_hot_threshold(calls, 5, 0.5, 0), 7); /* 17 of 21 */
  const uint64_t sorted[] = {10, 7, 3, 1, 0};
  for (int i = 0; i < 5; i++)
    ck_assert_uint_eq(calls[i], sorted[i]);
  ck_assert_uint_eq(threshold(sorted, 5, 0.47), 10); /* 10/21 = 0.476.. */
  ck_assert_uint_eq(threshold(sorted, 5, 0.48), 7);
}
END_TEST

START_TEST(hot_threshold_exact_share_is_enough) {
  const uint64_t a[] = {9, 1};
  ck_assert_uint_eq(threshold(a, 2, 0.9), 9); /* exactly 90% */
  const uint64_t b[] = {899, 101};
  ck_assert_uint_eq(threshold(b, 2, 0.9), 101); /* 89.9%: both */
  const uint64_t c[] = {900, 100};
  ck_assert_uint_eq(threshold(c, 2, 0.9), 900);
}
END_TEST

/* A function called once per run or less is never hot: a flat profile
 * (start-up code) has no hot set, whatever the share. */
START_TEST(hot_threshold_needs_repeated_calls) {
  uint64_t flat[] = {1, 1, 1, 1};
  ck_assert_uint_eq(mip_hot_threshold(flat, 4, 0.9, 1), 2); /* none */
  uint64_t three_runs[] = {3, 3, 3, 40};
  ck_assert_uint_eq(mip_hot_threshold(three_runs, 4, 0.9, 3), 4);
  uint64_t again[] = {4, 3, 3};
  ck_assert_uint_eq(mip_hot_threshold(again, 3, 0.1, 3), 4);
  uint64_t two[] = {2, 2, 1};
  ck_assert_uint_eq(mip_hot_threshold(two, 3, 0.5, 1), 2);
}
END_TEST

/* Functions called as often as the last hot one are hot too: the
 * threshold is a call count, and temperatures compare with it. */
START_TEST(hot_threshold_ties) {
  const uint64_t calls[] = {5, 5, 5, 5, 0};
  ck_assert_uint_eq(threshold(calls, 5, 0.5), 5); /* two make 10 of 20 */
  struct mip_profile_function f = {.cnt_offset = 0, .covered_runs = 1};
  size_t hot = 0;
  for (int i = 0; i < 5; i++) {
    f.calls = calls[i];
    hot += mip_function_temperature(&f, 1, 5) == MIP_TEMP_HOT;
  }
  ck_assert_uint_eq(hot, 4);
}
END_TEST

START_TEST(hot_threshold_share_one_and_zero) {
  const uint64_t calls[] = {10, 3, 0, 1};
  /* 1.0: every called function, never the uncalled one */
  ck_assert_uint_eq(threshold(calls, 4, 1.0), 1);
  ck_assert_uint_eq(threshold(calls, 4, 2.0), 1); /* clamped to 1 */
  /* 0: nothing hot; nor for a share that is no number */
  ck_assert_uint_eq(threshold(calls, 4, 0.0), UINT64_MAX);
  ck_assert_uint_eq(threshold(calls, 4, -0.5), UINT64_MAX);
  ck_assert_uint_eq(threshold(calls, 4, NAN), UINT64_MAX);
  /* any share above 0 makes the most-called one hot */
  ck_assert_uint_eq(threshold(calls, 4, 1e-12), 10);
  ck_assert_uint_eq(threshold(calls, 4, 1e-9), 10);
}
END_TEST

START_TEST(hot_threshold_large_counts) {
  const uint64_t calls[] = {UINT64_MAX, UINT64_MAX, UINT64_MAX / 2, 1};
  ck_assert_uint_eq(threshold(calls, 4, 0.5), UINT64_MAX);
  ck_assert_uint_eq(threshold(calls, 4, 0.9), UINT64_MAX / 2);
}
END_TEST

START_TEST(function_temperatures) {
  struct mip_profile_function f = {
      .cnt_offset = 8, .calls = 100, .covered_runs = 2};
  ck_assert_int_eq(mip_function_temperature(&f, 0, 1), MIP_TEMP_UNKNOWN);
  ck_assert_int_eq(mip_function_temperature(&f, 2, 100), MIP_TEMP_HOT);
  ck_assert_int_eq(mip_function_temperature(&f, 2, 101), MIP_TEMP_WARM);
  ck_assert_int_eq(mip_function_temperature(&f, 2, UINT64_MAX), MIP_TEMP_WARM);
  f.calls = 0;
  f.covered_runs = 0;
  ck_assert_int_eq(mip_function_temperature(&f, 2, 1), MIP_TEMP_COLD);
  /* not counted: never hot, cold only when it never ran */
  f = (struct mip_profile_function){
      .cnt_offset = MIP_NO_OFFSET, .calls = 7, .covered_runs = 1};
  ck_assert_int_eq(mip_function_temperature(&f, 1, 1), MIP_TEMP_WARM);
  f.covered_runs = 0;
  ck_assert_int_eq(mip_function_temperature(&f, 1, 1), MIP_TEMP_COLD);
  ck_assert_str_eq(mip_temperature_name(MIP_TEMP_HOT), "hot");
  ck_assert_str_eq(mip_temperature_name(MIP_TEMP_COLD), "cold");
  ck_assert_str_eq(mip_temperature_name(MIP_TEMP_WARM), "warm");
}
END_TEST

/* ---- MemProf's classes ----------------------------------------------------
 */

/* count blocks living lifetime_ms in all, with a summed lifetime access
 * density (accesses per byte per second, times 100) */
static struct mip_mib mib(uint64_t count, uint64_t bytes, uint64_t lifetime_ms,
                          uint64_t density_x100) {
  struct mip_mib m;
  memset(&m, 0, sizeof m);
  m.v[MIP_MIBI_AllocCount] = count;
  m.v[MIP_MIBI_TotalSize] = bytes;
  m.v[MIP_MIBI_TotalLifetime] = lifetime_ms;
  m.v[MIP_MIBI_TotalLifetimeAccessDensity] = density_x100;
  return m;
}

static enum mip_alloc_class class_of(struct mip_mib m) {
  struct mip_decide_options o;
  mip_decide_defaults(&o);
  return mip_mib_class(&m, &o);
}

START_TEST(defaults_are_memprofs) {
  struct mip_decide_options o;
  mip_decide_defaults(&o);
  ck_assert(o.hot_share == 0.9);
  ck_assert(o.cold_max_density == 0.05);
  ck_assert(o.cold_min_lifetime == 200);
  ck_assert(o.hot_min_density == 1000);
}
END_TEST

START_TEST(mib_stats_units) {
  struct mip_alloc_stats s;
  struct mip_mib m = mib(3, 96, 1500, 300);
  mip_mib_stats(&m, &s);
  ck_assert_uint_eq(s.allocs, 3);
  ck_assert_uint_eq(s.bytes, 96);
  ck_assert_double_eq_tol(s.lifetime, 0.5, 1e-12); /* ms to s, per block */
  ck_assert_double_eq_tol(s.density, 1.0, 1e-12);  /* / 100, per block */
  m = mib(0, 0, 5, 5);
  mip_mib_stats(&m, &s);
  ck_assert(s.lifetime == 0 && s.density == 0);
}
END_TEST

START_TEST(cold_at_and_around_its_thresholds) {
  /* density 0.05 is not below 0.05; 0.04 is; a mean, so 2 blocks * 0.04 */
  ck_assert_int_eq(class_of(mib(1, 8, 200000, 5)), MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(class_of(mib(1, 8, 200000, 4)), MIP_CLASS_COLD);
  ck_assert_int_eq(class_of(mib(2, 8, 400000, 8)), MIP_CLASS_COLD);
  ck_assert_int_eq(class_of(mib(2, 8, 400000, 10)), MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(class_of(mib(1, 8, 200000, 0)), MIP_CLASS_COLD);
  /* lifetime 200 s is enough, 199.999 s is not */
  ck_assert_int_eq(class_of(mib(1, 8, 199999, 0)), MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(class_of(mib(4, 8, 800000, 0)), MIP_CLASS_COLD);
  ck_assert_int_eq(class_of(mib(4, 8, 799999, 0)), MIP_CLASS_NOTCOLD);
  /* no allocations: nothing to say */
  ck_assert_int_eq(class_of(mib(0, 0, 900000, 0)), MIP_CLASS_NOTCOLD);
}
END_TEST

START_TEST(hot_at_and_around_its_threshold) {
  ck_assert_int_eq(class_of(mib(1, 8, 1, 100000)), MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(class_of(mib(1, 8, 1, 100001)), MIP_CLASS_HOT);
  ck_assert_int_eq(class_of(mib(3, 8, 1, 300000)), MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(class_of(mib(3, 8, 1, 300003)), MIP_CLASS_HOT);
  /* lifetime does not matter for hot */
  ck_assert_int_eq(class_of(mib(1, 8, 10000000, 200000)), MIP_CLASS_HOT);
}
END_TEST

START_TEST(options_move_the_thresholds) {
  struct mip_decide_options o;
  mip_decide_defaults(&o);
  struct mip_mib m = mib(1, 4096, 100, 0); /* 0.1 s, untouched */
  ck_assert_int_eq(mip_mib_class(&m, &o), MIP_CLASS_NOTCOLD);
  o.cold_min_lifetime = 0.1;
  ck_assert_int_eq(mip_mib_class(&m, &o), MIP_CLASS_COLD);
  o.cold_min_lifetime = 0.05;
  ck_assert_int_eq(mip_mib_class(&m, &o), MIP_CLASS_COLD);
  o.cold_max_density = 0; /* nothing is below 0 */
  ck_assert_int_eq(mip_mib_class(&m, &o), MIP_CLASS_NOTCOLD);
  /* cold is decided first */
  mip_decide_defaults(&o);
  o.cold_min_lifetime = 0;
  o.cold_max_density = 1e12;
  o.hot_min_density = 0;
  m = mib(1, 8, 1, 500);
  ck_assert_int_eq(mip_mib_class(&m, &o), MIP_CLASS_COLD);
}
END_TEST

START_TEST(allocators_that_allocate) {
  for (uint32_t a = MIP_ALLOC_MALLOC; a <= MIP_ALLOC_NEW_ARRAY; a++)
    ck_assert_msg(mip_allocator_allocates(a), "%u", a);
  ck_assert(!mip_allocator_allocates(0));
  ck_assert(!mip_allocator_allocates(MIP_ALLOC_NEW_ARRAY + 1));
  ck_assert(!mip_allocator_allocates(MIP_ALLOC_FREE));
  ck_assert(!mip_allocator_allocates(MIP_ALLOC_DELETE));
  ck_assert(!mip_allocator_allocates(MIP_ALLOC_DELETE_ARRAY));
}
END_TEST

/* ---- allocation sites, through the profile view ------------------------ */

#define COV 0x5000
#define SITE 0x6000
enum { SITES = 5 };

/* A profile with one run: main with five sites (the fourth a free), and
 * contexts given as (site, MemInfoBlock), each with a frame of its own. */
struct context_spec {
  uint32_t site;
  struct mip_mib mib;
};

static const char *decide_profile(const struct context_spec *contexts,
                                  size_t count) {
  static const uint32_t allocators[SITES] = {MIP_ALLOC_MALLOC, MIP_ALLOC_NEW,
                                             MIP_ALLOC_CALLOC, MIP_ALLOC_FREE,
                                             MIP_ALLOC_STRDUP};
  struct mip_buf m = {0};
  const struct slot_spec sections[] = {{MIP_RAW_COV, 0, COV, COV + 1},
                                       {MIP_RAW_SITE, 0, SITE, SITE + SITES}};
  build_unit_sections(&m, "a.c", sections, 2);
  build_function(&m, "main", "", 0, 1, 0x1000, COV);
  for (uint32_t i = 0; i < SITES; i++)
    build_heap_site(&m, SITE + i, COV, 10 + i, 3, allocators[i], "a.c", "main");
  struct mip_map map;
  struct mip_error err;
  ck_assert_msg(mip_map_parse(m.data, m.size, "m", &map, &err) == 0, "%s",
                err.msg);
  struct mip_profile p;
  mip_profile_from_map(&map, &p);
  mip_map_free(&map);
  mip_buf_free(&m);
  p.runs = 1;
  p.functions[0].covered_runs = 1;
  p.has_heap = 1;
  p.heap_frames = mip_xcalloc(count + 1, sizeof *p.heap_frames);
  p.heap_stack = mip_xcalloc(count + 1, sizeof *p.heap_stack);
  p.heap_contexts = mip_xcalloc(count + 1, sizeof *p.heap_contexts);
  for (size_t i = 0; i < count; i++) {
    p.heap_frames[i] =
        (struct mip_heap_frame){0, 0, 100 + (uint32_t)i, 1, 0, 0};
    p.heap_stack[i] = (uint32_t)i;
    p.heap_contexts[i] = (struct mip_heap_context){
        (uint32_t)i, 1, contexts[i].site, 0, contexts[i].mib};
  }
  p.heap_frame_count = p.heap_stack_count = p.heap_context_count = count;
  const char *path = test_path("decide.mip");
  ck_assert_msg(mip_profile_write(path, &p, &err) == 0, "%s", err.msg);
  mip_profile_free(&p);
  return path;
}

/* 0.1 s and untouched (cold with cold_min_lifetime 0.1), 2000/byte/s */
#define IDLE(n) mib(n, 4096 * (n), 100 * (n), 0)
#define BUSY(n) mib(n, 64 * (n), 1 * (n), 200000 * (n))
#define WARM(n) mib(n, 100 * (n), 1 * (n), 1000 * (n))

START_TEST(site_decisions_agree_and_disagree) {
  const struct context_spec contexts[] = {
      {0, IDLE(1)},
      {0, IDLE(3)}, /* site 0: both cold */
      {1, IDLE(1)},
      {1, BUSY(2)}, /* site 1: cold and hot */
      {2, BUSY(1)},
      {2, mib(0, 0, 0, 0)}, /* site 2: hot, and nothing */
      {4, WARM(1)},
      {4, WARM(2)},           /* site 4: notcold */
      {4, IDLE(1)},           /* ... and cold: mixed */
      {MIP_NO_SITE, BUSY(5)}, /* no site: never decided */
  };
  const char *path = decide_profile(contexts, 10);
  struct mip_view v;
  struct mip_error err;
  ck_assert_msg(mip_view_open(path, &v, &err) == 0, "%s", err.msg);
  struct mip_decide_options o;
  mip_decide_defaults(&o);
  o.cold_min_lifetime = 0.1;
  struct mip_site_decision d;

  ck_assert_int_eq(mip_view_site_decision(&v, 0, &o, &d, &err), 0);
  ck_assert_int_eq(d.alloc_class, MIP_CLASS_COLD);
  ck_assert_int_eq(d.mixed, 0);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_COLD], 2);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_HOT] + d.contexts[MIP_CLASS_NOTCOLD],
                    0);
  ck_assert_uint_eq(d.total.allocs, 4);
  ck_assert_uint_eq(d.total.bytes, 4 * 4096);
  ck_assert_double_eq_tol(d.total.lifetime, 0.1, 1e-12);

  ck_assert_int_eq(mip_view_site_decision(&v, 1, &o, &d, &err), 0);
  ck_assert_int_eq(d.alloc_class, MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(d.mixed, 1);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_COLD], 1);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_HOT], 1);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_NOTCOLD], 0);
  ck_assert_uint_eq(d.total.allocs, 3);
  ck_assert_uint_eq(d.total.bytes, 4096 + 128);
  /* means over the site's blocks: (100 + 2) ms / 3, 400000 / 100 / 3 */
  ck_assert_double_eq_tol(d.total.lifetime, 0.034, 1e-12);
  ck_assert_double_eq_tol(d.total.density, 4000.0 / 3, 1e-9);

  /* a context without allocations is not counted */
  ck_assert_int_eq(mip_view_site_decision(&v, 2, &o, &d, &err), 0);
  ck_assert_int_eq(d.alloc_class, MIP_CLASS_HOT);
  ck_assert_int_eq(d.mixed, 0);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_HOT], 1);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_NOTCOLD], 0);

  /* the free site has no contexts: notcold, nothing counted */
  ck_assert_int_eq(mip_view_site_decision(&v, 3, &o, &d, &err), 0);
  ck_assert_int_eq(d.alloc_class, MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(d.mixed, 0);
  ck_assert_uint_eq(d.contexts[0] + d.contexts[1] + d.contexts[2], 0);
  ck_assert_uint_eq(d.total.allocs, 0);

  ck_assert_int_eq(mip_view_site_decision(&v, 4, &o, &d, &err), 0);
  ck_assert_int_eq(d.alloc_class, MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(d.mixed, 1);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_NOTCOLD], 2);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_COLD], 1);

  /* with the defaults the idle blocks are not old enough: site 0 is
   * notcold, site 1 no longer mixed but notcold... */
  mip_decide_defaults(&o);
  ck_assert_int_eq(mip_view_site_decision(&v, 0, &o, &d, &err), 0);
  ck_assert_int_eq(d.alloc_class, MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(d.mixed, 0);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_NOTCOLD], 2);
  /* ... and still mixed, notcold against hot */
  ck_assert_int_eq(mip_view_site_decision(&v, 1, &o, &d, &err), 0);
  ck_assert_int_eq(d.alloc_class, MIP_CLASS_NOTCOLD);
  ck_assert_int_eq(d.mixed, 1);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_NOTCOLD], 1);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_HOT], 1);
  /* site 4 agrees now */
  ck_assert_int_eq(mip_view_site_decision(&v, 4, &o, &d, &err), 0);
  ck_assert_int_eq(d.mixed, 0);
  ck_assert_uint_eq(d.contexts[MIP_CLASS_NOTCOLD], 3);
  mip_view_close(&v);
}
END_TEST

/* A mixed site is cloned at a -flto link for its cold contexts if it has
 * any, else for its hot ones. */
START_TEST(cloned_class_cold_before_hot) {
  /* counts indexed notcold, cold, hot */
  static const uint64_t cold_notcold[] = {2, 1, 0}, hot_notcold[] = {1, 0, 3},
                        cold_hot[] = {0, 1, 1}, all_three[] = {1, 1, 1},
                        notcold_only[] = {4, 0, 0};
  ck_assert_int_eq(mip_cloned_class(cold_notcold), MIP_CLASS_COLD);
  ck_assert_int_eq(mip_cloned_class(hot_notcold), MIP_CLASS_HOT);
  ck_assert_int_eq(mip_cloned_class(cold_hot), MIP_CLASS_COLD);
  ck_assert_int_eq(mip_cloned_class(all_three), MIP_CLASS_COLD);
  ck_assert_int_eq(mip_cloned_class(notcold_only), MIP_CLASS_NOTCOLD);
}
END_TEST

START_TEST(site_decision_threshold_of_the_view) {
  const struct context_spec contexts[] = {{0, BUSY(1)}};
  const char *path = decide_profile(contexts, 1);
  struct mip_view v;
  struct mip_error err;
  ck_assert_msg(mip_view_open(path, &v, &err) == 0, "%s", err.msg);
  /* coverage only: no counts, nothing hot */
  uint64_t t = 0;
  ck_assert_int_eq(mip_view_hot_threshold(&v, 0.9, &t, &err), 0);
  ck_assert_uint_eq(t, UINT64_MAX);
  mip_view_close(&v);
}
END_TEST

START_TEST(site_decision_refuses_a_corrupt_context) {
  const struct context_spec contexts[] = {{0, IDLE(1)}, {0, IDLE(1)}};
  const char *path = decide_profile(contexts, 2);
  struct mip_file f;
  struct mip_error err;
  ck_assert_int_eq(mip_file_read(path, &f, &err), 0);
  /* the second context's first frame, far past the stack table */
  struct mip_view v;
  ck_assert_int_eq(mip_view_open(path, &v, &err), 0);
  const struct mip_view_table *t = &v.tables[MIP_PROF_HEAP_CONTEXTS];
  size_t at = (size_t)(t->data - v.data) + t->entry_size;
  mip_view_close(&v);
  mip_put_le32(f.data + at, 1000);
  const char *bad = test_path("decide-bad.mip");
  write_file(bad, f.data, f.size);
  mip_file_free(&f);
  /* refused when opened, as the whole-profile reader refuses it: the
   * compiler and annotate never decide on such a profile */
  ck_assert_int_eq(mip_view_open(bad, &v, &err), -1);
  ck_assert_msg(strstr(err.msg, "heap context 1's frames start at 1000"), "%s",
                err.msg);
  ck_assert_msg(strncmp(err.msg, bad, strlen(bad)) == 0, "%s", err.msg);
  struct mip_profile p;
  ck_assert_int_eq(mip_profile_read(bad, &p, &err), -1);
  ck_assert_msg(strstr(err.msg, "heap context 1's frames start at 1000"), "%s",
                err.msg);
  mip_profile_free(&p);
}
END_TEST

Suite *decide_suite(void) {
  Suite *s = suite_create("decide");
  TCase *tc = tcase_create("decide");
  tcase_add_test(tc, hot_threshold_empty_and_zero);
  tcase_add_test(tc, hot_threshold_sorts_most_first);
  tcase_add_test(tc, hot_threshold_exact_share_is_enough);
  tcase_add_test(tc, hot_threshold_ties);
  tcase_add_test(tc, hot_threshold_needs_repeated_calls);
  tcase_add_test(tc, hot_threshold_share_one_and_zero);
  tcase_add_test(tc, hot_threshold_large_counts);
  tcase_add_test(tc, function_temperatures);
  tcase_add_test(tc, defaults_are_memprofs);
  tcase_add_test(tc, mib_stats_units);
  tcase_add_test(tc, cold_at_and_around_its_thresholds);
  tcase_add_test(tc, hot_at_and_around_its_threshold);
  tcase_add_test(tc, options_move_the_thresholds);
  tcase_add_test(tc, allocators_that_allocate);
  tcase_add_test(tc, site_decisions_agree_and_disagree);
  tcase_add_test(tc, cloned_class_cold_before_hot);
  tcase_add_test(tc, site_decision_threshold_of_the_view);
  tcase_add_test(tc, site_decision_refuses_a_corrupt_context);
  suite_add_tcase(s, tc);
  return s;
}
