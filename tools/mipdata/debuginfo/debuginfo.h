/*
 * What a binary's debug information says about its code: the reader
 * behind `show --debug`, `annotate --debug`, `merge --debug` and
 * `symbolize` (tools/mipdata/debuginfo/, libdwarf). Opening a binary reads
 * every compile unit once: line tables, functions with their declarations
 * and inlined calls; code without DWARF falls back to the ELF symbol
 * table. File names come out as DWARF names them, without "/./" steps.
 */
#ifndef MIPDATA_DEBUGINFO_H
#define MIPDATA_DEBUGINFO_H

#include <stdint.h>

#include "mipfmt.h"

struct debuginfo;

/* Reads path (the unstripped binary or its debug file). Fails when it is
 * no ELF file, cannot be read or carries no DWARF. */
struct debuginfo *debuginfo_open(const char *path, struct mip_error *err);
void debuginfo_close(struct debuginfo *di);

/* The binary's GNU build-id (size 0 when it has none). */
const struct mip_build_id *debuginfo_build_id(const struct debuginfo *di);

/* Whether DWARF covers the code of the program's own functions (those of
 * the map section; any code, in a binary without one): 0 for a binary
 * built without -g, whose only DWARF is the MIP runtime's. Its frames
 * then come from the symbol table (a function name; for a local
 * function, the source file its FILE symbol names; no line, no inlined
 * calls). */
int debuginfo_covers_program(const struct debuginfo *di);

/* When DWARF declares none of the program's own functions (the same
 * test, on declarations: -gline-tables-only declares nothing) and di is
 * not NULL, says so in one note on stderr: what show and annotate print
 * for --debug BINARY then. */
void debuginfo_note_program(const struct debuginfo *di, const char *path);

/* The declaration of the function starting at link-time address entry:
 * 0 with *file (owned by di) and *line set, -1 when DWARF does not say. */
int debuginfo_lookup(const struct debuginfo *di, uint64_t entry,
                     const char **file, uint32_t *line);

/* The frames of the code at addr, innermost first: the function the
 * instruction belongs to (an inlined one if it was inlined), then each
 * function it was inlined into, up to the function the code is in. Each
 * frame's location is where it is: the instruction's line for the first,
 * the call of the inlined function for the others. Returns how many and
 * sets *frames (owned by the debuginfo, valid until the next call); 0
 * when neither DWARF nor the symbol table knows addr. ctx is the
 * debuginfo, so this is a struct mip_symbolizer callback. */
size_t debuginfo_frames(void *ctx, uint64_t addr,
                        const struct mip_frame_info **frames);

#endif
