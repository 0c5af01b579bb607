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

/* The threads' blocks, 16..47 bytes, and the main thread's, 64: two
 * allocation sites. */
__attribute__((noinline)) static char *thread_block(long k, long seed) {
  return malloc(16 + (size_t)((k * 7 + seed) % 32));
}

__attribute__((noinline)) static char *main_block(long k, long seed) {
  (void)k;
  (void)seed;
  return malloc(64);
}

/* n blocks from make, RING of them live at a time. */
static long churn(char *(*make)(long k, long seed), long n, long seed) {
  char *ring[RING] = {0};
  long sum = 0;
  for (long k = 0; k < n; k++) {
    char *p = make(k, seed);
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
  *sum = churn(thread_block, BLOCKS, *sum);
  return NULL;
}

static long main_churn(long n) { return churn(main_block, n, 0); }

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
