/* The library's shelf: grows by realloc, copies each label. */
#include <stdlib.h>
#include <string.h>

#include "shelf.h"

struct shelf *shelf_new(size_t cap) {
  struct shelf *s = malloc(sizeof *s);
  s->labels = malloc(cap * sizeof *s->labels);
  s->weights = calloc(cap, sizeof *s->weights);
  s->count = 0;
  s->cap = cap;
  return s;
}

static void grow(struct shelf *s) {
  s->cap *= 2;
  s->labels = realloc(s->labels, s->cap * sizeof *s->labels);
  s->weights = realloc(s->weights, s->cap * sizeof *s->weights);
}

void shelf_add(struct shelf *s, const char *name, long weight,
               shelf_visit visit) {
  if (s->count == s->cap)
    grow(s);
  s->labels[s->count] = label_make(name, (long)s->count);
  s->weights[s->count] = weight;
  if (visit)
    visit(s->labels[s->count], weight);
  s->count++;
}

long shelf_weigh(const struct shelf *s) {
  long total = 0;
  for (size_t i = 0; i < s->count; i++)
    total += s->weights[i] * (long)strlen(s->labels[i]);
  return total;
}

void shelf_free(struct shelf *s) {
  for (size_t i = 0; i < s->count; i++)
    free(s->labels[i]);
  free(s->labels);
  free(s->weights);
  free(s);
}
