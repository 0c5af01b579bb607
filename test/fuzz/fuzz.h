/*
 * What every fuzz target shares: the input as a file (the readers take
 * paths, as the commands do), a scratch directory for what commands
 * write, and a way to run a mipdata command as `mipdata ARGS...` would.
 * Each target is one file, fuzz_*.c, built with libFuzzer, ASan and
 * UBSan (test/fuzz/build.mk); test/fuzz/run.sh makes their seed corpus
 * from real builds and runs them.
 */
#ifndef MIP_FUZZ_H
#define MIP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The bytes as a file: its path (the same one every call). */
const char *fuzz_input_file(const uint8_t *data, size_t size);
/* A path in the target's scratch directory. */
const char *fuzz_scratch(const char *name);
/* The bytes as the scratch file name (a file a command may replace). */
const char *fuzz_scratch_file(const char *name, const uint8_t *data,
                              size_t size);
/* Copies the file named by environment variable var (a fixture run.sh
 * made, e.g. the profile raw inputs are merged into) to the scratch
 * path name; NULL when var is unset. */
const char *fuzz_fixture_copy(const char *var, const char *name);
/* The value of environment variable var, or NULL. */
const char *fuzz_fixture(const char *var);
/* Runs mipdata's subcommand with the arguments up to the NULL, as the
 * command line would; its exit status. */
int fuzz_mipdata(const char *command, ...) __attribute__((sentinel));

#endif
