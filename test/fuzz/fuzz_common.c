/* fuzz.h: the input as bytes and as a file, fixtures read once, discarded
 * output, mipdata's commands, and the properties every target checks. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "debuginfo.h"
#include "fuzz.h"

static char scratch[256];
static int input_fd = -1;
static FILE *report_to; /* the process's stderr, for fuzz_fail */

/* ---- set-up, once before the first input ---------------------------- */

static void remove_scratch(void) {
  char command[300];
  snprintf(command, sizeof command, "rm -rf '%s'", scratch);
  if (system(command) != 0)
    return;
}

/* In TMPDIR (run.sh makes one on tmpfs, and removes it with whatever a
 * crash left), else on tmpfs, where the writes a command makes (mkstemp,
 * fsync, rename) cost no disk I/O. */
static void make_scratch(void) {
  const char *tmp = getenv("TMPDIR");
  const char *dirs[] = {tmp ? tmp : "/dev/shm", "/tmp"};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    snprintf(scratch, sizeof scratch, "%s/mip-fuzz.XXXXXX", dirs[i]);
    if (mkdtemp(scratch)) {
      atexit(remove_scratch);
      return;
    }
  }
  abort();
}

static ssize_t discard(void *cookie, const char *buf, size_t size) {
  (void)cookie;
  (void)buf;
  return (ssize_t)size;
}

/* A stream that formats everything and writes nothing: what the commands
 * print costs no system call, and a long run leaves no log of it. Only
 * this thread writes to it: no locking (the emitter writes a character
 * at a time). */
static FILE *discarding_stream(void) {
  static char buffers[2][1 << 16];
  static int next;
  cookie_io_functions_t io = {.write = discard};
  FILE *f = fopencookie(NULL, "w", io);
  if (!f || setvbuf(f, buffers[next++ % 2], _IOFBF, sizeof buffers[0]))
    abort();
  __fsetlocking(f, FSETLOCKING_BYCALLER);
  return f;
}

/* annotate formats its report into a memory stream, a character at a
 * time, and stdio locks the stream for each: only this thread writes it,
 * so it goes without (the fuzz targets' link wraps open_memstream,
 * build.mk). */
FILE *__real_open_memstream(char **ptr, size_t *size);
FILE *__wrap_open_memstream(char **ptr, size_t *size);
FILE *__wrap_open_memstream(char **ptr, size_t *size) {
  FILE *f = __real_open_memstream(ptr, size);
  if (f)
    __fsetlocking(f, FSETLOCKING_BYCALLER);
  return f;
}

/* The fixtures: indexed profiles, as bytes and parsed. */
static struct {
  const char *var;
  struct mip_file file;
  struct mip_profile profile;
  int loaded;
} fixtures[] = {{"FUZZ_PROFILE", {0}, {0}, 0}, {"FUZZ_MERGED", {0}, {0}, 0}};
static struct debuginfo *binary;

static void load_fixtures(void) {
  struct mip_error err;
  for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
    const char *path = getenv(fixtures[i].var);
    if (!path)
      continue;
    if (mip_file_read(path, &fixtures[i].file, &err) ||
        mip_profile_read(path, &fixtures[i].profile, &err))
      fuzz_fail("%s: %s", fixtures[i].var, err.msg);
    fixtures[i].loaded = 1;
  }
  const char *path = getenv("FUZZ_BINARY");
  if (path && !(binary = debuginfo_open(path, &err)))
    fuzz_fail("FUZZ_BINARY: %s", err.msg);
}

/* libFuzzer calls this once, before the first input. libFuzzer keeps the
 * stderr stream it started with; the sanitizers write to descriptor 2. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  report_to = stderr;
  make_scratch();
  load_fixtures();
  stdout = discarding_stream();
  stderr = discarding_stream();
  return 0;
}

/* ---- inputs and fixtures -------------------------------------------- */

struct mip_file fuzz_bytes(const uint8_t *data, size_t size) {
  struct mip_file f = {mip_xmalloc(size), size};
  if (size)
    memcpy(f.data, data, size);
  return f;
}

/* One file, kept open, rewritten in place: the least a command's read of
 * it costs (on tmpfs, no disk). */
const char *fuzz_input_file(const uint8_t *data, size_t size) {
  static char path[512];
  if (input_fd < 0) {
    snprintf(path, sizeof path, "%s/input", scratch);
    input_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (input_fd < 0)
      abort();
  }
  if (pwrite(input_fd, data, size, 0) != (ssize_t)size ||
      ftruncate(input_fd, (off_t)size) != 0)
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

static int fixture_index(const char *var) {
  for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
    if (strcmp(fixtures[i].var, var) == 0)
      return fixtures[i].loaded ? (int)i : -1;
  abort();
}

const struct mip_file *fuzz_fixture(const char *var) {
  int i = fixture_index(var);
  return i < 0 ? NULL : &fixtures[i].file;
}

int fuzz_fixture_profile(const char *var, const char *path,
                         struct mip_profile *p) {
  int i = fixture_index(var);
  if (i < 0)
    return -1;
  struct mip_file bytes = fuzz_bytes(fixtures[i].file.data,
                                     fixtures[i].file.size);
  struct mip_error err;
  if (mip_profile_parse(&bytes, path, p, &err))
    fuzz_fail("%s: %s", var, err.msg);
  return 0;
}

const struct mip_profile *fuzz_fixture_profile_once(const char *var) {
  int i = fixture_index(var);
  return i < 0 ? NULL : &fixtures[i].profile;
}

struct debuginfo *fuzz_symbolizer(void) { return binary; }

/* ---- commands ------------------------------------------------------- */

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

/* ---- properties ------------------------------------------------------ */

void fuzz_fail(const char *fmt, ...) {
  FILE *out = report_to ? report_to : stderr;
  fputs("fuzz: ", out);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
  fputc('\n', out);
  fflush(out);
  abort();
}

static int names(const char *msg, const char *path) {
  size_t n = strlen(path);
  return strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' &&
         msg[n + 2] != '\0';
}

void fuzz_refused(const struct mip_error *err, const char *path,
                  const char *other_path) {
  if (!names(err->msg, path) && !(other_path && names(err->msg, other_path)))
    fuzz_fail("a refusal that does not name %s%s%s: \"%s\"", path,
              other_path ? " or " : "", other_path ? other_path : "",
              err->msg);
  if (strchr(err->msg, '\n'))
    fuzz_fail("a refusal of more than one line: \"%s\"", err->msg);
}

void fuzz_written_profile(const struct mip_profile *p, const char *path,
                          struct mip_profile *back) {
  struct mip_buf bytes = {0}, again = {0};
  mip_profile_encode(p, &bytes);
  struct mip_file file = fuzz_bytes(bytes.data, bytes.size);
  struct mip_profile read;
  struct mip_error err;
  if (mip_profile_parse(&file, path, &read, &err))
    fuzz_fail("%s: written, then refused by its own reader: %s", path,
              err.msg);
  mip_profile_encode(&read, &again);
  if (again.size != bytes.size || memcmp(again.data, bytes.data, bytes.size))
    fuzz_fail("%s: written and read back, it encodes to other bytes (%zu, "
              "written %zu)",
              path, again.size, bytes.size);
  mip_buf_free(&bytes);
  mip_buf_free(&again);
  if (back)
    *back = read;
  else
    mip_profile_free(&read);
}
