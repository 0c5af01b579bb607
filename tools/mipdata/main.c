/*
 * mipdata: turns what MIP-instrumented programs write into profiles, and
 * profiles into reports. A thin dispatcher; each subcommand lives in its
 * own cmd_*.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *usage;
};

static const struct command commands[] = {
    {"extract", cmd_extract, "extract BINARY [-o OUT.mipmap]"},
    {"create", cmd_create, "create -p OUT.mip MAP"},
    {"merge", cmd_merge,
     "merge -p PROFILE.mip [-p PROFILE.mip...] [--skip-other-builds]\n"
     "                       [--debug BINARY...] INPUT.mipraw|INPUT.mip..."},
    {"show", cmd_show,
     "show -p PROFILE.mip [--debug BINARY] [--covered|--uncovered]\n"
     "                       [--heap [--sort size|count]] [--format text|yaml|json]"},
    {"order", cmd_order, "order -p PROFILE.mip [-o ORDER.txt] [--format lld|gold] [--startup N]\n                       [--hot-share F] [--cluster-size BYTES] [--explain[=text|yaml|json]]"},
    {"annotate", cmd_annotate,
     "annotate -p PROFILE.mip [--debug BINARY] [--format text|yaml|json] [--all]\n"
     "                       [--hot-share F] [--cold-max-density F]\n"
     "                       [--cold-min-lifetime SECONDS] [--hot-min-density F]"},
    {"symbolize", cmd_symbolize, "symbolize --debug BINARY [ADDRESS...]"},
    {"dump", cmd_dump, "dump FILE [--format text|yaml|json]"},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static void print_help(FILE *out) {
  fputs("usage: mipdata COMMAND [OPTIONS]\n\ncommands:\n", out);
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    fprintf(out, "  mipdata %s\n", commands[i].usage);
  fputs("\nSee docs/mipdata.md for details.\n", out);
}

int usage_error(const char *cmd, const char *fmt, ...) {
  fprintf(stderr, "mipdata %s: ", cmd);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (strcmp(commands[i].name, cmd) == 0)
      fprintf(stderr, " (usage: mipdata %s)", commands[i].usage);
  fputc('\n', stderr);
  return 2;
}

int report(const struct mip_error *err) {
  fprintf(stderr, "mipdata: %s\n", err->msg);
  return 1;
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
  for (size_t i = 0; i < COMMAND_COUNT; i++)
    if (strcmp(commands[i].name, name) == 0)
      return finish_stdout(commands[i].run(argc - 1, argv + 1));
  fprintf(stderr, "mipdata: unknown command '%s'\n", name);
  print_help(stderr);
  return 2;
}
