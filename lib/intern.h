/*
 * String tables with one offset per distinct string: the heap data of a
 * profile (heap_profile.c) and mipdata's index of a binary's debug
 * information keep their names so.
 */
#ifndef MIP_LIB_INTERN_H
#define MIP_LIB_INTERN_H

#include <stdint.h>

#include "mipfmt.h"

/* Open addressing over the NUL-terminated strings of a buffer whose
 * offset 0 is "". */
struct mip_interner {
  struct mip_buf *strings;
  uint32_t *slots; /* offset + 1; 0: empty */
  size_t cap, count;
};

/* Knows the strings already in [from, size) of strings. */
void mip_interner_init(struct mip_interner *t, struct mip_buf *strings,
                       size_t from);
void mip_interner_free(struct mip_interner *t);

/* The offset of s in the strings, appended if need be; 0 for "". s must
 * not point into the strings themselves. */
uint32_t mip_intern(struct mip_interner *t, const char *s);
/* The same for a file name, as MIP shows it (path.h). */
uint32_t mip_intern_path(struct mip_interner *t, const char *path);

#endif
