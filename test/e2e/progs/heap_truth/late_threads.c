/* The main thread allocates and frees alone, then keeps doing so while 8
 * threads it starts do the same at another site: the threads reach the
 * heap state while its first thread is changing it. Each keeps a ring of
 * live blocks, so that the tables grow under both threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 8
#define BLOCKS 20000
#define RING 256
#define MAIN_BLOCKS 200000

static char *volatile last;

/* n blocks of 16..47 bytes, RING of them live at a time. */
__attribute__((noinline)) static long churn(long n, long seed) {
  char *ring[RING] = {0};
  long sum = 0;
  for (long k = 0; k < n; k++) {
    size_t size = 16 + (size_t)((k * 7 + seed) % 32);
    char *p = malloc(size);
    last = p;
    p[0] = (char)k;
    sum += p[0];
    free(ring[k % RING]);
    ring[k % RING] = p;
  }
  for (int i = 0; i < RING; i++)
    free(ring[i]);
  return sum;
}

static void *work(void *arg) {
  long *sum = arg;
  *sum = churn(BLOCKS, *sum);
  return NULL;
}

/* The main thread's own blocks: another site. */
__attribute__((noinline)) static long main_churn(long n) {
  char *ring[RING] = {0};
  long sum = 0;
  for (long k = 0; k < n; k++) {
    char *p = malloc(64);
    last = p;
    p[0] = (char)k;
    sum += p[0];
    free(ring[k % RING]);
    ring[k % RING] = p;
  }
  for (int i = 0; i < RING; i++)
    free(ring[i]);
  return sum;
}

int main(void) {
  pthread_t t[THREADS];
  long sums[THREADS];
  long total = main_churn(MAIN_BLOCKS / 4);
  for (int i = 0; i < THREADS; i++) {
    sums[i] = i;
    pthread_create(&t[i], NULL, work, &sums[i]);
    total += main_churn(MAIN_BLOCKS / 4 / THREADS);
  }
  total += main_churn(MAIN_BLOCKS / 2);
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    total += sums[i];
  }
  printf("%ld\n", total);
  return 0;
}
