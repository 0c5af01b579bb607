/*
 * bench/heap/rusage.c: runs a program and appends its wall time and peak
 * resident size to a log, for `make bench-heap`.
 *
 *   rusage LOG PROGRAM [ARGS...]
 *
 * Standard input, output and error are the program's; the exit status is
 * the program's (128 + the signal if it was killed). Appends one line to
 * LOG: "wall_us maxrss_kb", the time from fork to the reaped child and
 * the child's ru_maxrss from wait4. A workload of several processes
 * appends one line per process.
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

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: rusage LOG PROGRAM [ARGS...]\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid < 0) {
    perror("rusage: fork");
    return 2;
  }
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    fprintf(stderr, "rusage: %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  int status;
  struct rusage ru;
  while (wait4(pid, &status, 0, &ru) < 0) {
    if (errno != EINTR) {
      perror("rusage: wait4");
      return 2;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  long wall =
      (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000L;
  char line[64];
  int n = snprintf(line, sizeof line, "%ld %ld\n", wall, ru.ru_maxrss);
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0 || write(fd, line, (size_t)n) != n) {
    fprintf(stderr, "rusage: %s: %s\n", argv[1], strerror(errno));
    return 2;
  }
  close(fd);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
