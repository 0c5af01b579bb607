/*
 * What the fork programs of test/e2e/hangs.sh share: waiting for their
 * children with a deadline, so that a child that hangs fails the test
 * rather than hanging it.
 */
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How many children exited with status 0 within deadline seconds, out of
 * the n expected. */
static int exited_within(int n, int deadline) {
  int exited = 0;
  time_t until = time(NULL) + deadline;
  while (exited < n && time(NULL) < until) {
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0)
      exited += WIFEXITED(status) && WEXITSTATUS(status) == 0;
    else
      usleep(1000);
  }
  return exited;
}
