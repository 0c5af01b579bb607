/*
 * fork() while another thread is held inside dl_iterate_phdr, CHILDREN
 * times: the forks must not wait for the loader's lock (a plain fork does
 * not), and each child, which inherits that lock held by a thread it does
 * not have, allocates in child_work, frees and exits, writing its
 * profile. The parent gives them DEADLINE seconds, then lets the walker
 * go. Prints "M of N forks made, K children exited".
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"

#define CHILDREN 20
#define DEADLINE 30

static int inside, released;

/* Holds the loader's lock until the parent is done forking. */
static int hold(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  (void)arg;
  __atomic_store_n(&inside, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE))
    usleep(1000);
  return 1;
}

static void *walker(void *arg) {
  (void)arg;
  dl_iterate_phdr(hold, NULL);
  return NULL;
}

__attribute__((noinline)) void child_work(int i) {
  char *p = malloc(100 + (size_t)i);
  memset(p, i, 100);
  __asm__ volatile("" : : "r"(p) : "memory"); /* the block is used */
  free(p);
}

/* Forks in a thread of its own, so that a fork that waits forever still
 * lets the parent report and end. */
static pid_t pids[CHILDREN];
static int forked;

static void *forker(void *arg) {
  (void)arg;
  for (int i = 0; i < CHILDREN; i++) {
    pids[i] = fork();
    if (pids[i] == 0) {
      child_work(i);
      exit(0);
    }
    __atomic_store_n(&forked, i + 1, __ATOMIC_RELEASE);
  }
  return NULL;
}

int main(void) {
  pthread_t w, f;
  pthread_create(&w, NULL, walker, NULL);
  while (!__atomic_load_n(&inside, __ATOMIC_ACQUIRE))
    usleep(1000);
  pthread_create(&f, NULL, forker, NULL);
  int exited = exited_within(CHILDREN, DEADLINE);
  int made = __atomic_load_n(&forked, __ATOMIC_ACQUIRE);
  printf("%d of %d forks made, %d children exited\n", made, CHILDREN, exited);
  fflush(stdout);
  if (made < CHILDREN) /* a fork waits for the walker: end all at once */
    _exit(1);
  __atomic_store_n(&released, 1, __ATOMIC_RELEASE);
  pthread_join(f, NULL);
  pthread_join(w, NULL);
  return exited == CHILDREN ? 0 : 1;
}
