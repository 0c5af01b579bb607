/*
 * Link-time addresses of a binary to source frames, with inlined
 * functions expanded, from its DWARF (libdwarf): what `mipdata merge`
 * turns heap call stacks into, and what `mipdata symbolize` prints.
 */
#ifndef MIPDATA_SYMBOLIZE_H
#define MIPDATA_SYMBOLIZE_H

#include <stdint.h>

#include "mipfmt.h"

struct symbolizer;

/* Reads path (the unstripped binary or its debug file) and indexes its
 * line tables and its functions, inlined ones included. Fails when the
 * file is no ELF file or carries no DWARF. */
struct symbolizer *symbolizer_open(const char *path, struct mip_error *err);
void symbolizer_close(struct symbolizer *s);

/* The binary's GNU build-id (size 0 when it has none). */
const struct mip_build_id *symbolizer_build_id(const struct symbolizer *s);

/* Whether DWARF covers the program's own code (the functions of the map
 * section; any code, for a binary without one). 0 for a binary built
 * without -g, whose only DWARF is the MIP runtime's: its frames then come
 * from the symbol table (a function name; for a local function, the
 * source file its FILE symbol names; no line, no inlined calls). */
int symbolizer_program_dwarf(const struct symbolizer *s);

/* The frames of the code at addr, innermost first: the function the
 * instruction belongs to (an inlined one if it was inlined), then each
 * function it was inlined into, up to the function the code is in. Each
 * frame's location is where it is: the instruction's line for the first,
 * the call of the inlined function for the others. Returns how many and
 * sets *frames (owned by s, valid until the next call); 0 when neither
 * DWARF nor the symbol table knows addr. ctx is the symbolizer, so this
 * is a struct mip_symbolizer callback. */
size_t symbolizer_frames(void *ctx, uint64_t addr,
                         const struct mip_frame_info **frames);

#endif
