/*
 * fork() while another thread is inside dl_iterate_phdr (as unwinders and
 * profilers are), CHILDREN times: each child allocates, frees and exits,
 * writing its profile. The parent gives them all DEADLINE seconds, then
 * kills what is left and says how many hung. Prints "N children exited".
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"

#define CHILDREN 200
#define DEADLINE 30

static volatile int stop;

/* Holds the loader's lock for a while on each object. */
static int slow(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  (void)arg;
  for (volatile int i = 0; i < 20000; i++)
    ;
  return 0;
}

static void *walker(void *arg) {
  (void)arg;
  while (!stop)
    dl_iterate_phdr(slow, NULL);
  return NULL;
}

__attribute__((noinline)) static void child_work(int i) {
  char *p = malloc(64 + (size_t)i);
  memset(p, i, 64);
  free(p);
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, walker, NULL);
  pid_t pids[CHILDREN];
  for (int i = 0; i < CHILDREN; i++) {
    pids[i] = fork();
    if (pids[i] == 0) {
      child_work(i);
      exit(0);
    }
  }
  stop = 1;
  pthread_join(t, NULL);
  int exited = exited_within(CHILDREN, DEADLINE);
  for (int i = 0; i < CHILDREN; i++)
    kill(pids[i], SIGKILL);
  while (wait(NULL) > 0)
    ;
  printf("%d children exited\n", exited);
  return exited == CHILDREN ? 0 : 1;
}
