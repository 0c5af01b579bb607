/* mipdata show --heap: the allocation contexts of a profile. */
#ifndef MIPDATA_SHOW_HEAP_H
#define MIPDATA_SHOW_HEAP_H

#include <stdio.h>

#include "emit.h"
#include "report.h"

enum heap_order { HEAP_BY_SIZE, HEAP_BY_COUNT };

/* When r is a sampled profile: one line saying so, at what rate, and that
 * its figures are estimates; nothing for an exact one. */
void heap_sampled_text(FILE *out, const struct report *r);

/* Prints the heap contexts of r in the format. */
void show_heap(const struct report *r, enum emit_format format,
               enum heap_order order);

#endif
