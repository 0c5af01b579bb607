/* 8 threads allocate cold, hot and notcold blocks and free each other's:
 * every block is in its arena, intact when another thread frees it, and
 * once the threads are gone the cold and hot arenas have had everything
 * back. */
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "mip/alloc.h"
#include "suites.h"

#define THREADS 8
#define ROUNDS 20000
#define SLOTS 64

/* Blocks in flight between threads; each starts with its header. */
struct header {
  uint32_t seed;
  uint32_t size;
};
static _Atomic(struct header *) slots[SLOTS];

struct worker {
  unsigned index, cold, hot;
  int errors;
};

static const size_t sizes[] = {16, 40, 128, 700, 3000, 20000, 50000};

static void drop(struct worker *w, struct header *b) {
  if (!b)
    return;
  if (!check_fill(b + 1, b->size - sizeof *b, b->seed))
    w->errors++;
  if (b->seed % 3 == 0)
    sdallocx(b, b->size, 0);
  else
    free(b);
}

static void *work(void *arg) {
  struct worker *w = arg;
  unsigned plain = plain_arena();
  for (uint32_t r = 0; r < ROUNDS; r++) {
    uint32_t seed = w->index * ROUNDS + r;
    size_t size = sizes[seed % (sizeof sizes / sizeof sizes[0])];
    uint8_t hint = seed % 3 == 0   ? MIP_HINT_COLD
                   : seed % 3 == 1 ? MIP_HINT_HOT
                                   : MIP_HINT_NOTCOLD;
    /* Every 64th block's arena is checked; a plain one then comes from
     * the thread's arena, not from the blocks of all kinds this thread
     * freed into its cache. */
    if (r % 64 == 0 && hint == MIP_HINT_NOTCOLD)
      flush_thread_cache();
    struct header *b = r % 2 ? __mip_malloc_hint(size, hint)
                             : __mip_calloc_hint(1, size, hint);
    if (!b) {
      w->errors++;
      continue;
    }
    if (r % 64 == 0) {
      unsigned want = hint == MIP_HINT_COLD  ? w->cold
                      : hint == MIP_HINT_HOT ? w->hot
                                             : plain;
      w->errors += arena_of(b) != want;
    }
    b->seed = seed;
    b->size = (uint32_t)size;
    fill(b + 1, size - sizeof *b, seed);
    /* Someone else's block (or our own, an earlier one) out, ours in. */
    drop(w, atomic_exchange(&slots[(seed * 7919u) % SLOTS], b));
  }
  return NULL;
}

START_TEST(threads_free_each_others_blocks) {
  unsigned cold = cold_arena(), hot = hot_arena();
  flush_thread_cache();
  size_t cold_before = arena_allocated(cold), hot_before = arena_allocated(hot);
  pthread_t threads[THREADS];
  struct worker workers[THREADS];
  for (unsigned i = 0; i < THREADS; i++) {
    workers[i] = (struct worker){i, cold, hot, 0};
    ck_assert_int_eq(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
  }
  int errors = 0;
  for (unsigned i = 0; i < THREADS; i++) {
    ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
    errors += workers[i].errors;
  }
  struct worker main_worker = {THREADS, cold, hot, 0};
  for (int i = 0; i < SLOTS; i++)
    drop(&main_worker, atomic_exchange(&slots[i], NULL));
  ck_assert_int_eq(errors + main_worker.errors, 0);
  flush_thread_cache();
  ck_assert_uint_eq(arena_allocated(cold), cold_before);
  ck_assert_uint_eq(arena_allocated(hot), hot_before);
}
END_TEST

Suite *threads_suite(void) {
  Suite *s = suite_create("threads");
  TCase *tc = tcase_create("threads");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, threads_free_each_others_blocks);
  suite_add_tcase(s, tc);
  return s;
}
