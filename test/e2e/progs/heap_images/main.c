/* A thin program over its library (libshelf.so): most blocks are the
 * library's, some its own, and some its own under the library's frames
 * (the visitor the shelf calls). Deterministic, so DHAT and MIP must
 * count the same blocks and bytes at every site. */
#include <stdio.h>
#include <stdlib.h>

#include "notes.h"
#include "shelf.h"

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 4;
  long *totals = calloc((size_t)rounds + 1, sizeof *totals);
  for (int r = 0; r < rounds; r++) {
    struct shelf *s = shelf_new(4);
    for (int i = 0; i < 10 + 5 * r; i++)
      shelf_add(s, r % 2 ? "jar" : "tin", i, i % 3 ? note_visit : NULL);
    long *counts = label_counts((size_t)(8 + r));
    counts[0] = shelf_weigh(s);
    totals[r + 1] = totals[r] + counts[0];
    free(counts);
    shelf_free(s);
  }
  char *summary = note_summary(totals[rounds]);
  printf("%s\n", summary);
  free(summary);
  free(totals);
  notes_clear();
  return 0;
}
