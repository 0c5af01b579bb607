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

/* Whether DWARF knows the program's own functions (those of the map
 * section; any, in a binary without one): 0 for a binary built without
 * -g, whose only DWARF is the MIP runtime's. */
int debuginfo_program_dwarf(const struct debuginfo *di);
/* When it does not (and di is not NULL), says so in one note on stderr:
 * what show and annotate print for --debug BINARY then. */
void debuginfo_note_program(const struct debuginfo *di, const char *path);

/* The declaration of the function starting at link-time address entry:
 * 0 with *file (owned by di) and *line set, -1 when DWARF does not say. */
int debuginfo_lookup(const struct debuginfo *di, uint64_t entry,
                     const char **file, uint32_t *line);

#endif
