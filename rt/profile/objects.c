/*
 * The loaded objects, for the writers: mip_dump() finds every image's
 * runtime through them, heap profiles record their segments.
 *
 * dl_iterate_phdr takes the dynamic loader's lock. A child forked while
 * another thread of its parent held that lock (an unwinder, a profiler, a
 * dlopen in progress) inherits it held by a thread it does not have: any
 * dl_iterate_phdr in the child waits forever, and the child would hang at
 * exit, writing its profile. So each image's runtime copies the list of
 * loaded objects right before every fork (a pthread_atfork prepare
 * handler: the parent, where the lock is released in time), and a forked
 * child walks that copy instead (the objects' headers and names it points
 * to are the child's own memory too). A child does not see what it loads
 * after the fork; its own images still write their profiles.
 *
 * The copy is in mmap'd memory, kept and grown across forks; a child that
 * forks again keeps the copy it inherited (the lock may still be held).
 */
#include <link.h>

#include "sys.h"

static struct {
  struct dl_phdr_info *objects;
  size_t count, cap;
  int taken; /* a copy was made before the last fork */
} at_fork;

static int count_one(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)info;
  (void)size;
  ++*(size_t *)arg;
  return 0;
}

static int copy_one(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)arg;
  if (at_fork.count == at_fork.cap)
    return 1; /* loaded between the two walks: not in the copy */
  struct dl_phdr_info *to = &at_fork.objects[at_fork.count++];
  *to = (struct dl_phdr_info){0};
  mip_copy_bytes((uint8_t *)to, (const uint8_t *)info,
                 size < sizeof *to ? size : sizeof *to);
  return 0;
}

/* Room for n objects, and some to spare for loads between the walks. */
static int make_room(size_t n) {
  if (n <= at_fork.cap)
    return 0;
  size_t cap = n + 16;
  void *p = mip_sys_map(cap * sizeof *at_fork.objects);
  if (!p)
    return -1;
  if (at_fork.objects)
    mip_sys_unmap(at_fork.objects, at_fork.cap * sizeof *at_fork.objects);
  at_fork.objects = p;
  at_fork.cap = cap;
  return 0;
}

void mip_rt_objects_before_fork(void) {
  if (mip_rt_forked())
    return; /* the copy this child inherited is all it may trust */
  size_t n = 0;
  dl_iterate_phdr(count_one, &n);
  at_fork.count = 0;
  at_fork.taken = make_room(n) == 0;
  if (at_fork.taken)
    dl_iterate_phdr(copy_one, NULL);
}

int mip_rt_each_object(mip_rt_object_fn fn, void *arg) {
  if (!mip_rt_forked() || !at_fork.taken)
    return dl_iterate_phdr(fn, arg);
  for (size_t i = 0; i < at_fork.count; i++) {
    int rc = fn(&at_fork.objects[i], sizeof at_fork.objects[i], arg);
    if (rc)
      return rc;
  }
  return 0;
}
