/* What a command writes, all at its end or not at all (output.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "message.h"
#include "mip/io.h"
#include "output.h"

/* A file to write at the commit. */
struct pending {
  const char *path;
  struct mip_buf data;
  struct mip_staged_file staged;
  int updates; /* an input the command replaces (output_update) */
};

static struct {
  int capturing;   /* descriptor 1 is the buffer */
  int real_stdout; /* the descriptor stdout was; -1 when it was closed */
  const char *report_path;
  struct pending *files;
  size_t count;
} out = {.real_stdout = -1};

int output_begin(struct mip_error *err) {
  fflush(stdout);
  out.real_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (out.real_stdout < 0 && errno != EBADF)
    return mip_fail(err, "stdout", "cannot buffer the output: %s",
                    strerror(errno));
  /* With stdout closed, the buffer may come out as descriptor 1 itself. */
  int buffer = memfd_create("mipdata-output", MFD_CLOEXEC);
  if (buffer < 0 || (buffer != STDOUT_FILENO &&
                     dup2(buffer, STDOUT_FILENO) != STDOUT_FILENO)) {
    int e = errno;
    if (buffer >= 0)
      close(buffer);
    if (out.real_stdout >= 0)
      close(out.real_stdout);
    out.real_stdout = -1;
    return mip_fail(err, "stdout", "cannot buffer the output: %s",
                    strerror(e));
  }
  if (buffer != STDOUT_FILENO)
    close(buffer);
  out.capturing = 1;
  mip_file_forget_inputs(); /* what this command reads, from here on */
  return 0;
}

void output_report_to(const char *path) { out.report_path = path; }

int output_to_terminal(void) {
  const char *no = getenv("NO_COLOR");
  return out.capturing && !out.report_path && out.real_stdout >= 0 &&
         !(no && *no) && isatty(out.real_stdout);
}

static void add_file(const char *path, struct mip_buf *data, int updates) {
  out.files = mip_xrealloc(out.files, out.count + 1, sizeof *out.files);
  out.files[out.count++] =
      (struct pending){path, *data, {path, NULL}, updates};
  *data = (struct mip_buf){0};
}

void output_file(const char *path, struct mip_buf *data) {
  add_file(path, data, 0);
}

void output_update(const char *path, struct mip_buf *data) {
  add_file(path, data, 1);
}

/* Points descriptor 1 back at the real stdout (or leaves it closed). */
static void stop_capturing(void) {
  if (!out.capturing)
    return;
  if (out.real_stdout >= 0) {
    dup2(out.real_stdout, STDOUT_FILENO);
    close(out.real_stdout);
  } else {
    close(STDOUT_FILENO);
  }
  out.real_stdout = -1;
  out.capturing = 0;
}

/* What the command printed, into report; stdout is the real one after. */
static int take_report(struct mip_buf *report, struct mip_error *err) {
  if (!out.capturing)
    return 0;
  int failed = fflush(stdout) != 0 || ferror(stdout);
  int e = errno;
  struct stat st;
  if (!failed && fstat(STDOUT_FILENO, &st) == 0) {
    uint8_t *at = mip_buf_extend(report, (size_t)st.st_size);
    for (size_t done = 0; done < (size_t)st.st_size && !failed;) {
      ssize_t n = pread(STDOUT_FILENO, at + done, (size_t)st.st_size - done,
                        (off_t)done);
      if (n < 0 && errno == EINTR)
        continue;
      failed = n <= 0;
      e = n == 0 ? EIO : errno;
      done += n > 0 ? (size_t)n : 0;
    }
  } else if (!failed) {
    failed = 1;
    e = errno;
  }
  __fpurge(stdout); /* what a failed flush kept must not reach stdout */
  clearerr(stdout);  /* the buffer's troubles are not the real stdout's */
  stop_capturing();
  if (failed)
    return mip_fail(err, "stdout", "cannot buffer the output: %s",
                    strerror(e));
  return 0;
}

int output_over_input(const char *path, const char *input,
                      struct mip_error *err) {
  if (strcmp(input, path) == 0)
    return mip_fail(err, path, "is an input of the command: not written over");
  return mip_fail(err, path,
                  "is the same file as the input %s: not written over", input);
}

/* A file the command would write over one it read is refused, before
 * anything is written: the input would be lost. cli_parse refused the
 * -o that names an input already, before the command ran; this is for
 * the files named otherwise (create -p), and for inputs that are read
 * without being named (none yet). */
static int check_not_inputs(struct mip_error *err) {
  for (size_t i = 0; i < out.count; i++) {
    struct stat st;
    const char *input;
    if (!out.files[i].updates && stat(out.files[i].path, &st) == 0 &&
        (input = mip_file_input(&st)))
      return output_over_input(out.files[i].path, input, err);
  }
  return 0;
}

static int stage_all(struct mip_error *err) {
  if (check_not_inputs(err))
    return -1;
  for (size_t i = 0; i < out.count; i++) {
    struct pending *f = &out.files[i];
    if (mip_file_stage(f->path, f->data.data, f->data.size, &f->staged, err))
      return -1;
  }
  return 0;
}

static int write_stdout(const struct mip_buf *report, struct mip_error *err) {
  if (report->size && mip_write_all(STDOUT_FILENO, report->data,
                                    report->size) != 0)
    return mip_fail(err, "stdout", "cannot write: %s", strerror(errno));
  return 0;
}

static int rename_all(struct mip_error *err) {
  for (size_t i = 0; i < out.count; i++)
    if (mip_file_commit(&out.files[i].staged, err))
      return -1;
  return 0;
}

/* Removes what was staged and not renamed, and forgets every file. */
static void drop_files(void) {
  for (size_t i = 0; i < out.count; i++) {
    mip_file_discard(&out.files[i].staged);
    mip_buf_free(&out.files[i].data);
  }
  free(out.files);
  out.files = NULL;
  out.count = 0;
  out.report_path = NULL;
}

int output_commit(struct mip_error *err) {
  /* A temporary file must not outlive an interrupted commit. */
  sigset_t ending, old;
  sigemptyset(&ending);
  sigaddset(&ending, SIGINT);
  sigaddset(&ending, SIGTERM);
  sigaddset(&ending, SIGHUP);
  sigaddset(&ending, SIGPIPE);
  sigprocmask(SIG_BLOCK, &ending, &old);
  struct mip_buf report = {0};
  int rc = take_report(&report, err);
  if (rc == 0 && out.report_path)
    output_file(out.report_path, &report);
  if (rc == 0)
    rc = stage_all(err);
  if (rc == 0 && !out.report_path)
    rc = write_stdout(&report, err);
  if (rc == 0)
    rc = rename_all(err);
  drop_files();
  mip_buf_free(&report);
  sigprocmask(SIG_SETMASK, &old, NULL);
  return rc;
}

void output_discard(void) {
  __fpurge(stdout); /* what stdio holds of the report goes too */
  clearerr(stdout);
  stop_capturing();
  drop_files();
}

int output_run(int (*command)(int argc, char **argv), int argc, char **argv) {
  struct mip_error err;
  if (output_begin(&err))
    return report(&err);
  int rc = command(argc, argv);
  if (rc != 0)
    output_discard();
  else if (output_commit(&err))
    rc = report(&err);
  return rc;
}
