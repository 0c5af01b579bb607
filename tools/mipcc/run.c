/*
 * Running the commands. Normally mipcc replaces itself with the compiler
 * (exec), so the compiler's exit status, signals and output are the
 * command's own. A link with -fmip-order needs a temporary ordering file,
 * which has to be removed once the link is over: then mipcc runs mipdata
 * and the compiler as children, waits for each, removes the file, and
 * ends the way the compiler ended (the same exit status, or death by the
 * same signal).
 *
 * The file is removed on every path: at exit (atexit, which die() goes
 * through too), and before dying of a signal. A SIGINT, SIGTERM, SIGHUP
 * or SIGQUIT that reaches mipcc while a child runs is passed on to the
 * child, and mipcc ends as the child then does.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mipcc.h"

static const int watched[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define WATCHED (sizeof watched / sizeof *watched)

static char *temp_path;                 /* to remove; NULL when none */
static volatile sig_atomic_t child;     /* the running child, 0 when none */
static volatile sig_atomic_t caught;    /* a watched signal mipcc got */

static void remove_temp(void) {
  if (temp_path) {
    unlink(temp_path);
    temp_path = NULL;
  }
}

static void on_signal(int sig) {
  caught = sig;
  if (child > 0)
    kill((pid_t)child, sig);
}

static void watched_set(sigset_t *set) {
  sigemptyset(set);
  for (size_t i = 0; i < WATCHED; i++)
    sigaddset(set, watched[i]);
}

/* Removes the temporary file and dies of sig (or exits 128+sig). */
static _Noreturn void die_of(int sig) {
  remove_temp();
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  _exit(128 + sig);
}

char *temp_file(const char *stem) {
  /* From here on a watched signal does not end mipcc at once: it is
   * noted (and passed on to a running child), so the file is removed. */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < WATCHED; i++)
    sigaction(watched[i], &sa, NULL);

  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  char *path = xconcat(dir, "/", stem, ".XXXXXX", NULL);
  sigset_t block, old;
  watched_set(&block);
  sigprocmask(SIG_BLOCK, &block, &old);
  int fd = mkstemp(path);
  if (fd >= 0) {
    temp_path = path;
    atexit(remove_temp);
  }
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (fd < 0)
    die("cannot create a temporary file in %s: %s", dir, strerror(errno));
  close(fd);
  if (caught)
    die_of(caught);
  return path;
}

static void exec_command(const char *const *cmd) {
  /* execv's prototype predates const; the strings are not modified. */
  char *const *argv = (char *const *)cmd;
  if (strchr(cmd[0], '/'))
    execv(cmd[0], argv);
  else
    execvp(cmd[0], argv);
}

_Noreturn void run_exec(const char *const *cmd) {
  exec_command(cmd);
  die("cannot run %s: %s", cmd[0], strerror(errno));
}

int run_wait(const char *const *cmd, bool quiet) {
  sigset_t block, old;
  watched_set(&block);
  sigprocmask(SIG_BLOCK, &block, &old);
  if (caught)
    die_of(caught); /* nothing new starts once mipcc is told to stop */
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    die("cannot start %s: %s", cmd[0], strerror(errno));
  if (pid == 0) {
    /* The child: default signal handling, as if mipcc had exec'd it. */
    for (size_t i = 0; i < WATCHED; i++)
      signal(watched[i], SIG_DFL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (quiet) {
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0 && null != STDOUT_FILENO) {
        dup2(null, STDOUT_FILENO);
        close(null);
      }
    }
    exec_command(cmd);
    /* Not die(): exit() would run the parent's atexit cleanup here. */
    fprintf(stderr, "%s: cannot run %s: %s\n", mipcc_name, cmd[0],
            strerror(errno));
    _exit(1);
  }
  child = pid;
  sigprocmask(SIG_SETMASK, &old, NULL);
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      child = 0;
      die("cannot wait for %s: %s", cmd[0], strerror(errno));
    }
  }
  child = 0;
  return status;
}

_Noreturn void exit_like(int status) {
  if (WIFSIGNALED(status))
    die_of(WTERMSIG(status));
  exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}
