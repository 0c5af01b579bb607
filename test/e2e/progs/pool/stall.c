/* Preloaded by test/e2e/pool.sh: a rename onto a name containing
 * $POOL_STALL_ON (the pooled file, which the runtime renames its merged
 * file onto while it holds the lock) creates $POOL_STALL_MARKER and stops
 * there for ever, so that the test can kill the process with SIGKILL
 * while it holds the lock. Other renames go through. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rename(const char *from, const char *to) {
  const char *stall = getenv("POOL_STALL_ON");
  if (stall && strstr(to, stall)) {
    close(open(getenv("POOL_STALL_MARKER"), O_WRONLY | O_CREAT, 0644));
    for (;;)
      pause();
  }
  int (*next)(const char *, const char *) =
      (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
  return next(from, to);
}
