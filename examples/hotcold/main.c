/* hotcold [--journal] [COUNTERS [STEPS]]: creates COUNTERS counters (4096)
 * with three notes each, updates the counters STEPS times (100 million)
 * in a shuffled cycle, and prints a checksum of both; --journal also
 * prints the notes. */
#include <string.h>

#include "hotcold.h"

#define NOTES 3

void out_of_memory(size_t size) {
  fprintf(stderr, "hotcold: out of memory (%zu bytes)\n", size);
  exit(1);
}

#ifdef HOTCOLD_WRAPPER
__attribute__((noinline)) void *allocate(size_t size) {
  void *p = malloc(size);
  if (!p)
    out_of_memory(size);
  return p;
}
#endif

int main(int argc, char **argv) {
  int journal = argc > 1 && strcmp(argv[1], "--journal") == 0;
  if (journal) {
    argc--;
    argv++;
  }
  size_t counters = argc > 1 ? strtoull(argv[1], NULL, 10) : 4096;
  uint64_t steps = argc > 2 ? strtoull(argv[2], NULL, 10) : 100000000;
  if (!counters || argc > 3) {
    fprintf(stderr, "usage: hotcold [--journal] [COUNTERS [STEPS]]\n");
    return 2;
  }
  table_init(counters);
  journal_init(counters * NOTES);
  for (size_t i = 0; i < counters; i++) {
    table_add((uint32_t)i);
    journal_add((uint32_t)i, NOTES);
  }
  table_shuffle(0x9e3779b97f4a7c15u);
  table_run(steps);
  printf("%zu counters, %llu steps: checksum %016llx %016llx\n", counters,
         (unsigned long long)steps, (unsigned long long)table_checksum(),
         (unsigned long long)journal_checksum());
  if (journal)
    journal_print(stdout);
  table_free();
  journal_free();
  return 0;
}
