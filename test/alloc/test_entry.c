/* The C entry points: every one puts cold, hot and notcold blocks in their
 * arenas, honours alignment, gives unique blocks for size 0, keeps
 * contents across realloc, and fails exactly as the plain function. */
#include <errno.h>
#include <jemalloc/jemalloc.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mip/alloc.h"
#include "suites.h"

enum entry {
  MALLOC,
  CALLOC,
  REALLOC_NULL,
  REALLOC_MOVE,
  REALLOCARRAY,
  ALIGNED_ALLOC,
  POSIX_MEMALIGN,
  MEMALIGN,
  VALLOC,
  PVALLOC,
  STRDUP,
  STRNDUP,
  ENTRIES
};

static const uint8_t hints[] = {MIP_HINT_COLD, MIP_HINT_HOT, MIP_HINT_NOTCOLD};
static const size_t sizes[] = {0, 1, 24, 100, 3000, 20000, 40000, 300000};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define SENTINEL 4242 /* an errno no call sets */

static char *string_of(size_t length) {
  char *s = malloc(length + 1);
  for (size_t i = 0; i < length; i++)
    s[i] = (char)('a' + i % 26);
  s[length] = '\0';
  return s;
}

/* A block of at least size bytes from the entry point, with the hint. */
static void *call(enum entry e, size_t size, uint8_t hint) {
  void *p = NULL;
  switch (e) {
  case MALLOC:
    return __mip_malloc_hint(size, hint);
  case CALLOC:
    p = __mip_calloc_hint(1, size, hint);
    for (size_t i = 0; p && i < size; i++)
      ck_assert_int_eq(((unsigned char *)p)[i], 0);
    return p;
  case REALLOC_NULL:
    return __mip_realloc_hint(NULL, size, hint);
  case REALLOC_MOVE:
  case REALLOCARRAY: {
    /* From a plain block of another size class, so it has to move. */
    size_t old = size < 1000 ? 20000 : 8;
    p = malloc(old);
    fill(p, old, 5);
    void *q = e == REALLOC_MOVE ? __mip_realloc_hint(p, size, hint)
                                : __mip_reallocarray_hint(p, size, 1, hint);
    if (size)
      ck_assert(check_fill(q, size < old ? size : old, 5));
    return q;
  }
  case ALIGNED_ALLOC:
    return __mip_aligned_alloc_hint(64, size, hint);
  case POSIX_MEMALIGN:
    ck_assert_int_eq(__mip_posix_memalign_hint(&p, 64, size, hint), 0);
    return p;
  case MEMALIGN:
    return __mip_memalign_hint(64, size, hint);
  case VALLOC:
    return __mip_valloc_hint(size, hint);
  case PVALLOC:
    return __mip_pvalloc_hint(size, hint);
  case STRDUP:
  case STRNDUP: {
    /* length characters: a string of them, or a longer one cut */
    size_t length = size ? size - 1 : 0;
    char *s = string_of(length + 7);
    if (e == STRDUP)
      s[length] = '\0';
    char *d = e == STRDUP ? __mip_strdup_hint(s, hint)
                          : __mip_strndup_hint(s, length, hint);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(strlen(d), length);
    ck_assert_int_eq(memcmp(d, s, length), 0);
    free(s);
    return d;
  }
  case ENTRIES:
    break;
  }
  return NULL;
}

/* Whether the plain function behind the entry can be tested here: plain
 * pvalloc is glibc's, whose blocks jemalloc's free cannot take (jemalloc
 * defines no pvalloc). */
static int plain_testable(enum entry e, uint8_t hint) {
  return e != PVALLOC || hint != MIP_HINT_NOTCOLD;
}

START_TEST(entry_puts_blocks_in_their_arena) {
  enum entry e = (enum entry)_i;
  for (size_t h = 0; h < COUNT(hints); h++) {
    if (!plain_testable(e, hints[h]))
      continue;
    for (size_t s = 0; s < COUNT(sizes); s++) {
      if (e == REALLOC_MOVE && sizes[s] == 0)
        continue; /* realloc(p, 0) frees: realloc_to_zero_is_plain */
      if (e == REALLOCARRAY && sizes[s] == 0)
        continue;
      if (hints[h] == MIP_HINT_NOTCOLD)
        flush_thread_cache(); /* no hinted block in it to be handed out */
      void *p = call(e, sizes[s], hints[h]);
      ck_assert_msg(p != NULL, "entry %d size %zu hint %u", _i, sizes[s],
                    hints[h]);
      ck_assert_msg(arena_of(p) == expected_arena(hints[h]),
                    "entry %d size %zu hint %u: arena %u", _i, sizes[s],
                    hints[h], arena_of(p));
      ck_assert_uint_ge(malloc_usable_size(p), sizes[s]);
      fill(p, sizes[s], (unsigned)s);
      ck_assert(check_fill(p, sizes[s], (unsigned)s));
      free(p);
    }
  }
}
END_TEST

START_TEST(every_hint_value_has_its_class) {
  unsigned cold = cold_arena(), hot = hot_arena(), plain = plain_arena();
  for (unsigned h = 0; h < 256; h++) {
    flush_thread_cache();
    void *p = __mip_malloc_hint(32, (uint8_t)h);
    unsigned want = h < 128 ? cold : h < 192 ? plain : hot;
    ck_assert_msg(arena_of(p) == want, "hint %u: arena %u, want %u", h,
                  arena_of(p), want);
    free(p);
  }
}
END_TEST

START_TEST(cold_and_hot_arenas_are_their_own) {
  unsigned cold = cold_arena(), hot = hot_arena(), automatic;
  size_t size = sizeof automatic;
  ck_assert_int_eq(mallctl("opt.narenas", &automatic, &size, NULL, 0), 0);
  ck_assert_uint_ne(cold, hot);
  ck_assert_uint_ge(cold, automatic); /* made by arenas.create */
  ck_assert_uint_ge(hot, automatic);
  ck_assert_uint_ne(plain_arena(), cold);
  ck_assert_uint_ne(plain_arena(), hot);
}
END_TEST

/* The thread's cache holds whatever this thread freed; hinted allocations
 * never take from it (MALLOCX_ARENA alone would: then these fail). */
START_TEST(hinted_allocations_skip_the_thread_cache) {
  enum { N = 150 };
  unsigned cold = cold_arena(), hot = hot_arena();
  void *blocks[N];
  for (int round = 0; round < 3; round++) {
    /* Fill the cache with plain blocks, then with hot, then cold ones. */
    uint8_t freed = round == 0   ? MIP_HINT_NOTCOLD
                    : round == 1 ? MIP_HINT_HOT
                                 : MIP_HINT_COLD;
    for (int i = 0; i < N; i++)
      blocks[i] = __mip_malloc_hint(48, freed);
    for (int i = 0; i < N; i++)
      free(blocks[i]);
    for (int i = 0; i < N; i++) {
      blocks[i] = __mip_malloc_hint(48, i % 2 ? MIP_HINT_COLD : MIP_HINT_HOT);
      ck_assert_uint_eq(arena_of(blocks[i]), i % 2 ? cold : hot);
    }
    for (int i = 0; i < N; i++)
      free(blocks[i]);
  }
}
END_TEST

START_TEST(alignment_is_honoured) {
  static const size_t aligns[] = {1,   2,    4,    8,     16,     32, 64,
                                  128, 4096, 8192, 65536, 1 << 21};
  static const size_t asked[] = {1, 100, 5000, 100000};
  for (size_t h = 0; h < 2; h++) {
    unsigned want = h ? hot_arena() : cold_arena();
    for (size_t a = 0; a < COUNT(aligns); a++) {
      for (size_t s = 0; s < COUNT(asked); s++) {
        void *p[3] = {__mip_aligned_alloc_hint(aligns[a], asked[s], hints[h]),
                      __mip_memalign_hint(aligns[a], asked[s], hints[h]),
                      NULL};
        if (aligns[a] >= sizeof(void *))
          ck_assert_int_eq(__mip_posix_memalign_hint(&p[2], aligns[a],
                                                     asked[s], hints[h]),
                           0);
        for (int i = 0; i < 3; i++) {
          if (!p[i])
            continue;
          ck_assert_msg((uintptr_t)p[i] % aligns[a] == 0,
                        "form %d align %zu size %zu: %p", i, aligns[a],
                        asked[s], p[i]);
          ck_assert_uint_eq(arena_of(p[i]), want);
          fill(p[i], asked[s], 1);
          free(p[i]);
        }
        ck_assert(p[0] && p[1]);
      }
    }
  }
}
END_TEST

START_TEST(valloc_and_pvalloc_give_pages) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  static const size_t asked[] = {0, 1, 4095, 4096, 4097, 70000};
  for (size_t h = 0; h < 2; h++) {
    for (size_t s = 0; s < COUNT(asked); s++) {
      void *v = __mip_valloc_hint(asked[s], hints[h]);
      void *pv = __mip_pvalloc_hint(asked[s], hints[h]);
      size_t rounded = (asked[s] + page - 1) / page * page;
      if (!rounded)
        rounded = page;
      ck_assert_uint_eq((uintptr_t)v % page, 0);
      ck_assert_uint_eq((uintptr_t)pv % page, 0);
      ck_assert_uint_ge(malloc_usable_size(pv), rounded);
      fill(pv, rounded, 2); /* all of the rounded size is the caller's */
      ck_assert(check_fill(pv, rounded, 2));
      ck_assert_uint_eq(arena_of(v), arena_of(pv));
      ck_assert_uint_eq(arena_of(v), h ? hot_arena() : cold_arena());
      free(v);
      free(pv);
    }
  }
}
END_TEST

START_TEST(zero_sizes_give_unique_blocks) {
  for (size_t h = 0; h < 2; h++) {
    unsigned want = h ? hot_arena() : cold_arena();
    for (enum entry e = MALLOC; e < ENTRIES; e++) {
      if (e == REALLOC_MOVE || e == REALLOCARRAY)
        continue; /* realloc(p, 0) frees p: realloc_to_zero_is_plain */
      void *a = call(e, 0, hints[h]), *b = call(e, 0, hints[h]);
      ck_assert_msg(a && b && a != b, "entry %d", e);
      ck_assert_uint_eq(arena_of(a), want);
      ck_assert_uint_eq(arena_of(b), want);
      free(a);
      free(b);
    }
    void *c[2] = {__mip_calloc_hint(0, 8, hints[h]),
                  __mip_calloc_hint(8, 0, hints[h])};
    ck_assert(c[0] && c[1] && c[0] != c[1]);
    ck_assert_uint_eq(arena_of(c[0]), want);
    ck_assert_uint_eq(arena_of(c[1]), want);
    free(c[0]);
    free(c[1]);
  }
}
END_TEST

START_TEST(realloc_keeps_contents) {
  for (size_t h = 0; h < 2; h++) {
    unsigned want = h ? hot_arena() : cold_arena();
    char *p = __mip_malloc_hint(100, hints[h]);
    fill(p, 100, 3);
    p = __mip_realloc_hint(p, 5000, hints[h]); /* grows, moves */
    ck_assert(check_fill(p, 100, 3));
    ck_assert_uint_eq(arena_of(p), want);
    fill(p, 5000, 4);
    p = __mip_realloc_hint(p, 50, hints[h]); /* shrinks, moves */
    ck_assert(check_fill(p, 50, 4));
    ck_assert_uint_eq(arena_of(p), want);
    p = __mip_reallocarray_hint(p, 1000, 100, hints[h]); /* large */
    ck_assert(check_fill(p, 50, 4));
    ck_assert_uint_eq(arena_of(p), want);
    fill(p, 100000, 6);
    p = realloc(p, 300000); /* a plain realloc of a hinted block */
    ck_assert_ptr_nonnull(p);
    ck_assert(check_fill(p, 100000, 6));
    p = realloc(p, 10);
    ck_assert(check_fill(p, 10, 6));
    free(p);

    /* A plain block that a hinted realloc moves lands in the arena. */
    p = malloc(16);
    fill(p, 16, 8);
    p = __mip_realloc_hint(p, 3000, hints[h]);
    ck_assert(check_fill(p, 16, 8));
    ck_assert_uint_eq(arena_of(p), want);
    free(p);
  }
}
END_TEST

/* realloc(p, 0) does what the process's realloc does (jemalloc's frees p
 * and returns NULL by default), reallocarray too; p goes back to its
 * arena. Counted for cold only: the hot arena's bytes include what the
 * thread's explicit cache holds (the release suite counts hot blocks
 * after their thread is gone). */
START_TEST(realloc_to_zero_is_plain) {
  for (size_t h = 0; h < 2; h++) {
    unsigned cold = cold_arena();
    flush_thread_cache();
    size_t before = arena_allocated(cold);
    errno = SENTINEL;
    void *plain = realloc(malloc(10), 0);
    int plain_errno = errno;
    errno = SENTINEL;
    void *p = __mip_realloc_hint(__mip_malloc_hint(10, hints[h]), 0, hints[h]);
    ck_assert_int_eq(errno, plain_errno);
    errno = SENTINEL;
    void *q = __mip_reallocarray_hint(__mip_malloc_hint(10, hints[h]), 0, 7,
                                      hints[h]);
    ck_assert_int_eq(errno, plain_errno);
    ck_assert_int_eq(p == NULL, plain == NULL);
    ck_assert_int_eq(q == NULL, plain == NULL);
    free(plain);
    free(p);
    free(q);
    flush_thread_cache();
    if (hints[h] == MIP_HINT_COLD)
      ck_assert_uint_eq(arena_allocated(cold), before);
  }
}
END_TEST

#define EXPECT_NULL(call, want)                                                \
  do {                                                                         \
    errno = SENTINEL;                                                          \
    void *r_ = (call);                                                         \
    ck_assert_msg(r_ == NULL && errno == (want), "%s: %p errno %d", #call,     \
                  r_, errno);                                                  \
  } while (0)

START_TEST(errors_are_the_plain_ones) {
  size_t huge = SIZE_MAX - 4096, half = SIZE_MAX / 2 + 1;
  for (size_t h = 0; h < 2; h++) {
    uint8_t hint = hints[h];
    EXPECT_NULL(__mip_malloc_hint(huge, hint), ENOMEM);
    EXPECT_NULL(__mip_malloc_hint(half, hint), ENOMEM);
    EXPECT_NULL(__mip_calloc_hint(half, 2, hint), ENOMEM); /* overflow */
    EXPECT_NULL(__mip_calloc_hint(1, huge, hint), ENOMEM);
    EXPECT_NULL(__mip_aligned_alloc_hint(64, huge, hint), ENOMEM);
    EXPECT_NULL(__mip_memalign_hint(64, huge, hint), ENOMEM);
    EXPECT_NULL(__mip_valloc_hint(huge, hint), ENOMEM);
    EXPECT_NULL(__mip_pvalloc_hint(SIZE_MAX, hint), ENOMEM); /* rounding */
    EXPECT_NULL(__mip_pvalloc_hint(huge, hint), ENOMEM);

    /* Failed reallocations leave the block as it was. */
    char *p = __mip_malloc_hint(100, hint);
    fill(p, 100, 9);
    EXPECT_NULL(__mip_realloc_hint(p, huge, hint), ENOMEM);
    EXPECT_NULL(__mip_reallocarray_hint(p, half, 2, hint), ENOMEM);
    EXPECT_NULL(__mip_reallocarray_hint(p, 3, half, hint), ENOMEM);
    EXPECT_NULL(__mip_reallocarray_hint(p, 1, huge, hint), ENOMEM);
    ck_assert(check_fill(p, 100, 9));
    free(p);

    /* Alignments the plain functions reject, rejected the same way. */
    static const size_t bad[] = {0, 3, 24, 100, (size_t)1 << 63 | 1};
    for (size_t b = 0; b < COUNT(bad); b++) {
      errno = SENTINEL;
      void *plain = aligned_alloc(bad[b], 8);
      int plain_errno = errno;
      EXPECT_NULL(__mip_aligned_alloc_hint(bad[b], 8, hint), plain_errno);
      ck_assert_ptr_null(plain);
      ck_assert_int_eq(plain_errno, EINVAL);
      errno = SENTINEL;
      plain = memalign(bad[b], 8);
      plain_errno = errno;
      if (plain) { /* not jemalloc's rule, but then the same */
        free(plain);
        void *r = __mip_memalign_hint(bad[b], 8, hint);
        ck_assert_ptr_nonnull(r);
        free(r);
      } else {
        EXPECT_NULL(__mip_memalign_hint(bad[b], 8, hint), plain_errno);
      }
    }
    static const size_t bad_posix[] = {0, 1, 2, 4, 12, 24, 48};
    for (size_t b = 0; b < COUNT(bad_posix); b++) {
      void *out = &out;
      errno = SENTINEL;
      ck_assert_int_eq(
          __mip_posix_memalign_hint(&out, bad_posix[b], 8, hint), EINVAL);
      ck_assert_ptr_eq(out, &out); /* untouched */
      ck_assert_int_eq(errno, SENTINEL);
    }
    void *out = &out;
    errno = SENTINEL;
    ck_assert_int_eq(__mip_posix_memalign_hint(&out, 64, huge, hint), ENOMEM);
    ck_assert_ptr_eq(out, &out);
    ck_assert_int_eq(errno, SENTINEL);
  }
}
END_TEST

START_TEST(strings_are_copied) {
  for (size_t h = 0; h < 2; h++) {
    unsigned want = h ? hot_arena() : cold_arena();
    char *s[] = {
        __mip_strdup_hint("hello", hints[h]),
        __mip_strdup_hint("", hints[h]),
        __mip_strndup_hint("hello", 3, hints[h]),
        __mip_strndup_hint("hi", 10, hints[h]),
        __mip_strndup_hint("hello", 0, hints[h]),
    };
    static const char *const want_text[] = {"hello", "", "hel", "hi", ""};
    for (size_t i = 0; i < COUNT(s); i++) {
      ck_assert_str_eq(s[i], want_text[i]);
      ck_assert_uint_eq(arena_of(s[i]), want);
      free(s[i]);
    }
    /* strndup reads no further than n: an unterminated buffer. */
    char buffer[4] = {'a', 'b', 'c', 'd'};
    char *d = __mip_strndup_hint(buffer, sizeof buffer, hints[h]);
    ck_assert_str_eq(d, "abcd");
    free(d);
    /* A long string, large class. */
    char *text = string_of(50000);
    d = __mip_strdup_hint(text, hints[h]);
    ck_assert_str_eq(d, text);
    ck_assert_uint_eq(arena_of(d), want);
    free(d);
    free(text);
  }
}
END_TEST

Suite *entry_suite(void) {
  Suite *s = suite_create("entry");
  TCase *tc = tcase_create("entry");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, entry_puts_blocks_in_their_arena, 0, ENTRIES);
  tcase_add_test(tc, every_hint_value_has_its_class);
  tcase_add_test(tc, cold_and_hot_arenas_are_their_own);
  tcase_add_test(tc, hinted_allocations_skip_the_thread_cache);
  tcase_add_test(tc, alignment_is_honoured);
  tcase_add_test(tc, valloc_and_pvalloc_give_pages);
  tcase_add_test(tc, zero_sizes_give_unique_blocks);
  tcase_add_test(tc, realloc_keeps_contents);
  tcase_add_test(tc, realloc_to_zero_is_plain);
  tcase_add_test(tc, errors_are_the_plain_ones);
  tcase_add_test(tc, strings_are_copied);
  suite_add_tcase(s, tc);
  return s;
}
