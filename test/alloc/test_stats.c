/* The hint counters (__mip_alloc_hint_stats): each entry point counts one
 * call of its kind with the bytes it asked for, whatever its hint; a
 * request only the standard function answers counts as plain; threads
 * lose no count. Each test compares the counts before and after its own
 * calls. (Hints off, and MIP_ALLOC_STATS, need a process of their own:
 * test_switch.c.) */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mip/alloc.h"
#include "suites.h"

/* What the counts moved by between two readings. */
static struct mip_alloc_hint_stats moved(const struct mip_alloc_hint_stats *a,
                                         const struct mip_alloc_hint_stats *b) {
  struct mip_alloc_hint_stats d;
  d.cold.calls = b->cold.calls - a->cold.calls;
  d.cold.bytes = b->cold.bytes - a->cold.bytes;
  d.hot.calls = b->hot.calls - a->hot.calls;
  d.hot.bytes = b->hot.bytes - a->hot.bytes;
  d.notcold.calls = b->notcold.calls - a->notcold.calls;
  d.notcold.bytes = b->notcold.bytes - a->notcold.bytes;
  d.plain.calls = b->plain.calls - a->plain.calls;
  d.plain.bytes = b->plain.bytes - a->plain.bytes;
  return d;
}

#define ASSERT_COUNT(c, want_calls, want_bytes)                                \
  do {                                                                         \
    ck_assert_uint_eq((c).calls, (want_calls));                                \
    ck_assert_uint_eq((c).bytes, (want_bytes));                                \
  } while (0)

/* One call of every C entry point with hint h; returns the bytes they
 * asked for, *calls their number (a realloc of NULL is the malloc it is,
 * one call). */
static uint64_t every_c_entry(uint8_t hint, uint64_t *calls) {
  uint64_t bytes = 0;
  *calls = 0;
#define CALLED(n)                                                              \
  do {                                                                         \
    bytes += (n);                                                              \
    ++*calls;                                                                  \
  } while (0)
  free(__mip_malloc_hint(100, hint));
  CALLED(100);
  free(__mip_calloc_hint(3, 40, hint));
  CALLED(120);
  void *p = __mip_realloc_hint(NULL, 50, hint);
  CALLED(50);
  p = __mip_realloc_hint(p, 200, hint);
  CALLED(200);
  p = __mip_reallocarray_hint(p, 4, 100, hint);
  CALLED(400);
  free(p);
  free(__mip_aligned_alloc_hint(64, 128, hint));
  CALLED(128);
  ck_assert_int_eq(__mip_posix_memalign_hint(&p, 64, 96, hint), 0);
  free(p);
  CALLED(96);
  free(__mip_memalign_hint(64, 80, hint));
  CALLED(80);
  free(__mip_valloc_hint(10, hint));
  CALLED(10);
  free(__mip_pvalloc_hint(10, hint));
  CALLED(10);
  free(__mip_strdup_hint("abcd", hint));
  CALLED(5);
  free(__mip_strndup_hint("abcdef", 3, hint));
  CALLED(4);
#undef CALLED
  return bytes;
}

START_TEST(each_c_entry_counts_its_kind) {
  static const uint8_t hints[] = {MIP_HINT_COLD, MIP_HINT_HOT,
                                  MIP_HINT_NOTCOLD};
  for (int h = 0; h < 3; h++) {
    struct mip_alloc_hint_stats before, after;
    uint64_t calls;
    __mip_alloc_hint_stats(&before);
    uint64_t bytes = every_c_entry(hints[h], &calls);
    __mip_alloc_hint_stats(&after);
    struct mip_alloc_hint_stats d = moved(&before, &after);
    ck_assert_uint_eq(calls, 12);
    ck_assert_uint_eq(bytes, 1203);
    ASSERT_COUNT(d.cold, h == 0 ? calls : 0, h == 0 ? bytes : 0);
    ASSERT_COUNT(d.hot, h == 1 ? calls : 0, h == 1 ? bytes : 0);
    ASSERT_COUNT(d.notcold, h == 2 ? calls : 0, h == 2 ? bytes : 0);
    ASSERT_COUNT(d.plain, 0, 0);
  }
}
END_TEST

/* Any byte is a hint: 0-127 cold, 192-255 hot, the rest notcold. */
START_TEST(every_hint_value_counts_its_class) {
  struct mip_alloc_hint_stats before, after;
  __mip_alloc_hint_stats(&before);
  for (unsigned hint = 0; hint < 256; hint++)
    free(__mip_malloc_hint(8, (uint8_t)hint));
  __mip_alloc_hint_stats(&after);
  struct mip_alloc_hint_stats d = moved(&before, &after);
  ASSERT_COUNT(d.cold, 128, 128 * 8);
  ASSERT_COUNT(d.notcold, 64, 64 * 8);
  ASSERT_COUNT(d.hot, 64, 64 * 8);
  ASSERT_COUNT(d.plain, 0, 0);
}
END_TEST

START_TEST(requests_the_standard_function_answers_count_plain) {
  struct mip_alloc_hint_stats before, after;
  void *p = NULL;
  __mip_alloc_hint_stats(&before);
  /* Alignments that are not powers of two (and 4, no multiple of a
   * pointer's size, for posix_memalign), and realloc to size 0. */
  free(__mip_aligned_alloc_hint(48, 100, MIP_HINT_COLD));
  free(__mip_memalign_hint(48, 30, MIP_HINT_HOT));
  ck_assert_int_ne(__mip_posix_memalign_hint(&p, 4, 7, MIP_HINT_COLD), 0);
  p = __mip_malloc_hint(16, MIP_HINT_HOT);
  free(__mip_realloc_hint(p, 0, MIP_HINT_COLD));
  void *q = cxx_new(6, 20, 48, MIP_HINT_HOT); /* the nothrow form */
  if (q)
    cxx_delete(6, q, 0, 48);
  __mip_alloc_hint_stats(&after);
  struct mip_alloc_hint_stats d = moved(&before, &after);
  ASSERT_COUNT(d.plain, 5, 100 + 30 + 7 + 0 + 20);
  ASSERT_COUNT(d.hot, 1, 16);
  ASSERT_COUNT(d.cold, 0, 0);
  ASSERT_COUNT(d.notcold, 0, 0);
}
END_TEST

/* A calloc or reallocarray whose size overflows: one call, no bytes. */
START_TEST(overflow_counts_no_bytes) {
  struct mip_alloc_hint_stats before, after;
  __mip_alloc_hint_stats(&before);
  errno = 0;
  ck_assert_ptr_null(__mip_calloc_hint(SIZE_MAX / 2, 3, MIP_HINT_COLD));
  ck_assert_ptr_null(__mip_reallocarray_hint(NULL, SIZE_MAX / 2, 3,
                                             MIP_HINT_HOT));
  __mip_alloc_hint_stats(&after);
  struct mip_alloc_hint_stats d = moved(&before, &after);
  ASSERT_COUNT(d.cold, 1, 0);
  ASSERT_COUNT(d.hot, 1, 0);
}
END_TEST

START_TEST(each_operator_new_counts_its_kind) {
  static const uint8_t hints[] = {MIP_HINT_COLD, MIP_HINT_HOT,
                                  MIP_HINT_NOTCOLD};
  for (int h = 0; h < 3; h++) {
    struct mip_alloc_hint_stats before, after;
    __mip_alloc_hint_stats(&before);
    for (int form = 0; form < CXX_FORMS; form++)
      cxx_delete(form, cxx_new(form, 100 + (size_t)form, 64, hints[h]), 0,
                 64);
    __mip_alloc_hint_stats(&after);
    struct mip_alloc_hint_stats d = moved(&before, &after);
    uint64_t bytes = 8 * 100 + (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
    ASSERT_COUNT(d.cold, h == 0 ? 8 : 0, h == 0 ? bytes : 0);
    ASSERT_COUNT(d.hot, h == 1 ? 8 : 0, h == 1 ? bytes : 0);
    ASSERT_COUNT(d.notcold, h == 2 ? 8 : 0, h == 2 ? bytes : 0);
    ASSERT_COUNT(d.plain, 0, 0);
  }
}
END_TEST

/* Threads counting at once lose nothing. */
enum { THREADS = 8, PER_THREAD = 20000 };

static void *allocate_some(void *arg) {
  (void)arg;
  for (int i = 0; i < PER_THREAD; i++) {
    free(__mip_malloc_hint(24, MIP_HINT_HOT));
    free(__mip_malloc_hint(40, MIP_HINT_COLD));
  }
  return NULL;
}

START_TEST(threads_lose_no_count) {
  struct mip_alloc_hint_stats before, after;
  pthread_t threads[THREADS];
  __mip_alloc_hint_stats(&before);
  for (int i = 0; i < THREADS; i++)
    ck_assert_int_eq(pthread_create(&threads[i], NULL, allocate_some, NULL), 0);
  for (int i = 0; i < THREADS; i++)
    pthread_join(threads[i], NULL);
  __mip_alloc_hint_stats(&after);
  struct mip_alloc_hint_stats d = moved(&before, &after);
  ASSERT_COUNT(d.hot, THREADS * PER_THREAD, THREADS * PER_THREAD * 24ull);
  ASSERT_COUNT(d.cold, THREADS * PER_THREAD, THREADS * PER_THREAD * 40ull);
}
END_TEST

Suite *stats_suite(void) {
  Suite *s = suite_create("stats");
  TCase *tc = tcase_create("stats");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, each_c_entry_counts_its_kind);
  tcase_add_test(tc, every_hint_value_counts_its_class);
  tcase_add_test(tc, requests_the_standard_function_answers_count_plain);
  tcase_add_test(tc, overflow_counts_no_bytes);
  tcase_add_test(tc, each_operator_new_counts_its_kind);
  tcase_add_test(tc, threads_lose_no_count);
  suite_add_tcase(s, tc);
  return s;
}
