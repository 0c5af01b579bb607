/*
 * The measurement behind the hot arena's thread cache (docs/alloc.md):
 * four ways of allocating from an arena of one's own with jemalloc's
 * mallocx, each freed with plain free() as a program does.
 *   plain     malloc, the default arena (for reference)
 *   auto      MALLOCX_ARENA(a): the thread's automatic cache
 *   none      MALLOCX_ARENA(a) | MALLOCX_TCACHE_NONE
 *   explicit  MALLOCX_ARENA(a) | MALLOCX_TCACHE(c), c a cache of the
 *             thread's own that nothing frees into
 * For each: the CPU time of an allocation and its free (nanoseconds, the
 * threads' CPU time over their allocations, the median of 5 runs; 1
 * thread, then 8: contention costs CPU time as the locks spin), the
 * share of arena allocations that are not from the arena when the thread
 * also allocates and frees plain blocks of the same sizes, the share of
 * those plain blocks that come from the arena (blocks of it that free()
 * put in the thread's cache), and the bytes the arena has handed out for
 * one live block of each of 8 sizes (what a cache holds besides).
 *   alloc-measure [ROUNDS]
 */
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { PLAIN, AUTO, NONE, EXPLICIT, WAYS };
static const char *const names[WAYS] = {"plain", "auto", "none", "explicit"};

#define BATCH 32
#define MAX_THREADS 8
static const size_t sizes[8] = {16, 24, 32, 48, 64, 96, 128, 256};
static long rounds = 100000;
#define REPEATS 5

struct run {
  int way;
  unsigned arena;
  double cpu;
  unsigned long hinted, hinted_elsewhere, plain, plain_in_arena;
};

static unsigned arena_of(void *p) {
  unsigned arena;
  size_t size = sizeof arena;
  if (mallctl("arenas.lookup", &arena, &size, &p, sizeof p))
    abort();
  return arena;
}

static size_t allocated(unsigned arena) {
  uint64_t epoch = 1;
  size_t size = sizeof epoch, small, large;
  char name[64];
  mallctl("epoch", &epoch, &size, &epoch, size);
  size = sizeof small;
  snprintf(name, sizeof name, "stats.arenas.%u.small.allocated", arena);
  mallctl(name, &small, &size, NULL, 0);
  snprintf(name, sizeof name, "stats.arenas.%u.large.allocated", arena);
  mallctl(name, &large, &size, NULL, 0);
  return small + large;
}

/* The way's flags for this thread (its explicit cache made on first use;
 * it lives as long as the thread). */
static int flags(const struct run *r) {
  static __thread int cache = -1;
  switch (r->way) {
  case AUTO:
    return MALLOCX_ARENA(r->arena);
  case NONE:
    return MALLOCX_ARENA(r->arena) | MALLOCX_TCACHE_NONE;
  case EXPLICIT:
    if (cache < 0) {
      unsigned c;
      size_t size = sizeof c;
      if (mallctl("tcache.create", &c, &size, NULL, 0))
        abort();
      cache = (int)c;
    }
    return MALLOCX_ARENA(r->arena) | MALLOCX_TCACHE(cache);
  }
  return 0;
}

static void *get(const struct run *r, size_t size, int f) {
  return r->way == PLAIN ? malloc(size) : mallocx(size, f);
}

static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *timed(void *arg) {
  struct run *r = arg;
  int f = flags(r);
  void *blocks[BATCH];
  double start = cpu_now();
  for (long i = 0; i < rounds; i++) {
    for (int b = 0; b < BATCH; b++) {
      blocks[b] = get(r, sizes[(i + b) & 7], f);
      *(volatile char *)blocks[b] = 1;
    }
    for (int b = 0; b < BATCH; b++)
      free(blocks[b]);
  }
  r->cpu = cpu_now() - start;
  return NULL;
}

static void *mixed(void *arg) {
  struct run *r = arg;
  int f = flags(r);
  void *blocks[2 * BATCH];
  for (long i = 0; i < rounds / 10; i++) {
    for (int b = 0; b < BATCH; b++) {
      size_t size = sizes[(i + b) & 7];
      blocks[2 * b] = malloc(size);
      blocks[2 * b + 1] = get(r, size, f);
      if (i % 16 == 0) {
        r->plain++;
        r->plain_in_arena += arena_of(blocks[2 * b]) == r->arena;
        r->hinted++;
        r->hinted_elsewhere += arena_of(blocks[2 * b + 1]) != r->arena;
      }
    }
    for (int b = 0; b < 2 * BATCH; b++)
      free(blocks[(b * 7) % (2 * BATCH)]);
  }
  return NULL;
}

static void *held(void *arg) {
  struct run *r = arg;
  int f = flags(r);
  void *blocks[8];
  size_t before = allocated(r->arena);
  for (int b = 0; b < 8; b++)
    blocks[b] = get(r, sizes[b], f);
  r->plain = allocated(r->arena) - before;
  for (int b = 0; b < 8; b++)
    free(blocks[b]);
  return NULL;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs body in n threads at once. */
static void in_threads(void *(*body)(void *), struct run *runs, int n) {
  pthread_t threads[MAX_THREADS];
  for (int t = 0; t < n; t++)
    pthread_create(&threads[t], NULL, body, &runs[t]);
  for (int t = 0; t < n; t++)
    pthread_join(threads[t], NULL);
}

int main(int argc, char **argv) {
  if (argc > 1)
    rounds = atol(argv[1]);
  printf("%-9s %12s %12s %16s %16s %12s\n", "way", "ns 1 thread",
         "ns 8 threads", "hinted outside", "plain from arena",
         "bytes held");
  for (int way = 0; way < WAYS; way++) {
    unsigned arena = 0;
    size_t size = sizeof arena;
    if (way != PLAIN && mallctl("arenas.create", &arena, &size, NULL, 0))
      abort();
    struct run runs[MAX_THREADS];
    double ns[2];
    for (int k = 0; k < 2; k++) {
      int n = k ? MAX_THREADS : 1;
      double cpu[REPEATS];
      for (int rep = 0; rep < REPEATS; rep++) {
        for (int t = 0; t < n; t++)
          runs[t] = (struct run){way, arena, 0, 0, 0, 0, 0};
        in_threads(timed, runs, n);
        cpu[rep] = 0;
        for (int t = 0; t < n; t++)
          cpu[rep] += runs[t].cpu;
      }
      qsort(cpu, REPEATS, sizeof cpu[0], by_value);
      ns[k] = cpu[REPEATS / 2] * 1e9 / ((double)rounds * BATCH * n);
    }
    struct run mix = {way, arena, 0, 0, 0, 0, 0}, hold = mix;
    in_threads(mixed, &mix, 1);
    in_threads(held, &hold, 1);
    if (way == PLAIN)
      printf("%-9s %12.1f %12.1f %16s %16s %12s\n", names[way], ns[0], ns[1],
             "-", "-", "-");
    else
      printf("%-9s %12.1f %12.1f %15.1f%% %15.1f%% %12lu\n", names[way],
             ns[0], ns[1], 100.0 * mix.hinted_elsewhere / mix.hinted,
             100.0 * mix.plain_in_arena / mix.plain, hold.plain);
  }
  return 0;
}
