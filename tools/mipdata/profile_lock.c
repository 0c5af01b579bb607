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
 * file that is no longer the profile: it checks that the path still
 * names the inode it locked, and starts over if not. Locks are taken in
 * the order of the files' (device, inode), so merges naming the same
 * profiles in another order, or under other names, cannot deadlock; a
 * replaced file met on the way releases them all and starts over.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_lock.h"

struct lock_order {
  size_t index;
  dev_t dev;
  ino_t ino;
};

static int by_inode(const void *a, const void *b) {
  const struct lock_order *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  if (x->ino != y->ino)
    return x->ino < y->ino ? -1 : 1;
  return 0;
}

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

static int flock_waiting(int fd) {
  int rc;
  do
    rc = flock(fd, LOCK_EX);
  while (rc != 0 && errno == EINTR);
  return rc;
}

/* One pass: 1 when every profile is locked as it is now, 0 when one was
 * replaced meanwhile (all released again), -1 on an error. */
static int try_all(struct profile_locks *locks, const char *const *paths,
                   struct mip_error *err) {
  struct lock_order *order = mip_xcalloc(locks->count, sizeof *order);
  size_t n = 0;
  for (size_t i = 0; i < locks->count; i++) {
    struct stat st;
    if (stat(paths[i], &st) != 0)
      continue; /* the read says why */
    order[n++] = (struct lock_order){i, st.st_dev, st.st_ino};
  }
  qsort(order, n, sizeof *order, by_inode);
  int rc = 1;
  for (size_t k = 0; rc == 1 && k < n; k++) {
    size_t i = order[k].index;
    if (k && !by_inode(&order[k], &order[k - 1]))
      continue; /* the same file under two names: locked once */
    int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue; /* the read says why */
    locks->fds[i] = fd;
    if (flock_waiting(fd) != 0) {
      rc = mip_fail(err, paths[i], "cannot lock: %s", strerror(errno));
    } else if (!still_names(paths[i], fd)) {
      rc = 0; /* replaced while waiting: start over */
    }
  }
  free(order);
  if (rc != 1)
    close_all(locks);
  return rc;
}

int profile_locks_take(struct profile_locks *locks, const char *const *paths,
                       size_t count, struct mip_error *err) {
  locks->count = count;
  locks->fds = mip_xcalloc(count, sizeof *locks->fds);
  for (;;) {
    for (size_t i = 0; i < count; i++)
      locks->fds[i] = -1;
    int rc = try_all(locks, paths, err);
    if (rc == 1)
      return 0;
    if (rc < 0) {
      profile_locks_release(locks);
      return -1;
    }
  }
}

void profile_locks_release(struct profile_locks *locks) {
  if (locks->fds)
    close_all(locks);
  free(locks->fds);
  locks->fds = NULL;
  locks->count = 0;
}
