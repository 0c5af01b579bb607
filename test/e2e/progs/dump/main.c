/*
 *   dumper MODE
 *     exit      work, return normally
 *     dump      work, mip_dump(), _exit(0)
 *     libdump   work, mip_dump() called inside the library, _exit(0)
 *     twice     work, mip_dump(), work, mip_dump(), _exit(0)
 *     signal    work, raise(SIGUSR1) whose handler calls mip_dump, _exit(0)
 * "work" is step() 4 times in the program and lib_step() 3 times (through
 * lib_work). Prints "dump N errno E" after each dump: its result and
 * whether errno (set to 1234 before) survived. Built without MIP (and
 * without the library, -DNO_LIB) it prints "no mip_dump".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mip/mip.h>

#ifndef NO_LIB
#include "lib.h"
#endif

static volatile int sink;
static volatile int from_handler = 99;

__attribute__((noinline)) void step(void) { sink++; }

static void work(void) {
  for (int i = 0; i < 4; i++)
    step();
#ifndef NO_LIB
  sink += lib_work(3);
#endif
}

static void report(int rc) {
  int e = errno;
  printf("dump %d errno %d\n", rc, e);
  fflush(stdout);
}

static int dump(void) {
  errno = 1234;
  return mip_dump();
}

static void on_signal(int sig) {
  (void)sig;
  int saved = errno;
  from_handler = mip_dump();
  errno = saved;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "exit";
  if (!mip_dump) {
    puts("no mip_dump");
    return 0;
  }
  work();
  if (strcmp(mode, "exit") == 0)
    return 0;
  if (strcmp(mode, "dump") == 0 || strcmp(mode, "twice") == 0) {
    report(dump());
    if (strcmp(mode, "twice") == 0) {
      work();
      report(dump());
    }
  }
#ifndef NO_LIB
  if (strcmp(mode, "libdump") == 0) {
    errno = 1234;
    report(lib_dump());
  }
#endif
  if (strcmp(mode, "signal") == 0) {
    signal(SIGUSR1, on_signal);
    errno = 1234;
    raise(SIGUSR1);
    report(from_handler);
  }
  _exit(0);
}
