/* Preloaded by test/e2e/pool.sh: once a thread has locked (flock) a file
 * whose name contains $POOL_STALL_ON (the pooled file, which the runtime
 * locks, merges into a temporary file and renames that onto while it
 * holds the lock), that thread's next rename creates $POOL_STALL_MARKER
 * and stops there for ever, so that the test can kill the process with
 * SIGKILL while it holds the lock, its merged file written.
 *
 * The runtime makes its system calls itself, not through libc, so the
 * rename is caught with a seccomp filter on the locking thread (SIGSYS),
 * not by interposing rename. Other threads and processes are untouched. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void stall(int sig) {
  (void)sig;
  close(open(getenv("POOL_STALL_MARKER"), O_WRONLY | O_CREAT, 0644));
  for (;;)
    pause();
}

static int names_stall_file(int fd) {
  const char *stall_on = getenv("POOL_STALL_ON");
  char link[64], name[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, name, sizeof name - 1);
  if (!stall_on || n <= 0)
    return 0;
  name[n] = '\0';
  return strstr(name, stall_on) != NULL;
}

/* From now on, a rename by this thread raises SIGSYS instead. */
static void trap_renames(void) {
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef SYS_rename
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rename, 3, 0),
#else
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_renameat, 3, 0),
#endif
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_renameat, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_renameat2, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
  };
  struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
  signal(SIGSYS, stall);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
    perror("stall.so: seccomp");
}

int flock(int fd, int operation) {
  int (*next)(int, int) = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
  int rc = next(fd, operation);
  if (rc == 0 && (operation & LOCK_EX) && names_stall_file(fd))
    trap_renames();
  return rc;
}
