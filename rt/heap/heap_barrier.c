/*
 * A memory barrier on every thread of the process (membarrier), for the
 * rare side of a pair whose other side runs on every block: a thread that
 * switches the state to multi (heap_timeline.c), a walk of the records
 * beside the blocks (heap_tail.c). Each side stores, then loads what the
 * other stores; on the rare side this barrier stands for the full fence
 * the common side then does without (a locked instruction, tens of
 * cycles, on every free).
 *
 * The process's own barrier (MEMBARRIER_CMD_PRIVATE_EXPEDITED: the CPUs
 * running its threads, microseconds) once registered for, else the
 * system's (MEMBARRIER_CMD_GLOBAL: a grace period, milliseconds).
 */
#include <errno.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "heap.h"

static long membarrier(int cmd) {
  int saved = errno;
  long rc = syscall(SYS_membarrier, cmd, 0, 0);
  errno = saved;
  return rc;
}

/* The commands this kernel has, 0: none (an old kernel, or an emulator
 * that does not pass the call on). Asked once: the heap state asks at
 * start, at every reset and in a forked child, and the kernel stays. */
static long commands(void) {
  static long known = -1;
  long cmds = __atomic_load_n(&known, __ATOMIC_RELAXED);
  if (cmds < 0) {
    long rc = membarrier(MEMBARRIER_CMD_QUERY);
    cmds = rc > 0 ? rc : 0;
    __atomic_store_n(&known, cmds, __ATOMIC_RELAXED);
  }
  return cmds;
}

static int registered;

int mip_rt_heap_barrier_works(void) {
  long cmds = commands();
  if ((cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      !__atomic_load_n(&registered, __ATOMIC_RELAXED) &&
      membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
    __atomic_store_n(&registered, 1, __ATOMIC_RELAXED);
  return __atomic_load_n(&registered, __ATOMIC_RELAXED) ||
         (cmds & MEMBARRIER_CMD_GLOBAL) != 0;
}

int mip_rt_heap_barrier(void) {
  if (__atomic_load_n(&registered, __ATOMIC_RELAXED)) {
    if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
      return 0;
    /* A process the registration did not come with (a fork's child, on
     * a kernel that does not keep it): again. */
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 &&
        membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
      return 0;
  }
  return membarrier(MEMBARRIER_CMD_GLOBAL) == 0 ? 0 : -1;
}
