/*
 * Source locations of functions, from a binary's DWARF (libdwarf): where
 * each function whose code starts at a given address was declared.
 */
#ifndef MIPDATA_DEBUGINFO_H
#define MIPDATA_DEBUGINFO_H

#include <stdint.h>

#include "mipfmt.h"

struct debuginfo;

/* Indexes the functions of path's DWARF. Fails when the file cannot be
 * read or carries no DWARF. */
struct debuginfo *debuginfo_open(const char *path, struct mip_error *err);
void debuginfo_close(struct debuginfo *di);

/* The declaration of the function starting at link-time address entry:
 * 0 with *file (owned by di) and *line set, -1 when DWARF does not say. */
int debuginfo_lookup(const struct debuginfo *di, uint64_t entry,
                     const char **file, uint32_t *line);

#endif
