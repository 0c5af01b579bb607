/*
 * bench/heap/sweep.c: what an allocation and its free cost the heap
 * runtime when many blocks are live (`make bench-heap`, bench/README.md
 * "The live-block sweep"). Built with mipcc -fmip-generate=heap, and again
 * with the hooks of hooks-stub.c, which do nothing: the difference of the
 * two is the runtime's work.
 *
 *   sweep PATTERN LIVE OPS
 *
 * keeps LIVE small blocks (16 to 64 bytes, mixed) live, allocated one
 * after the other as a parser builds a tree (so in address order), and
 * then makes OPS allocations, each with one free:
 *
 *   tree    the LIVE blocks are allocated and then freed in the order
 *           they were allocated, again and again: each round is LIVE
 *           operations (OPS is rounded up to whole rounds)
 *   churn   the LIVE blocks stay; each operation allocates a block and
 *           frees one of the last 256 it allocated, picked at random:
 *           young blocks die, as temporaries do
 *   random  the LIVE blocks stay; each operation frees one of them,
 *           picked at random, and allocates its replacement: the worst
 *           case for any table that keeps neighbours together
 *
 * Prints "PATTERN LIVE OPS NS": the operations made and the nanoseconds
 * they took (CLOCK_MONOTONIC). Under callgrind, --toggle-collect=phase
 * counts the operations alone (not the set-up of the live blocks).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW 256

static uint64_t seed = 0x2545f4914f6cdd1dULL;

/* xorshift64*: the same sequence in every build and run. */
static uint64_t rnd(void) {
  seed ^= seed >> 12;
  seed ^= seed << 25;
  seed ^= seed >> 27;
  return seed * 0x2545f4914f6cdd1dULL;
}

/* 16 to 64 bytes, in steps of 8; its first word written, as a node's. */
static void *node(void) {
  size_t size = 16 + 8 * (size_t)(rnd() % 7);
  void **p = malloc(size);
  if (!p) {
    fprintf(stderr, "sweep: out of memory\n");
    exit(1);
  }
  *p = NULL;
  return p;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void build(void **live, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    live[i] = node();
}

/* The operations, in a function of their own for --toggle-collect. */
__attribute__((noinline)) static uint64_t phase(const char *pattern,
                                                void **live, uint64_t n,
                                                uint64_t ops) {
  uint64_t done = 0;
  if (!strcmp(pattern, "tree")) {
    for (; done < ops; done += n) {
      build(live, n);
      for (uint64_t i = 0; i < n; i++)
        free(live[i]);
    }
  } else if (!strcmp(pattern, "churn")) {
    void *young[WINDOW];
    for (int i = 0; i < WINDOW; i++)
      young[i] = node();
    for (; done < ops; done++) {
      uint64_t i = rnd() % WINDOW;
      free(young[i]);
      young[i] = node();
    }
    for (int i = 0; i < WINDOW; i++)
      free(young[i]);
  } else {
    for (; done < ops; done++) {
      uint64_t i = rnd() % n;
      free(live[i]);
      live[i] = node();
    }
  }
  return done;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "tree") && strcmp(argv[1], "churn") &&
                    strcmp(argv[1], "random"))) {
    fprintf(stderr, "usage: sweep tree|churn|random LIVE OPS\n");
    return 2;
  }
  uint64_t n = strtoull(argv[2], NULL, 10), ops = strtoull(argv[3], NULL, 10);
  if (!n) {
    fprintf(stderr, "sweep: LIVE must be at least 1\n");
    return 2;
  }
  void **live = malloc(n * sizeof *live);
  if (!live) {
    fprintf(stderr, "sweep: out of memory\n");
    return 1;
  }
  int tree = !strcmp(argv[1], "tree");
  if (!tree)
    build(live, n);
  uint64_t t0 = now_ns();
  uint64_t done = phase(argv[1], live, n, ops);
  uint64_t t1 = now_ns();
  for (uint64_t i = 0; !tree && i < n; i++)
    free(live[i]);
  free(live);
  printf("%s %llu %llu %llu\n", argv[1], (unsigned long long)n,
         (unsigned long long)done, (unsigned long long)(t1 - t0));
  return 0;
}
