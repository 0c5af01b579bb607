/* mipdata show --heap: the allocation contexts of a profile. */
#ifndef MIPDATA_SHOW_HEAP_H
#define MIPDATA_SHOW_HEAP_H

#include "emit.h"
#include "report.h"

enum heap_order { HEAP_BY_SIZE, HEAP_BY_COUNT };

/* Prints the heap contexts of r in the format. */
void show_heap(const struct report *r, enum emit_format format,
               enum heap_order order);

#endif
