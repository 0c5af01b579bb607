/* The hinted operator new forms: arenas, alignment, size 0, release by
 * the matching delete, and failure exactly as the standard forms
 * (new_handler calls, std::bad_alloc or NULL). */
#include <jemalloc/jemalloc.h>
#include <malloc.h>

#include "mip/alloc.h"
#include "suites.h"

static const uint8_t hints[] = {MIP_HINT_COLD, MIP_HINT_HOT, MIP_HINT_NOTCOLD};
static const size_t sizes[] = {0, 1, 24, 100, 5000, 40000, 300000};
static const size_t aligns[] = {16, 64, 256, 4096, 65536};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(new_puts_blocks_in_their_arena) {
  int form = _i;
  for (size_t h = 0; h < COUNT(hints); h++) {
    for (size_t s = 0; s < COUNT(sizes); s++) {
      size_t align = cxx_form_aligned(form) ? aligns[s % COUNT(aligns)] : 0;
      if (hints[h] == MIP_HINT_NOTCOLD)
        flush_thread_cache(); /* no hinted block in it to be handed out */
      void *p = cxx_new(form, sizes[s], align, hints[h]);
      ck_assert_ptr_nonnull(p);
      ck_assert_msg(arena_of(p) == expected_arena(hints[h]),
                    "form %d size %zu hint %u: arena %u", form, sizes[s],
                    hints[h], arena_of(p));
      if (align)
        ck_assert_uint_eq((uintptr_t)p % align, 0);
      ck_assert_uint_ge(malloc_usable_size(p), sizes[s]);
      fill(p, sizes[s], (unsigned)s);
      ck_assert(check_fill(p, sizes[s], (unsigned)s));
      cxx_delete(form, p, s % 2 ? sizes[s] : 0, align);
    }
  }
}
END_TEST

START_TEST(new_of_size_zero_is_unique) {
  int form = _i;
  size_t align = cxx_form_aligned(form) ? 128 : 0;
  for (size_t h = 0; h < 2; h++) {
    void *a = cxx_new(form, 0, align, hints[h]);
    void *b = cxx_new(form, 0, align, hints[h]);
    ck_assert(a && b && a != b);
    ck_assert_uint_eq(arena_of(a), h ? hot_arena() : cold_arena());
    cxx_delete(form, a, 0, align);
    cxx_delete(form, b, 0, align);
  }
}
END_TEST

START_TEST(new_fails_as_the_standard_form) {
  int form = _i, standard_calls, calls;
  int standard = cxx_fails(form, 0, 0, &standard_calls);
  ck_assert_int_eq(standard, 1); /* threw bad_alloc, or NULL for nothrow */
  ck_assert_int_eq(standard_calls, 3);
  for (size_t h = 0; h < COUNT(hints); h++) {
    ck_assert_int_eq(cxx_fails(form, 1, hints[h], &calls), standard);
    ck_assert_int_eq(calls, standard_calls);
  }
}
END_TEST

Suite *cxx_suite(void) {
  Suite *s = suite_create("operator new");
  TCase *tc = tcase_create("operator new");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, new_puts_blocks_in_their_arena, 0, CXX_FORMS);
  tcase_add_loop_test(tc, new_of_size_zero_is_unique, 0, CXX_FORMS);
  tcase_add_loop_test(tc, new_fails_as_the_standard_form, 0, CXX_FORMS);
  suite_add_tcase(s, tc);
  return s;
}
