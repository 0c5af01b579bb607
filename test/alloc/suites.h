#ifndef TEST_ALLOC_SUITES_H
#define TEST_ALLOC_SUITES_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

Suite *entry_suite(void);
Suite *release_suite(void);
Suite *cxx_suite(void);
Suite *threads_suite(void);
Suite *switch_suite(void);
Suite *stats_suite(void);

/* The arena jemalloc allocated p from (arenas.lookup). */
unsigned arena_of(const void *p);
/* The same outside a test (no Check assertion), NO_ARENA on failure. */
#define NO_ARENA (~0u)
unsigned lookup_arena(const void *p);
/* This thread's arena (thread.arena), NO_ARENA on failure. */
unsigned thread_arena(void);
/* The arena plain allocations of this thread come from (thread.arena). */
unsigned plain_arena(void);
/* Empties this thread's cache, so that the next plain allocation comes from
 * the thread's arena. Until then it may be handed any block this thread
 * freed, hinted ones too (docs/alloc.md, "Thread caches"). */
void flush_thread_cache(void);
/* The arenas of cold and hot blocks. */
unsigned cold_arena(void);
unsigned hot_arena(void);
/* The arena a hint must put a block in, for this thread. */
unsigned expected_arena(uint8_t hint);
/* The bytes an arena has handed out and not had back (its small and large
 * allocated statistics, refreshed). */
size_t arena_allocated(unsigned arena);
/* Writes size bytes of a pattern (from seed) into p and checks them. */
void fill(void *p, size_t size, unsigned seed);
int check_fill(const void *p, size_t size, unsigned seed);

/* The child modes of the test binary (main.c), run by switch tests. */
int child_main(const char *mode);
/* The path of the test binary itself. */
const char *self_path(void);

/* cxx.cpp: the eight hinted operator new forms, by number:
 * 0 new, 1 new[], 2 new nothrow, 3 new[] nothrow, 4 new aligned,
 * 5 new[] aligned, 6 new aligned nothrow, 7 new[] aligned nothrow. */
enum { CXX_FORMS = 8 };
int cxx_form_aligned(int form);
int cxx_form_nothrow(int form);
void *cxx_new(int form, size_t size, size_t align, uint8_t hint);
/* The standard form (no hint), for comparison. */
void *cxx_new_standard(int form, size_t size, size_t align);
/* The delete that matches form: sized (size != 0) or unsized. */
void cxx_delete(int form, void *p, size_t size, size_t align);
/* Asks form (hinted when hinted != 0) for more than can ever be had, with
 * a new_handler that counts its calls and gives up on the third. Returns
 * 1 if std::bad_alloc was thrown (throwing forms) or NULL returned
 * (nothrow forms), 0 otherwise; *calls is the handler's count. */
int cxx_fails(int form, int hinted, uint8_t hint, int *calls);

#endif
