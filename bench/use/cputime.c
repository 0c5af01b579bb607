/*
 * bench/use/cputime.c: runs a program once and prints the processor time
 * it took, for `make bench-use` (compile times).
 *
 *   cputime LOG PROGRAM [ARGS...]
 *
 * The program's standard output and error go to LOG (truncated). Prints
 * one line, "user_us sys_us wall_us": the user and system time of the
 * child and of every descendant it waited for (wait4; clang's driver runs
 * cc1 in its own process unless it is integrated), and the time from fork
 * to the reaped child. Exits with the program's status (128 + the signal
 * if it was killed), printing nothing when that is not 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long us(struct timeval tv) {
  return (long)tv.tv_sec * 1000000L + (long)tv.tv_usec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: cputime LOG PROGRAM [ARGS...]\n");
    return 2;
  }
  int log = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (log < 0) {
    fprintf(stderr, "cputime: %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("cputime: fork");
    return 2;
  }
  if (pid == 0) {
    if (dup2(log, 1) < 0 || dup2(log, 2) < 0)
      _exit(127);
    close(log);
    execvp(argv[2], argv + 2);
    dprintf(2, "cputime: %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  close(log);
  int status;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      perror("cputime: wait4");
      return 2;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  if (WEXITSTATUS(status))
    return WEXITSTATUS(status);
  long wall =
      (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000L;
  printf("%ld %ld %ld\n", us(ru.ru_utime), us(ru.ru_stime), wall);
  return 0;
}
