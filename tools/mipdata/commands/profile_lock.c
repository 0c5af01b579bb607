/*
 * Parallel merges into one profile (CI jobs, a test suite's processes)
 * must each add their runs: a merge reads the profile, adds to it in
 * memory and renames a new file over it, and two of them doing that at
 * once would each write the old runs plus their own, losing the other's.
 *
 * A merge therefore holds an exclusive flock on each profile it updates
 * from before it reads until after it has replaced it. The lock is on the
 * profile file itself, so nothing is left behind. Since a merge replaces
 * the file (a new inode), a waiter that gets the lock may hold it on a
 * file that is no longer the profile: it checks that the path still names
 * the inode it locked, and starts over if not.
 *
 * With several profiles, no merge ever waits for a lock while it holds
 * another (which, with other merges taking them in another order, could
 * deadlock; no order of files is stable when each merge replaces them):
 * it tries each lock without waiting, and when one is taken it lets go of
 * all it holds, waits for that one alone, and tries the rest again.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_lock.h"

static void close_all(struct profile_locks *locks) {
  for (size_t i = 0; i < locks->count; i++)
    if (locks->fds[i] >= 0) {
      close(locks->fds[i]); /* the lock goes with the last descriptor */
      locks->fds[i] = -1;
    }
}

/* Whether path still names the file open at fd. */
static int still_names(const char *path, int fd) {
  struct stat named, held;
  return stat(path, &named) == 0 && fstat(fd, &held) == 0 &&
         named.st_dev == held.st_dev && named.st_ino == held.st_ino;
}

/* Whether fd is a file this process already holds under another name. */
static int held_already(const struct profile_locks *locks, int fd) {
  struct stat st, other;
  if (fstat(fd, &st) != 0)
    return 0;
  for (size_t i = 0; i < locks->count; i++)
    if (locks->fds[i] >= 0 && fstat(locks->fds[i], &other) == 0 &&
        other.st_dev == st.st_dev && other.st_ino == st.st_ino)
      return 1;
  return 0;
}

static int lock(int fd, int how) {
  int rc;
  do
    rc = flock(fd, how);
  while (rc != 0 && errno == EINTR);
  return rc;
}

/* TAKEN: held now (or needs no lock of its own: the same file under
 * another name, a file the read will refuse); AGAIN: every lock held was
 * let go, or the file was replaced: look at them all again. */
enum step { TAKEN, AGAIN, FAILED };

/* Takes the lock on paths[i], waiting (with nothing else held) if another
 * merge has it. */
static enum step take_one(struct profile_locks *locks, const char *path,
                          size_t i, struct mip_error *err) {
  /* Without blocking: a FIFO's open would wait for a writer. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return TAKEN; /* the read says why */
  if (held_already(locks, fd)) {
    close(fd); /* the same file under two names: locked once */
    return TAKEN;
  }
  if (lock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) {
      close(fd);
      return mip_fail(err, path, "cannot lock: %s", strerror(errno)), FAILED;
    }
    close_all(locks);
    if (lock(fd, LOCK_EX) != 0) {
      close(fd);
      return mip_fail(err, path, "cannot lock: %s", strerror(errno)), FAILED;
    }
    if (!still_names(path, fd)) {
      close(fd); /* replaced meanwhile: the new file is the profile */
      return AGAIN;
    }
    locks->fds[i] = fd;
    return AGAIN; /* the others were let go */
  }
  if (!still_names(path, fd)) {
    close(fd);
    return AGAIN;
  }
  locks->fds[i] = fd;
  return TAKEN;
}

int profile_locks_take(struct profile_locks *locks, const char *const *paths,
                       size_t count, struct mip_error *err) {
  locks->count = count;
  locks->fds = mip_xcalloc(count, sizeof *locks->fds);
  for (size_t i = 0; i < count; i++)
    locks->fds[i] = -1;
  /* Until a pass over them all takes what is missing without letting
   * anything go. */
  for (size_t i = 0; i < count;) {
    if (locks->fds[i] >= 0) {
      i++;
      continue;
    }
    enum step s = take_one(locks, paths[i], i, err);
    if (s == FAILED) {
      profile_locks_release(locks);
      return -1;
    }
    i = s == AGAIN ? 0 : i + 1;
  }
  return 0;
}

void profile_locks_release(struct profile_locks *locks) {
  if (locks->fds)
    close_all(locks);
  free(locks->fds);
  locks->fds = NULL;
  locks->count = 0;
}
