/*
 * mip_dump() from a signal handler, every millisecond, while THREADS
 * threads allocate and free for SECONDS seconds. Prints "done" when every
 * thread has finished: a dump that deadlocks never gets there (the test
 * runs it under a timeout).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "mip/mip.h"

#define THREADS 4
#define SECONDS 2

static volatile int stop;

static void on_timer(int sig) {
  (void)sig;
  if (mip_dump)
    mip_dump();
}

__attribute__((noinline)) static void *churn(void *arg) {
  unsigned seed = (unsigned)(size_t)arg;
  void *keep[64] = {0};
  while (!stop) {
    unsigned i = (seed = seed * 1103515245u + 12345u) >> 16 & 63;
    free(keep[i]);
    keep[i] = malloc(16 + (seed >> 20 & 255));
    memset(keep[i], 1, 16);
  }
  for (int i = 0; i < 64; i++)
    free(keep[i]);
  return NULL;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_timer;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval every = {{0, 1000}, {0, 1000}};
  setitimer(ITIMER_REAL, &every, NULL);
  pthread_t t[THREADS];
  for (size_t i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, churn, (void *)(i + 1));
  struct timespec run = {SECONDS, 0};
  while (nanosleep(&run, &run) != 0)
    ;
  stop = 1;
  for (size_t i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  puts("done");
  return 0;
}
