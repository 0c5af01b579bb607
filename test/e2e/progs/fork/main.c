/*
 *   forker exit|_exit|exec   fork after some work; the child ends as named
 *   forker newenv            the child exits normally after giving itself
 *                            a new environment, as nginx's workers do
 *   forker execd             what the exec'd child runs
 * Prints "child PID" so the test knows the child's file name.
 *
 * Calls, parent:  main 1, before 3, both 2 + 4, parent_after 6
 *        child:   child_main 1, both 5, child_only 7 (nothing it ran
 *                 before the fork: that was the parent's)
 *        execd:   main 1, exec_only 9, both 1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int sink;

__attribute__((noinline)) void before(void) { sink++; }
__attribute__((noinline)) void both(void) { sink += 2; }
__attribute__((noinline)) void child_only(void) { sink += 3; }
__attribute__((noinline)) void parent_after(void) { sink += 4; }
__attribute__((noinline)) void exec_only(void) { sink += 5; }

static void times(void (*f)(void), int n) {
  for (int i = 0; i < n; i++)
    f();
}

extern char **environ;

/* A new environment, and the old one's strings written over, as
 * setproctitle does with that memory. */
static void replace_environment(void) {
  static char *fresh[] = {"TZ=UTC", NULL};
  for (char **e = environ; *e; e++)
    memset(*e, 'x', strlen(*e));
  environ = fresh;
}

__attribute__((noinline)) void child_main(const char *how, char *self) {
  if (strcmp(how, "newenv") == 0)
    replace_environment();
  times(both, 5);
  times(child_only, 7);
  if (strcmp(how, "_exit") == 0)
    _exit(0);
  if (strcmp(how, "exec") == 0) {
    setenv("MIP_PROFILE_FILE", "exec.mipraw", 1);
    execl(self, self, "execd", (char *)NULL);
    _exit(127);
  }
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "exit";
  if (strcmp(how, "execd") == 0) {
    times(exec_only, 9);
    both();
    return 0;
  }
  times(before, 3);
  times(both, 2);
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return 1;
  if (pid == 0) {
    child_main(how, argv[0]);
    return 0; /* exits normally: the child's profile is written */
  }
  printf("child %d\n", (int)pid);
  int status;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return 2;
  times(both, 4);
  times(parent_after, 6);
  return 0;
}
