/* mipdata show --heap: the allocation contexts of a profile. */
#ifndef MIPDATA_SHOW_HEAP_H
#define MIPDATA_SHOW_HEAP_H

#include "emit.h"
#include "mipfmt.h"

enum heap_order { HEAP_BY_SIZE, HEAP_BY_COUNT };

/* Prints the heap contexts of p (read from path) in the format. */
void show_heap(const char *path, const struct mip_profile *p,
               enum emit_format format, enum heap_order order);

#endif
