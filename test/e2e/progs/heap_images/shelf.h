/* A shelf of labelled items, in a shared library built with heap mode:
 * the program's allocations are mostly the library's. */
#ifndef SHELF_H
#define SHELF_H

#include <stddef.h>

struct shelf {
  char **labels;
  long *weights;
  size_t count, cap;
};

/* Called by the shelf for every item it adds: the program's own code,
 * which may allocate (a context whose site is the program's, with the
 * library's frames below it). */
typedef void (*shelf_visit)(const char *label, long weight);

struct shelf *shelf_new(size_t cap);
void shelf_add(struct shelf *s, const char *name, long weight,
               shelf_visit visit);
long shelf_weigh(const struct shelf *s);
void shelf_free(struct shelf *s);
/* A label "name#n", its own block. */
char *label_make(const char *name, long n);
/* A table of n zeroed counters. */
long *label_counts(size_t n);

#endif
