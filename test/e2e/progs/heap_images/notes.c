/* The program's own allocations: a note per visited label (called from
 * inside the library), and a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notes.h"

struct note {
  struct note *next;
  char *text;
  long weight;
};

static struct note *notes;
static long noted;

void note_visit(const char *label, long weight) {
  struct note *n = malloc(sizeof *n);
  n->text = strdup(label);
  n->weight = weight;
  n->next = notes;
  notes = n;
  noted += weight;
}

char *note_summary(long total) {
  char *text = malloc(64);
  snprintf(text, 64, "total %ld, noted %ld", total, noted);
  return text;
}

void notes_clear(void) {
  while (notes) {
    struct note *n = notes;
    notes = n->next;
    free(n->text);
    free(n);
  }
}
