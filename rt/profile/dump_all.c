/*
 * mip_dump(), the one public entry point (declared in mip/mip.h): every
 * image's profile written at once. It reaches the other images' runtimes
 * through their notes (note.c), so it works from any copy, whichever
 * image the caller is in. Everything here may run in a signal handler: no
 * stdio, no malloc.
 *
 * A member of libmip_rt.a of its own, linked only into an image that asks
 * for it: an instrumented object that refers to mip_dump also refers to
 * MIP_RT_DUMP_SYMBOL (include/mip/link.h), and the heap runtime uses the
 * list of objects below. An image without it still has its note and
 * descriptor (note.c), so another image's mip_dump writes its profile.
 *
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
#include <errno.h>
#include <link.h>

#include "mip/link.h"
#include "sys.h"

/* What an instrumented object that calls mip_dump refers to. */
MIP_RT_HIDDEN const char mip_rt_dump_anchor __asm__(MIP_RT_DUMP_SYMBOL) = 1;

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

/* The runtimes of the loaded images, gathered first: each dump runs with
 * the loader's lock released (a heap dump waits for table locks, whose
 * holders may themselves wait for the loader's lock, in a signal handler
 * that dumps). Up to DUMP_BATCH at a time, from object index from on. */
#define DUMP_BATCH 32

struct gather {
  struct mip_rt_descriptor found[DUMP_BATCH];
  size_t count;
  size_t from, index; /* objects to skip, objects seen */
};

static int gather_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct gather *g = arg;
  if (g->index++ < g->from)
    return 0;
  if (mip_rt_find_descriptor(info, &g->found[g->count]))
    g->count++;
  return g->count == DUMP_BATCH; /* full: the rest next time */
}

/* Default visibility: the one symbol the runtime exports. Any image's copy
 * will do, since each writes every image's profile. */
__attribute__((visibility("default"))) int mip_dump(void);

/* Set while a mip_dump() of this copy is under way. A second call meanwhile,
 * from another thread or from a signal handler that interrupted the first,
 * returns at once: the dump under way writes the same files, and dumps
 * that queued up behind each other (a timer that fires faster than a dump
 * takes on a loaded machine) would leave the program no time to run. */
static int dumping;

int mip_dump(void) {
  if (__atomic_exchange_n(&dumping, 1, __ATOMIC_ACQUIRE))
    return -1;
  int saved = errno;
  int rc = 0;
  for (size_t from = 0;;) {
    struct gather g = {.from = from};
    int more = mip_rt_each_object(gather_object, &g);
    for (size_t i = 0; i < g.count; i++)
      if (g.found[i].dump() != 0)
        rc = -1;
    if (!more)
      break;
    from = g.index;
  }
  errno = saved;
  __atomic_store_n(&dumping, 0, __ATOMIC_RELEASE);
  return rc;
}
