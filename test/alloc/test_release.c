/* Blocks of the cold and hot arenas go back to their arena whichever
 * standard way they are released: free, realloc, sdallocx, dallocx,
 * operator delete (sized and unsized, arrays, aligned). Each case runs in
 * a thread of its own: once the thread has exited (its thread caches
 * flushed and destroyed), the arena must have handed out exactly what it
 * had before, not a byte more. */
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "mip/alloc.h"
#include "suites.h"

/* The C++ runtime's operators, under their Itanium names. */
void _ZdlPv(void *);
void _ZdlPvm(void *, size_t);
void _ZdaPv(void *);
void _ZdaPvm(void *, size_t);
void _ZdlPvSt11align_val_t(void *, size_t);
void _ZdlPvmSt11align_val_t(void *, size_t, size_t);
void _ZdaPvSt11align_val_t(void *, size_t);

enum method {
  FREE,
  SDALLOCX,
  DALLOCX,
  REALLOC,        /* a plain realloc to another size, then free */
  HINTED_REALLOC, /* a hinted realloc to another size, then free */
  REALLOC_ZERO,   /* realloc(p, 0) */
  POSIX_MEMALIGN_FREE,
  DELETE,
  DELETE_SIZED,
  DELETE_ARRAY,
  DELETE_ARRAY_SIZED,
  DELETE_NOTHROW,
  DELETE_ALIGNED,
  DELETE_ALIGNED_SIZED,
  DELETE_ARRAY_ALIGNED,
  METHODS
};

#define BLOCKS 300
#define ALIGN 256
static const size_t sizes[] = {8, 24, 100, 1000, 5000, 20000, 40000, 100000};

struct job {
  enum method method;
  uint8_t hint;
  unsigned arena;
  int wrong_arena, not_counted;
};

static void *get(const struct job *j, size_t size) {
  switch (j->method) {
  case POSIX_MEMALIGN_FREE: {
    void *p = NULL;
    return __mip_posix_memalign_hint(&p, ALIGN, size, j->hint) ? NULL : p;
  }
  case DELETE:
  case DELETE_SIZED:
    return cxx_new(0, size, 0, j->hint);
  case DELETE_ARRAY:
  case DELETE_ARRAY_SIZED:
    return cxx_new(1, size, 0, j->hint);
  case DELETE_NOTHROW:
    return cxx_new(2, size, 0, j->hint);
  case DELETE_ALIGNED:
  case DELETE_ALIGNED_SIZED:
    return cxx_new(4, size, ALIGN, j->hint);
  case DELETE_ARRAY_ALIGNED:
    return cxx_new(5, size, ALIGN, j->hint);
  default:
    return __mip_malloc_hint(size, j->hint);
  }
}

static void release(const struct job *j, void *p, size_t size) {
  switch (j->method) {
  case FREE:
  case POSIX_MEMALIGN_FREE:
    free(p);
    break;
  case SDALLOCX:
    sdallocx(p, size, 0);
    break;
  case DALLOCX:
    dallocx(p, 0);
    break;
  case REALLOC:
    free(realloc(p, size * 3 + 5000));
    break;
  case HINTED_REALLOC:
    free(__mip_realloc_hint(p, size * 3 + 5000, j->hint));
    break;
  case REALLOC_ZERO:
    free(realloc(p, 0)); /* NULL when it freed p, else a block to free */
    break;
  case DELETE:
  case DELETE_NOTHROW:
    _ZdlPv(p);
    break;
  case DELETE_SIZED:
    _ZdlPvm(p, size);
    break;
  case DELETE_ARRAY:
    _ZdaPv(p);
    break;
  case DELETE_ARRAY_SIZED:
    _ZdaPvm(p, size);
    break;
  case DELETE_ALIGNED:
    _ZdlPvSt11align_val_t(p, ALIGN);
    break;
  case DELETE_ALIGNED_SIZED:
    _ZdlPvmSt11align_val_t(p, size, ALIGN);
    break;
  case DELETE_ARRAY_ALIGNED:
    _ZdaPvSt11align_val_t(p, ALIGN);
    break;
  case METHODS:
    break;
  }
}

static void *run(void *arg) {
  struct job *j = arg;
  size_t before = arena_allocated(j->arena), total = 0;
  void *blocks[BLOCKS];
  for (int i = 0; i < BLOCKS; i++) {
    size_t size = sizes[i % (sizeof sizes / sizeof sizes[0])];
    blocks[i] = get(j, size);
    j->wrong_arena += !blocks[i] || arena_of(blocks[i]) != j->arena;
    fill(blocks[i], size, (unsigned)i);
    total += size;
  }
  j->not_counted = arena_allocated(j->arena) < before + total;
  for (int i = 0; i < BLOCKS; i++) {
    size_t size = sizes[i % (sizeof sizes / sizeof sizes[0])];
    if (!check_fill(blocks[i], size, (unsigned)i))
      j->wrong_arena++;
    release(j, blocks[i], size);
  }
  return NULL;
}

START_TEST(blocks_go_back_to_their_arena) {
  static const uint8_t hints[] = {MIP_HINT_COLD, MIP_HINT_HOT};
  for (size_t h = 0; h < 2; h++) {
    struct job j = {(enum method)_i, hints[h], 0, 0, 0};
    j.arena = h ? hot_arena() : cold_arena();
    flush_thread_cache();
    size_t before = arena_allocated(j.arena);
    pthread_t thread;
    ck_assert_int_eq(pthread_create(&thread, NULL, run, &j), 0);
    ck_assert_int_eq(pthread_join(thread, NULL), 0);
    flush_thread_cache();
    ck_assert_msg(j.wrong_arena == 0, "method %d hint %u: %d blocks wrong", _i,
                  hints[h], j.wrong_arena);
    ck_assert_msg(!j.not_counted, "method %d: arena did not count them", _i);
    ck_assert_msg(arena_allocated(j.arena) == before,
                  "method %d hint %u: %zu bytes before, %zu after", _i,
                  hints[h], before, arena_allocated(j.arena));
  }
}
END_TEST

/* A thread's hot cache fills ahead; what it holds stays bounded (blocks
 * over 1 KiB take no cache) and goes back when the thread exits. */
struct held {
  unsigned arena;
  size_t live, held;
};

static void *one_of_each_class(void *arg) {
  struct held *h = arg;
  unsigned classes;
  size_t size = sizeof classes;
  void *blocks[64];
  ck_assert_int_eq(mallctl("arenas.nbins", &classes, &size, NULL, 0), 0);
  ck_assert_uint_le(classes, 64);
  size_t before = arena_allocated(h->arena);
  for (unsigned i = 0; i < classes; i++) {
    char name[64];
    size_t bytes;
    size = sizeof bytes;
    snprintf(name, sizeof name, "arenas.bin.%u.size", i);
    ck_assert_int_eq(mallctl(name, &bytes, &size, NULL, 0), 0);
    blocks[i] = __mip_malloc_hint(bytes, MIP_HINT_HOT);
    h->live += bytes;
  }
  h->held = arena_allocated(h->arena) - before;
  for (unsigned i = 0; i < classes; i++)
    free(blocks[i]);
  return NULL;
}

START_TEST(hot_cache_holds_little) {
  struct held h = {hot_arena(), 0, 0};
  flush_thread_cache();
  size_t before = arena_allocated(h.arena);
  pthread_t thread;
  ck_assert_int_eq(pthread_create(&thread, NULL, one_of_each_class, &h), 0);
  ck_assert_int_eq(pthread_join(thread, NULL), 0);
  flush_thread_cache();
  ck_assert_uint_ge(h.held, h.live);
  ck_assert_msg(h.held - h.live < 256 * 1024, "%zu bytes live, %zu held",
                h.live, h.held);
  ck_assert_uint_eq(arena_allocated(h.arena), before);
}
END_TEST

Suite *release_suite(void) {
  Suite *s = suite_create("release");
  TCase *tc = tcase_create("release");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, blocks_go_back_to_their_arena, 0, METHODS);
  tcase_add_test(tc, hot_cache_holds_little);
  suite_add_tcase(s, tc);
  return s;
}
