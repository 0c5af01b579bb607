/*
 * heap_rt [dump]: the heap runtime driven by hand (glue.h), one allocation
 * site per case; prints each site's address (and a few functions') for
 * test/e2e/heap_rt.sh to find them in the raw profile.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEAP_RT_MAIN
#include "glue.h"
#include "mip/mip.h"

enum {
  S_LOOP, S_FREE, S_LEAK, S_LIBFREE, S_LIBREALLOC, S_GROW, S_REALLOC,
  S_THREAD, S_STRDUP, S_MEMALIGN, S_DEEP, S_UNSEEN_ALLOC, S_COPY, S_DUMP,
  S_CHILD, S_COUNT
};
static const char *const names[S_COUNT] = {
    "loop", "free", "leak", "libfree", "librealloc", "grow", "realloc",
    "thread", "strdup", "memalign", "deep", "unseen_alloc", "copy", "dump",
    "child"};

__attribute__((used, section("__mip_site"))) static uint8_t sites[S_COUNT];

uint8_t *lib_site(void);
void *lib_alloc(size_t n);
void lib_free_unseen(void);
extern void __libc_free(void *);

static void *kept[4];

#define NOINLINE __attribute__((noinline))

static void drop(void *p) {
  __mip_heap_free(p, &sites[S_FREE]);
  free(p);
}

/* 10 blocks of 100 bytes, 3 accesses each. */
NOINLINE static void loop(void) {
  for (int i = 0; i < 10; i++) {
    char *p = malloc(100);
    __mip_heap_alloc(p, 100, &sites[S_LOOP]);
    TOUCH(p), TOUCH(p + 64), TOUCH(p + 99);
    drop(p);
  }
}

/* One granule of its own, so no neighbour's birth clears its count. */
NOINLINE static void leak(void) {
  kept[0] = aligned_alloc(64, 64);
  __mip_heap_alloc(kept[0], 64, &sites[S_LEAK]);
  TOUCH(kept[0]), TOUCH((char *)kept[0] + 63);
}

/* Blocks that code MIP did not instrument frees and reallocates. */
NOINLINE static void uninstrumented(void) {
  void *p = malloc(48);
  __mip_heap_alloc(p, 48, &sites[S_LIBFREE]);
  TOUCH(p), TOUCH(p);
  free(p); /* no hook: the interposed free closes it */
  p = malloc(40);
  __mip_heap_alloc(p, 40, &sites[S_LIBREALLOC]);
  p = realloc(p, 4000); /* no hook */
  free(p);
}

NOINLINE static void grow(void) {
  void *p = malloc(50);
  __mip_heap_alloc(p, 50, &sites[S_GROW]);
  void *q = realloc(p, 5000);
  __mip_heap_realloc(p, q, 5000, &sites[S_REALLOC]);
  drop(q);
}

static void *worker(void *arg) {
  size_t size = 16 + (size_t)(uintptr_t)arg;
  for (int i = 0; i < 1000; i++) {
    char *p = malloc(size);
    __mip_heap_alloc(p, size, &sites[S_THREAD]);
    TOUCH(p);
    drop(p);
  }
  return NULL;
}

NOINLINE static void threads(void) {
  pthread_t t[8];
  for (uintptr_t i = 0; i < 8; i++)
    pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 8; i++)
    pthread_join(t[i], NULL);
}

NOINLINE static void strings_and_alignment(void) {
  char *s = strdup("hello");
  __mip_heap_alloc_str(s, &sites[S_STRDUP]);
  drop(s);
  void *p = NULL;
  int rc = posix_memalign(&p, 64, 200);
  __mip_heap_alloc_at(&p, rc, 200, &sites[S_MEMALIGN]);
  kept[1] = p;
}

NOINLINE void deep_alloc(void) {
  kept[2] = malloc(8);
  __mip_heap_alloc(kept[2], 8, &sites[S_DEEP]);
}

NOINLINE int recurse(int n) {
  if (n == 0) {
    deep_alloc();
    return 0;
  }
  return recurse(n - 1) + 1;
}

/* The address comes back while the table still holds it. */
NOINLINE static int freed_unseen(void) {
  void *p = malloc(24);
  __mip_heap_alloc(p, 24, &sites[S_UNSEEN_ALLOC]);
  __libc_free(p); /* behind MIP's back */
  void *q = malloc(24);
  __mip_heap_alloc(q, 24, &sites[S_UNSEEN_ALLOC]);
  drop(q);
  return p == q;
}

NOINLINE static unsigned copy(void) {
  char *p = malloc(256);
  __mip_heap_alloc(p, 256, &sites[S_COPY]);
  __mip_heap_access_range(p, 256);
  kept[3] = p;
  return (unsigned)((((uintptr_t)p + 255) >> 6) - ((uintptr_t)p >> 6) + 1);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int i = 0; i < S_COUNT; i++)
    printf("site %s %p\n", names[i], (void *)&sites[i]);
  printf("site lib %p\n", (void *)lib_site());
  printf("function loop %p\nfunction main %p\nfunction deep_alloc %p\n",
         (void *)loop, (void *)main, (void *)deep_alloc);
  loop();
  leak();
  uninstrumented();
  grow();
  threads();
  strings_and_alignment();
  recurse(100);
  printf("freed_unseen_same %d\n", freed_unseen());
  printf("copy_granules %u\n", copy());
  drop(lib_alloc(72));
  lib_free_unseen();
  { /* an instrumented free of a block it never saw */
    void *p = malloc(8);
    drop(p);
  }
  if (argc > 1 && strcmp(argv[1], "dump") == 0) {
    void *d = malloc(32);
    __mip_heap_alloc(d, 32, &sites[S_DUMP]);
    if (mip_dump() != 0 || rename("run.mipraw", "dump.mipraw") != 0)
      return 1;
    drop(d);
  }
  pid_t child = fork();
  if (child == 0) {
    for (int i = 0; i < 5; i++) {
      void *p = malloc(8);
      __mip_heap_alloc(p, 8, &sites[S_CHILD]);
      drop(p);
    }
    drop(kept[0]); /* the parent's block: forgotten, not unseen */
    exit(0);
  }
  int status;
  waitpid(child, &status, 0);
  printf("child %d\n", (int)child);
  return 0;
}
