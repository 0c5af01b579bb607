/* Four threads, one after another (each joined before the next starts, so
 * the order of their allocations is the same in every run and under
 * DHAT, which runs one thread at a time anyway): each leaves some blocks
 * live for the next, so that the global peak is made of several threads'
 * blocks, at several sites. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PER 50
static void *volatile blocks[4][PER];

__attribute__((noinline)) static void *piece(size_t n) {
  void *p = malloc(n);
  memset(p, 7, n);
  return p;
}

__attribute__((noinline)) static void *chunk(size_t n) { return calloc(1, n); }

static void *worker(void *arg) {
  long t = (long)arg;
  for (int i = 0; i < PER; i++)
    blocks[t][i] = i % 2 ? piece(16 * (size_t)(t + 1)) : chunk(100 + (size_t)i);
  /* The previous thread's blocks die here: the heap shrinks after this
   * thread's highest moment. */
  if (t > 0)
    for (int i = 0; i < PER; i++)
      if (i % (int)(t + 1) == 0) {
        free(blocks[t - 1][i]);
        blocks[t - 1][i] = NULL;
      }
  return NULL;
}

int main(void) {
  for (long t = 0; t < 4; t++) {
    pthread_t th;
    if (pthread_create(&th, NULL, worker, (void *)t) != 0)
      return 1;
    pthread_join(th, NULL);
  }
  for (int t = 0; t < 4; t++)
    for (int i = 0; i < PER; i++)
      free(blocks[t][i]);
  return 0;
}
