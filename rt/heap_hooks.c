/*
 * What instrumented code calls (mode heap; docs/heap.md): after each
 * allocation and before each deallocation, with the call site's byte in
 * the image's __mip_site section, which is set to 1 (site coverage). The
 * call stack is taken here, in the caller's image, starting at this
 * function's own return address, and everything else goes to the owner
 * of the process's heap state (heap_owner.c).
 *
 * Each hook keeps errno (a program may look at it after a failed
 * allocation) and has a frame of its own, never left by a tail call,
 * since the walk starts from it.
 */
#include <errno.h>

#include "heap.h"

#define HOOK MIP_RT_HIDDEN __attribute__((noinline, disable_tail_calls))

static void born(void *p, uint64_t size, uint8_t *site, const void *fp,
                 uint32_t block_flags) {
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (!o)
    return;
  mip_rt_heap_just_freed = 0;
  uintptr_t frames[MIP_RT_HEAP_DEPTH_MAX];
  uint32_t flags;
  uint32_t depth = mip_rt_heap_unwind(fp, frames, mip_rt_heap_depth, &flags);
  o->alloc(p, size, (uintptr_t)site, frames, depth, flags, block_flags);
}

/* Closes the block at p; whether there was one. */
static int dies(const struct mip_rt_heap_ops *o, void *p) {
  struct mip_rt_heap_taken t;
  if (!o->take(p, &t))
    return 0;
  o->settle(&t, 1);
  return 1;
}

HOOK void __mip_heap_alloc(void *p, uint64_t size, uint8_t *site) {
  *site = 1;
  if (!p)
    return;
  int saved = errno;
  born(p, size, site, __builtin_frame_address(0), 0);
  errno = saved;
}

HOOK void __mip_heap_alloc_str(void *p, uint8_t *site) {
  *site = 1;
  if (!p)
    return;
  int saved = errno;
  born(p, mip_rt_strlen(p) + 1, site, __builtin_frame_address(0), 0);
  errno = saved;
}

HOOK void __mip_heap_alloc_at(void **out, int result, uint64_t size,
                              uint8_t *site) {
  *site = 1;
  if (result != 0 || !out || !*out)
    return;
  int saved = errno;
  born(*out, size, site, __builtin_frame_address(0), 0);
  errno = saved;
}

/* After realloc or reallocarray: when p is not NULL, old dies (unless the
 * interposed realloc closed it already) and p is born in the context of
 * the block it came from (as DHAT counts it), or in this call's when MIP
 * never saw old; p NULL with size 0 freed old; p NULL otherwise changed
 * nothing. */
HOOK void __mip_heap_realloc(void *old, void *p, uint64_t size,
                             uint8_t *site) {
  *site = 1;
  if (!p && size)
    return;
  int saved = errno;
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (o && !p) {
    dies(o, old);
  } else if (o) {
    mip_rt_heap_just_freed = 0;
    uintptr_t frames[MIP_RT_HEAP_DEPTH_MAX];
    uint32_t flags;
    uint32_t depth = mip_rt_heap_unwind(__builtin_frame_address(0), frames,
                                        mip_rt_heap_depth, &flags);
    o->realloc(old, p, size, (uintptr_t)site, frames, depth, flags);
  }
  errno = saved;
}

HOOK void __mip_heap_free(void *p, uint8_t *site) {
  *site = 1;
  if (!p)
    return;
  int saved = errno;
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (o) {
    if (!dies(o, p))
      __atomic_fetch_add(&mip_rt_heap_unseen_frees, 1, __ATOMIC_RELAXED);
    /* The free that follows need not look for it again. */
    mip_rt_heap_just_freed = (uintptr_t)p;
  }
  errno = saved;
}

/* memcpy, memmove (each range) and memset: one access to each granule.
 * No owner needed, only the shadow. */
HOOK void __mip_heap_access_range(const void *p, uint64_t size) {
  if (!size)
    return;
  mip_rt_heap_start(NULL);
  if (mip_rt_heap_shadow_present())
    mip_rt_heap_shadow_touch(MIP_RT_HEAP_SHADOW_OFFSET, (uintptr_t)p, size);
}
