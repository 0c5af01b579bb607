/* mipdata show --heap: the allocation contexts of a profile. */
#ifndef MIPDATA_SHOW_HEAP_H
#define MIPDATA_SHOW_HEAP_H

#include <stdio.h>

#include "emit.h"
#include "report.h"

enum heap_order { HEAP_BY_SIZE, HEAP_BY_COUNT };

/* What a reader must know of r's figures, a line each: that accesses
 * were not counted (heap-allocs); that the profile is sampled, at what
 * rate, and its figures estimates. Nothing for an exact profile of a
 * counting build. */
void heap_notes_text(FILE *out, const struct report *r);

/* Prints the heap contexts of r in the format. */
void show_heap(const struct report *r, enum emit_format format,
               enum heap_order order);

#endif
