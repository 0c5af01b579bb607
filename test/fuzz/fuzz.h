/*
 * What every fuzz target shares. Each target is one file, fuzz_*.c, built
 * with libFuzzer, ASan and UBSan (test/fuzz/build.mk); test/fuzz/run.sh
 * makes their seed corpus from real builds and runs them.
 *
 * Targets hand the input's bytes to the readers' parse entry points
 * (mip_*_parse: the same parsing mip_*_read does after reading a file)
 * and call the library as the commands do; a command runs as a command
 * only for what it adds on top of the library (formatting a report), with
 * the input as a file on tmpfs. Nothing is written to disk per input:
 * a written profile is encoded and parsed back, as the next command would
 * read it. What the commands print goes nowhere (stdout and stderr are
 * discarding streams; the sanitizers and libFuzzer report on descriptor 2
 * all the same).
 */
#ifndef MIP_FUZZ_H
#define MIP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "mipfmt.h"

struct debuginfo;

/* The bytes in a block of exactly size bytes, for a parse to take: a read
 * one byte past the end is one ASan reports. */
struct mip_file fuzz_bytes(const uint8_t *data, size_t size);
/* The bytes as a file (on tmpfs, the same path every call), for the
 * commands that take a path. */
const char *fuzz_input_file(const uint8_t *data, size_t size);
/* A path in the target's scratch directory (tmpfs when there is one). */
const char *fuzz_scratch(const char *name);

/* A fixture run.sh made, named by an environment variable, read once
 * before the first input: FUZZ_PROFILE (the heap build's fresh profile),
 * FUZZ_MERGED (the same after its run). NULL when unset. */
const struct mip_file *fuzz_fixture(const char *var);
/* FUZZ_BINARY (the heap build's binary), indexed once; NULL when unset. */
struct debuginfo *fuzz_symbolizer(void);

/* Runs mipdata's subcommand with the arguments up to the NULL, as the
 * command line would; its exit status. */
int fuzz_mipdata(const char *command, ...) __attribute__((sentinel));

/* What every refusal must be: one line that names the file it is about
 * (path, or other_path when not NULL) and says something. Aborts, saying
 * what is wrong, when err is not. */
void fuzz_refused(const struct mip_error *err, const char *path,
                  const char *other_path);
/* Aborts with a message: the input broke a property the target checks. */
void fuzz_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* A profile a command would write (to path), encoded and parsed back as
 * the next command reads it: its own reader must take it, and encoding
 * what it read must give the same bytes. Fills back when given. */
void fuzz_written_profile(const struct mip_profile *p, const char *path,
                          struct mip_profile *back);

/* The indexed profile fixture var names, parsed afresh (a merge changes
 * it), named path in messages; 0, or -1 when var is unset. */
int fuzz_fixture_profile(const char *var, const char *path,
                         struct mip_profile *p);
/* The same, parsed once for the whole run, for reading only; NULL when
 * var is unset. */
const struct mip_profile *fuzz_fixture_profile_once(const char *var);

/* `mipdata merge -p INTO_PATH --debug BINARY RAW` past the reading, as
 * tools/mipdata/commands/cmd_merge.c adds a raw profile to the one profile given:
 * the run added, its heap stacks symbolized with fuzz_symbolizer() (the
 * --debug binary). Returns 0 when added; a refusal has been checked with
 * fuzz_refused. */
int fuzz_add_raw(struct mip_profile *into, const char *into_path,
                 const struct mip_raw *raw, const char *path);
/* The same for an indexed profile as the input. */
int fuzz_add_profile(struct mip_profile *into, const char *into_path,
                     const struct mip_profile *other, const char *path);

#endif
