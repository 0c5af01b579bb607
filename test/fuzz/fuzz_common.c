/* fuzz.h: the input as a file, scratch space, mipdata's commands. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../tools/mipdata/cmd.h"
#include "fuzz.h"

static char scratch[256];
static int input_fd = -1;

static void remove_scratch(void) {
  char command[300];
  snprintf(command, sizeof command, "rm -rf '%s'", scratch);
  if (system(command) != 0)
    return;
}

/* libFuzzer calls this once, before the first input. Reports go to
 * /dev/null (the commands print what they refuse; libFuzzer prints to
 * stderr, which stays). */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/mip-fuzz.XXXXXX", tmp ? tmp : "/tmp");
  if (!mkdtemp(scratch))
    abort();
  atexit(remove_scratch);
  if (!freopen("/dev/null", "w", stdout))
    abort();
  return 0;
}

const char *fuzz_input_file(const uint8_t *data, size_t size) {
  static char path[64];
  if (input_fd < 0) {
    input_fd = memfd_create("mip-fuzz-input", MFD_CLOEXEC);
    if (input_fd < 0)
      abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", input_fd);
  }
  if (ftruncate(input_fd, 0) != 0 || pwrite(input_fd, data, size, 0) !=
                                         (ssize_t)size)
    abort();
  return path;
}

const char *fuzz_scratch(const char *name) {
  static char paths[4][512];
  static int next;
  char *path = paths[next++ % 4];
  snprintf(path, sizeof paths[0], "%s/%s", scratch, name);
  return path;
}

const char *fuzz_scratch_file(const char *name, const uint8_t *data,
                              size_t size) {
  const char *path = fuzz_scratch(name);
  FILE *out = fopen(path, "wb");
  if (!out || fwrite(data, 1, size, out) != size || fclose(out) != 0)
    abort();
  return path;
}

const char *fuzz_fixture(const char *var) { return getenv(var); }

const char *fuzz_fixture_copy(const char *var, const char *name) {
  const char *from = getenv(var);
  if (!from)
    return NULL;
  const char *to = fuzz_scratch(name);
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  if (!in || !out)
    abort();
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0)
    if (fwrite(buf, 1, n, out) != n)
      abort();
  fclose(in);
  if (fclose(out) != 0)
    abort();
  return to;
}

static const struct {
  const char *name;
  int (*run)(int, char **);
} commands[] = {
    {"extract", cmd_extract}, {"create", cmd_create}, {"merge", cmd_merge},
    {"show", cmd_show},       {"order", cmd_order},   {"annotate", cmd_annotate},
    {"dump", cmd_dump},
};

int fuzz_mipdata(const char *command, ...) {
  char *argv[32];
  int argc = 0;
  argv[argc++] = (char *)command;
  va_list ap;
  va_start(ap, command);
  for (const char *a; (a = va_arg(ap, const char *)) && argc < 31;)
    argv[argc++] = (char *)a;
  va_end(ap);
  argv[argc] = NULL;
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(commands[i].name, command) == 0) {
      int rc = output_run(commands[i].run, argc, argv);
      fflush(stdout);
      return rc;
    }
  abort();
}
