/* The one way the runtime speaks: a line on stderr, to the stderr the
 * program started with only. Apart from util.c's helpers, which keep no
 * state: what the runtime keeps of a process stays in the core
 * (rt/build.mk). */
#include <signal.h>
#include <stdarg.h>
#include <unistd.h>

#include "sys.h"

/* The stderr the program started with: a program started with fd 2 closed
 * may open a data file that gets fd 2, and may point fd 2 elsewhere on
 * purpose; a line from the runtime must never land in such a file. */
static struct {
  int state; /* 0: not looked at yet, 1: open, 2: closed at start */
  dev_t dev;
  ino_t ino;
} started_stderr;

void mip_rt_stderr_init(void) {
  if (started_stderr.state)
    return;
  struct stat st;
  if (mip_sys_fstat(STDERR_FILENO, &st) == 0) {
    started_stderr.dev = st.st_dev;
    started_stderr.ino = st.st_ino;
    started_stderr.state = 1;
  } else {
    started_stderr.state = 2;
  }
}

/* Whether fd 2 is still the stderr the program started with. */
static int stderr_is_ours(void) {
  mip_rt_stderr_init();
  struct stat st;
  return started_stderr.state == 1 && mip_sys_fstat(STDERR_FILENO, &st) == 0 &&
         st.st_dev == started_stderr.dev && st.st_ino == started_stderr.ino;
}

void mip_rt_report_parts(const char *const *parts) {
  char line[MIP_RT_PATH_MAX + 256];
  size_t n = mip_rt_append(line, 0, sizeof line - 1, "mip: ");
  for (; *parts; parts++)
    n = mip_rt_append(line, n, sizeof line - 1, *parts);
  if (n > sizeof line - 2)
    n = sizeof line - 2;
  line[n++] = '\n';
  if (stderr_is_ours()) {
    /* stderr may be a file at the size limit */
    struct mip_rt_xfsz guard;
    mip_rt_xfsz_block(&guard);
    mip_sys_write(STDERR_FILENO, line, n);
    mip_rt_xfsz_unblock(&guard);
  }
}
