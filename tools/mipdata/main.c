/*
 * mipdata: turns what MIP-instrumented programs write into profiles, and
 * profiles into reports. A thin dispatcher; each subcommand lives in its
 * own cmd_*.c, declares its options (options.h) and writes through the
 * output sink (output.h), which main commits when the command succeeded.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "output.h"

struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
};

static const struct command commands[] = {
    {"extract", cmd_extract, "copy a binary's MIP map into a map file"},
    {"create", cmd_create, "create an indexed profile, with no runs, from a map"},
    {"merge", cmd_merge, "add raw profiles (or other profiles) to profiles"},
    {"show", cmd_show, "show a profile: functions, blocks, edges, heap"},
    {"order", cmd_order, "write a function ordering file for the linker"},
    {"diff", cmd_diff, "what changed between two builds' profiles; a CI gate"},
    {"annotate", cmd_annotate, "show what a rebuild with the profile decides"},
    {"flamegraph", cmd_flamegraph,
     "draw the heap as a flame graph (HTML), or two profiles' difference"},
    {"symbolize", cmd_symbolize, "print the source frames of addresses"},
    {"export", cmd_export, "write a profile in pprof, DHAT, lcov, ... format"},
    {"dump", cmd_dump, "print every field, section and record of any MIP file"},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void print_help(FILE *out) {
  fputs("usage: mipdata COMMAND [OPTIONS]\n"
        "       mipdata COMMAND --help\n"
        "       mipdata --version\n\ncommands:\n",
        out);
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fputs("\nOptions several commands share: -p PROFILE, -o FILE, --format "
        "text|yaml|json,\n--debug BINARY. See docs/mipdata.md for details.\n",
        out);
}

/* A report that did not reach its reader is a failure, whatever the
 * command thought: a full disk, /dev/full, a closed stdout. The last
 * buffer is flushed and the stream closed here, where an error shows. */
static int finish_stdout(int rc) {
  errno = 0;
  int failed = fflush(stdout) != 0 || ferror(stdout);
  int saved = errno;
  if (fclose(stdout) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  if (!failed || rc != 0)
    return rc; /* a command that failed has said why already */
  fprintf(stderr, "mipdata: stdout: cannot write: %s\n",
          saved ? strerror(saved) : "write error");
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_help(stderr);
    return 2;
  }
  const char *name = argv[1];
  if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
    print_help(stdout);
    return finish_stdout(0);
  }
  if (!strcmp(name, "--version")) {
    printf("mipdata (MIP) %s\n", mip_version());
    return finish_stdout(0);
  }
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (strcmp(commands[i].name, name) == 0)
      return finish_stdout(output_run(commands[i].run, argc - 1, argv + 1));
  fprintf(stderr, "mipdata: unknown command '%s'\n", name);
  print_help(stderr);
  return 2;
}
