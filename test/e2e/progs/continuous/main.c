/*
 *   cont MODE N FIFO TRUTH [PLUGIN]
 * Does known work (setup, N steps, rare, the linked library's lib_work N
 * times; with PLUGIN, dlopens it and runs plug_run N times), writes what
 * it counted itself to TRUTH (TRUTH.lib, TRUTH.plug for the libraries),
 * then, by MODE:
 *   block   writes "ready PID" to FIFO and waits to be killed
 *   abort   calls abort()
 *   segv    crashes, storing through a null pointer
 *   exit    returns 3
 *   fork    forks halfway through the steps; the child runs child_work N
 *           and lib_work N, writes TRUTH.child, and both write "ready
 *           PID" and wait to be killed (the parent finishes its steps
 *           first)
 * FIFO is opened for writing at once (the test reads it), and kept open
 * by both processes of a fork, so that the reader never sees its end
 * before both lines.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "truth.h"
#include "work.h"

__attribute__((noinline)) static void plugin(const char *path, int n,
                                            const char *truth) {
  TALLY();
  void *plug = dlopen(path, RTLD_NOW);
  if (!plug) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    exit(1);
  }
  int (*run)(int) = (int (*)(int))dlsym(plug, "plug_run");
  void (*plug_truth)(const char *) =
      (void (*)(const char *))dlsym(plug, "plug_truth");
  if (!run || !plug_truth)
    exit(1);
  printf("plug %d\n", run(n));
  plug_truth(truth_name(truth, ".plug"));
}

int main(int argc, char **argv) {
  TALLY();
  if (argc < 5)
    return 2;
  const char *mode = argv[1], *truth = argv[4];
  int n = atoi(argv[2]);
  int fifo = strcmp(argv[3], "-") ? open(argv[3], O_WRONLY) : -1;
  int forks = strcmp(mode, "fork") == 0;
  setup();
  long s = 0;
  for (int i = 0; i < (forks ? n / 2 : n); i++)
    s += step(i);
  if (forks) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
      return 1;
    if (pid == 0) {
      truth_reset();
      printf("child %ld\n", child_work(n) + lib_work(n));
      fflush(stdout);
      truth_write(truth_name(truth, ".child"));
      truth_ready(fifo);
    }
    for (int i = n / 2; i < n; i++)
      s += step(i);
  }
  s += rare(n);
  s += lib_work(n);
  if (argc > 5)
    plugin(argv[5], n, truth);
  printf("sum %ld\n", s);
  fflush(stdout);
  truth_write(truth);
  lib_truth(truth_name(truth, ".lib"));
  if (strcmp(mode, "abort") == 0)
    abort();
  if (strcmp(mode, "segv") == 0)
    *(volatile int *)(uintptr_t)argc /* never this small */ = 0;
  if (strcmp(mode, "exit") == 0)
    return 3;
  truth_ready(fifo);
}
