/* The cold path: notes written when a counter is created, and read only
 * once more, for the checksum at the end (or by --journal). */
#include "hotcold.h"

static struct note **notes;
static size_t size, used;

static const char *const kinds[] = {"created", "registered", "scheduled"};

void journal_init(size_t n) {
  notes = allocate(n * sizeof *notes);
  size = n;
  used = 0;
}

void journal_add(uint32_t key, unsigned count) {
  for (unsigned k = 0; k < count; k++) {
    struct note *n = allocate(sizeof *n);
    n->stamp = (uint64_t)key << 8 | k;
    snprintf(n->text, sizeof n->text, "counter %u %s", (unsigned)key,
             kinds[k % 3]);
    if (used < size)
      notes[used++] = n;
  }
}

uint64_t journal_checksum(void) {
  uint64_t sum = 0;
  for (size_t i = 0; i < used; i++)
    sum += notes[i]->stamp;
  return sum;
}

void journal_print(FILE *out) {
  for (size_t i = 0; i < used; i++)
    fprintf(out, "%llu %s\n", (unsigned long long)notes[i]->stamp,
            notes[i]->text);
}

void journal_free(void) {
  for (size_t i = 0; i < used; i++)
    free(notes[i]);
  free(notes);
  notes = NULL;
  used = size = 0;
}
