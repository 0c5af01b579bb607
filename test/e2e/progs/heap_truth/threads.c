/* 8 threads allocating and freeing at one site at the same time. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 8
#define BLOCKS 1000

/* Where each block's address goes, so the optimizer keeps every
 * allocation. */
static char *volatile last;

static void *work(void *arg) {
  long sum = 0;
  for (int k = 0; k < BLOCKS; k++) {
    char *p = malloc((size_t)(16 + k % 8));
    last = p;
    p[0] = (char)k;
    sum += p[0];
    free(p);
  }
  *(long *)arg = sum;
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  long sums[THREADS];
  for (int i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, work, &sums[i]);
  long total = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    total += sums[i];
  }
  printf("%ld\n", total);
  return 0;
}
