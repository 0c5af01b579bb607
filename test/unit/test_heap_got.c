/* Pieces of the redirection of free (rt/heap/heap_got.c) that need no
 * process of their own: /proc/self/maps read in pieces of any size, the
 * definition of a function the process calls, and what an image exports.
 * test/e2e/heap_dlopen.sh runs the redirection itself. */
#include <dlfcn.h>
#include <string.h>

#include "../../rt/heap/heap.h"
#include "suites.h"

/* Three of the five lines are not writable. */
static const char maps[] =
    "55d0c0a00000-55d0c0a01000 r--p 00000000 fe:01 1234 /usr/bin/prog\n"
    "55d0c0a01000-55d0c0a02000 r-xp 00001000 fe:01 1234 /usr/bin/prog\n"
    "55d0c0a03000-55d0c0a04000 rw-p 00003000 fe:01 1234 /usr/bin/prog\n"
    "7f5e1c000000-7f5e1c021000 rw-p 00000000 00:00 0 \n"
    "7ffd5a1ff000-7ffd5a203000 ---p 00000000 00:00 0                "
    "          [a long name]\n";

START_TEST(maps_in_pieces_of_any_size) {
  for (size_t piece = 1; piece <= sizeof maps; piece++) {
    struct mip_rt_heap_range ranges[8];
    struct mip_rt_heap_maps m = {.ranges = ranges, .cap = 8, .complete = 1};
    for (size_t at = 0; at < sizeof maps - 1; at += piece) {
      size_t n = sizeof maps - 1 - at < piece ? sizeof maps - 1 - at : piece;
      mip_rt_heap_maps_feed(&m, maps + at, n);
    }
    ck_assert_uint_eq(m.count, 3);
    ck_assert_uint_eq(m.complete, 1);
    ck_assert_uint_eq(ranges[0].start, 0x55d0c0a00000);
    ck_assert_uint_eq(ranges[0].end, 0x55d0c0a01000);
    ck_assert_uint_eq(ranges[1].start, 0x55d0c0a01000);
    ck_assert_uint_eq(ranges[2].start, 0x7ffd5a1ff000);
    ck_assert_uint_eq(ranges[2].end, 0x7ffd5a203000);
  }
}
END_TEST

START_TEST(maps_overflow_is_incomplete) {
  struct mip_rt_heap_range ranges[2];
  struct mip_rt_heap_maps m = {.ranges = ranges, .cap = 2, .complete = 1};
  mip_rt_heap_maps_feed(&m, maps, sizeof maps - 1);
  ck_assert_uint_eq(m.count, 2);
  ck_assert_uint_eq(m.complete, 0);
}
END_TEST

START_TEST(process_functions) {
  /* A PIE test binary: dlsym's answer is libc's (or the sanitizer's)
   * definition itself. */
  ck_assert_uint_eq(mip_rt_heap_process_function("free"),
                    (uintptr_t)dlsym(RTLD_DEFAULT, "free"));
  ck_assert_uint_eq(mip_rt_heap_process_function("dlopen"),
                    (uintptr_t)dlsym(RTLD_DEFAULT, "dlopen"));
  ck_assert_uint_eq(mip_rt_heap_process_function("no_such_function_here"), 0);
  /* This binary (the runtime's copy is in it) exports free only when a
   * sanitizer's runtime in it defines one. */
  Dl_info self, of_free;
  ck_assert(dladdr((void *)heap_got_suite, &self));
  ck_assert(dladdr(dlsym(RTLD_DEFAULT, "free"), &of_free));
  ck_assert_int_eq(mip_rt_heap_exports("free"),
                   self.dli_fbase == of_free.dli_fbase);
  ck_assert_int_eq(mip_rt_heap_exports("no_such_function_here"), 0);
}
END_TEST

Suite *heap_got_suite(void) {
  Suite *s = suite_create("heap-got");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, maps_in_pieces_of_any_size);
  tcase_add_test(tc, maps_overflow_is_incomplete);
  tcase_add_test(tc, process_functions);
  suite_add_tcase(s, tc);
  return s;
}
