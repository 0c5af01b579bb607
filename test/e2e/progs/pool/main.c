/* The pool test program (test/e2e/pool.sh):
 *
 *   app N [dump ENV | dump2 | fork ENV]
 *
 * runs the work of run N. With "dump ENV" it then writes its profiles
 * with mip_dump() to the name MIP_PROFILE_FILE gives (the test gives
 * every run's own, %p), puts ENV (MIP_PROFILE_FILE=a pool pattern) in
 * the environment and returns, so that the exit-time write merges the
 * very same counts into the pool: nothing instrumented runs in between,
 * nothing is allocated. "fork ENV" does the same in a forked child and
 * its parent, each with work of its own; "dump2" calls mip_dump() twice
 * before returning. "forkstall" calls mip_dump() while another thread
 * waits for the file "stalled" (made when the merge stops, still holding
 * the lock: stall.c), then forks a child that makes "forked", waits for
 * its parent to die and exits. Nothing is printed: stdout's buffer would
 * be a heap block still live when the profiles are written.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mip/mip.h>

#include "lib.h"
#include "work.h"

static long run(long n) {
  long s = 0;
#ifdef OTHER_BUILD
  n += 1; /* another build of the program, for pool.sh */
#endif
  if (n % 2) {
    s += odd_path(n);
    s += even_path(n / 2);
  } else {
    s += even_path(n);
  }
  if (n % 7 == 0)
    s += rare_path(n);
  return s + heap_work(n);
}

static volatile long sink;

static void *fork_when_stalled(void *arg) {
  pid_t parent = getpid();
  (void)arg;
  while (access("stalled", F_OK) != 0)
    usleep(1000);
  if (fork() == 0) {
    unsetenv("POOL_STALL_ON");
    close(open("forked", O_WRONLY | O_CREAT, 0644));
    while (getppid() == parent)
      usleep(1000);
    exit(0);
  }
  return NULL;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1;
  const char *how = argc > 2 ? argv[2] : "";
  if (strcmp(how, "fork") == 0) {
    pid_t child = fork();
    if (child == 0) {
      sink = run(n + 1000);
      mip_dump();
      putenv(argv[3]);
      return 0;
    }
    sink = run(n);
    waitpid(child, NULL, 0);
    mip_dump();
    putenv(argv[3]);
    return 0;
  }
  sink = run(n);
  if (strcmp(how, "forkstall") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, fork_when_stalled, NULL);
    mip_dump();
  }
  if (strcmp(how, "dump") == 0) {
    mip_dump();
    putenv(argv[3]);
  } else if (strcmp(how, "dump2") == 0) {
    mip_dump();
    mip_dump();
  }
  return argc > 4 ? atoi(argv[4]) : 0;
}
