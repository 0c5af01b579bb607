/*
 * Everything a mipdata command writes goes out at its end, or not at all:
 * its report on stdout, the report's -o file, the files it makes (a map,
 * an ordering file, profiles). A command that fails late, after it began
 * to print, leaves stdout empty and every file as it was.
 *
 * Commands print with stdio to stdout, here and in the report writers
 * (emit.c, show_heap.c), so rather than hand each of them a stream, the
 * sink points the process's stdout (descriptor 1) at an anonymous memory
 * file while the command runs. At the commit, in this order:
 *   1. each file is staged: written to a temporary file beside it, synced
 *      (mip_file_stage), the report's -o file too;
 *   2. what the command printed goes to the real stdout, unless -o took it;
 *   3. each temporary file is renamed over its file.
 * A failure in 1 or 2 removes the temporaries: nothing is left. Only a
 * rename in 3 can still fail (the directory changed under the command), and
 * then the files renamed before it stay replaced (docs/mipdata.md). Signals
 * that end the process (SIGINT, SIGTERM, SIGHUP, SIGPIPE) wait until the
 * commit is over, so that no temporary file stays behind.
 */
#ifndef MIPDATA_OUTPUT_H
#define MIPDATA_OUTPUT_H

#include "mipfmt.h"

/* Runs a command (cmd_*) through the sink: output_begin, the command,
 * then output_commit when it returned 0 and output_discard otherwise.
 * Returns the command's status, or 1 (said) when its output could not be
 * written. */
int output_run(int (*command)(int argc, char **argv), int argc, char **argv);

/* Before the command runs: stdout goes to the buffer. Returns -1 with err
 * set when no buffer can be made. */
int output_begin(struct mip_error *err);
/* The report (what the command prints) goes to path, instead of stdout. */
void output_report_to(const char *path);
/* The report goes to a terminal (the real stdout, no -o): whether a
 * command may colour it. NO_COLOR in the environment says no. */
int output_to_terminal(void);
/* path is to hold data, which the sink takes over (*data is emptied).
 * A path that names a file the command read (mip_file_input: -o naming
 * an input, or another name of it) is refused at the commit, before
 * anything is written. */
void output_file(const char *path, struct mip_buf *data);
/* The same for a file the command read and replaces on purpose (merge's
 * profiles). */
void output_update(const char *path, struct mip_buf *data);
/* The refusal of an output path that is the file input names (one line,
 * both names when they differ); returns -1. */
int output_over_input(const char *path, const char *input,
                      struct mip_error *err);
/* Writes everything out, as above; after it, the command prints straight
 * to stdout. A command that must commit before it lets go of something
 * (merge, its profile locks) calls it itself; output_run does for the
 * others. */
int output_commit(struct mip_error *err);
/* Forgets everything (the command failed): nothing is written. */
void output_discard(void);

#endif
