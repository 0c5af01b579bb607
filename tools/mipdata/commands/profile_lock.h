/* Exclusive access to the indexed profiles a command updates, so that
 * merges into one profile from parallel jobs all count. */
#ifndef MIPDATA_PROFILE_LOCK_H
#define MIPDATA_PROFILE_LOCK_H

#include <stddef.h>

#include "mipfmt.h"

struct profile_locks {
  int *fds; /* one per profile, -1 when not held */
  size_t count;
};

/* Waits until this process alone may read and replace each of paths
 * (flock on the file itself; see profile_lock.c). A path that cannot be
 * opened is left to the reader, which says why. */
int profile_locks_take(struct profile_locks *locks, const char *const *paths,
                       size_t count, struct mip_error *err);
/* Lets the next one in; after the profiles are replaced, or not. */
void profile_locks_release(struct profile_locks *locks);

#endif
