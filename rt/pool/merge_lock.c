/*
 * The lock of a pooled file: flock(LOCK_EX) on the file itself.
 *
 * flock rather than fcntl's record locks: a flock belongs to the open
 * file, so it also keeps apart two images, or two threads, of one process
 * (a record lock belongs to the process, which any of its close() calls
 * on the file would drop); the kernel releases it when its holder dies,
 * SIGKILL included. Over NFS, Linux turns flock into a lock of the whole
 * file on the server (NLM or NFSv4), so processes on different clients
 * exclude each other too, unless the file system is mounted with
 * local_lock=flock (or all): then the lock covers only one client.
 *
 * Merges replace the file (merge.c): a process that waited for the lock
 * may then hold it on a file no longer at the name, so after each lock
 * the name must still lead to the locked file, else it starts again.
 *
 * The wait is bounded (MIP_OPTIONS pool_wait, default 60 s): the lock is
 * tried without blocking, with sleeps from 1 ms doubling to 64 ms between
 * tries, so that a lock nobody releases (a stuck NFS lock, a holder
 * stopped in a debugger) costs the program that long, not its exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "merge.h"

static uint64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void sleep_ms(uint64_t ms) {
  struct timespec t = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000};
  while (nanosleep(&t, &t) != 0 && errno == EINTR)
    ;
}

static int fail_errno(struct mip_rt_why *why) {
  return mip_rt_why_set(why, strerrordesc_np(errno), NULL);
}

/* The file at path, opened for reading and writing (created empty when
 * missing). Never through a symbolic link (O_NOFOLLOW): the merge renames
 * its result over the name, which a link's target cannot have done to it
 * without a write in place, torn if the process dies meanwhile. Nor
 * another user's file in a sticky world-writable directory, which this
 * process could read runs from and replace (mip_rt_foreign_in_sticky).
 * O_NONBLOCK: a FIFO found there must not block the open. */
static int open_file(const char *path, struct mip_rt_why *why) {
  int flags = O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK;
  int fd = open(path, flags, 0644);
  if (fd < 0 && errno == ENOENT) {
    mip_rt_make_parents(path);
    fd = open(path, flags, 0644);
  }
  struct stat st;
  if (fd < 0) { /* ELOOP, or EACCES from some kernels in a sticky directory */
    int e = errno;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
      return mip_rt_why_set(why,
                            "it is a symbolic link, which a pooled file "
                            "may not be",
                            NULL);
    errno = e;
    return fail_errno(why);
  }
  const char *wrong = fstat(fd, &st) != 0    ? strerrordesc_np(errno)
                      : !S_ISREG(st.st_mode) ? "it is not a regular file"
                      : mip_rt_foreign_in_sticky(path, &st) ? MIP_RT_FOREIGN_WHY
                                                            : NULL;
  if (wrong) {
    close(fd);
    return mip_rt_why_set(why, wrong, NULL);
  }
  return fd;
}

/* Whether path still names the file open at fd (itself, not a link). */
static int still_there(const char *path, int fd) {
  struct stat a, b;
  return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

int mip_rt_pool_lock(const char *path, int wait_seconds,
                     struct mip_rt_why *why) {
  uint64_t deadline = now_ms() + 1000 * (uint64_t)wait_seconds, pause = 1;
  for (;;) {
    int fd = open_file(path, why);
    if (fd < 0)
      return -1;
    int rc;
    while ((rc = flock(fd, LOCK_EX | LOCK_NB)) != 0 &&
           (errno == EINTR || (errno == EWOULDBLOCK && now_ms() < deadline))) {
      if (errno == EWOULDBLOCK)
        sleep_ms(pause);
      pause = pause < 64 ? 2 * pause : 64;
    }
    if (rc != 0) {
      int e = errno;
      close(fd);
      if (e != EWOULDBLOCK) {
        errno = e;
        return fail_errno(why);
      }
      char digits[24];
      mip_rt_append_u64(digits, 0, sizeof digits, (uint64_t)wait_seconds);
      return mip_rt_why_set(why, "its lock was not released within ", digits,
                            " s (MIP_OPTIONS=pool_wait)", NULL);
    }
    if (still_there(path, fd))
      return fd;
    close(fd); /* replaced meanwhile: lock the file now there */
  }
}
