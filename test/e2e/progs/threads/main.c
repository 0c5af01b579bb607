/*
 * 8 threads, released together by a barrier, each calling hot() 200000
 * times and its own only<i>() (i + 1) * 1000 times; main calls first()
 * before it starts them. Prints nothing; the profile says the rest.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define THREADS 8
#define HOT_CALLS 200000

static volatile long sink;
static pthread_barrier_t start;

__attribute__((noinline)) long first(long x) { return x + 3; }
__attribute__((noinline)) long hot(long x) { return x + 1; }

#define ONLY(n)                                                                \
  __attribute__((noinline)) long only##n(long x) { return x ^ n; }
ONLY(0) ONLY(1) ONLY(2) ONLY(3) ONLY(4) ONLY(5) ONLY(6) ONLY(7)

static long (*const only[THREADS])(long) = {only0, only1, only2, only3,
                                            only4, only5, only6, only7};

static void *worker(void *arg) {
  int me = (int)(intptr_t)arg;
  long s = 0;
  pthread_barrier_wait(&start);
  for (int i = 0; i < HOT_CALLS; i++) {
    s += hot(i);
    if (i < (me + 1) * 1000)
      s += only[me](i);
  }
  sink = s;
  return NULL;
}

int main(void) {
  pthread_t threads[THREADS];
  sink = first(1);
  pthread_barrier_init(&start, NULL, THREADS);
  for (int i = 0; i < THREADS; i++)
    if (pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i) != 0)
      return 1;
  for (int i = 0; i < THREADS; i++)
    pthread_join(threads[i], NULL);
  return 0;
}
