/* Heap truth program: every allocation is deterministic, so valgrind's
 * DHAT and MIP must count the same blocks and bytes at every site. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

static volatile long sink;
/* Where blocks' addresses go, so the optimizer keeps every allocation. */
static void *volatile escaped;

static void touch(const void *p, size_t n) {
  const volatile unsigned char *b = p;
  for (size_t i = 0; i < n; i += 16)
    sink += b[i];
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 5;
  void *kept = NULL;
  for (int r = 0; r < rounds; r++) {
    struct store s;
    store_init(&s);
    for (long i = 0; i < 40 + r * 7; i++)
      store_add(&s, i * r);
    touch(s.items, s.count * sizeof *s.items);
    store_done(&s);
    char *t = text_copy("a line of text to copy");
    char *u = text_prefix(t, (size_t)(r + 3));
    int *z = table_zeroed((size_t)(100 + r));
    void *a = buffer_aligned((size_t)(128 * (r + 1)));
    void *b = buffer_posix((size_t)(64 + r));
    touch(z, 100 * sizeof *z);
    sink += strlen(u);
    sink += suite_round(r);
    free(t);
    free(u);
    free(z);
    free(a);
    if (r % 2)
      free(b);
    else
      kept = b; /* the last even round's block is live at exit */
    char *leak = malloc(24);
    escaped = leak;
    if (r < rounds - 1)
      free(leak);
  }
  printf("%ld %d\n", sink, kept != NULL);
  return 0;
}
