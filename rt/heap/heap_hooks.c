/*
 * What instrumented code calls (mode heap; docs/heap.md): after each
 * allocation and before each deallocation, with the call site's byte in
 * the image's __mip_site section, which is set to 1 (site coverage). The
 * call stack is taken here, in the caller's image, starting at this
 * function's own return address, and everything else goes to the owner
 * of the process's heap state (heap_owner.c).
 *
 * Each hook keeps errno (a program may look at it after a failed
 * allocation): nothing on their way can change it but the calls of the
 * slow paths (starting the runtime, a thread's first walk, a table that
 * grows), and those keep it themselves. Each has a frame of its own,
 * never left by a tail call, since the walk starts from it.
 */
#include "heap.h"
#include "heap_hooks.h"

#define HOOK MIP_RT_HIDDEN __attribute__((noinline, disable_tail_calls))
/* What a hook does past its first checks, out of line: the hook itself
 * then keeps no register across a call, and what a sampled run does for
 * most blocks (the countdown, a free without a mark) is done before any
 * is saved. The walk still starts at the hook's frame (fp), which stays
 * while the call runs. */
#define SLOW static __attribute__((noinline))

/* A block the countdown did not pass over (sampled: heap_sample, which
 * every image reads alike once started, mip_rt_heap_sample_passes): it
 * reached the sample point, and is drawn and recorded, or (the thread's
 * first) not. Unsampled, every block. */
SLOW void born(void *p, uint64_t size, uint8_t *site, const void *fp,
               uint32_t block_flags) {
  uint64_t rate = mip_rt_heap_sample_option;
  if (__builtin_expect(rate != 0, 0)) {
    if (!mip_rt_heap_sample_slow(rate, size))
      return;
    block_flags |= MIP_RT_HEAP_CHOSEN;
  }
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (!o)
    return;
  mip_rt_heap_just_freed = 0;
  o->alloc(p, size, (uintptr_t)site, fp, mip_rt_heap_depth, block_flags);
}

HOOK void __mip_heap_alloc(void *p, uint64_t size, uint8_t *site) {
  *site = 1;
  if (p && !mip_rt_heap_sample_passes(size))
    born(p, size, site, __builtin_frame_address(0), 0);
}

HOOK void __mip_heap_alloc_str(void *p, uint8_t *site) {
  *site = 1;
  uint64_t size;
  if (p && !mip_rt_heap_sample_passes(size = mip_rt_strlen(p) + 1))
    born(p, size, site, __builtin_frame_address(0), 0);
}

HOOK void __mip_heap_alloc_at(void **out, int result, uint64_t size,
                              uint8_t *site) {
  *site = 1;
  if (result == 0 && out && *out && !mip_rt_heap_sample_passes(size))
    born(*out, size, site, __builtin_frame_address(0), 0);
}

/* A realloc of a block the owner may hold (see below). */
SLOW void reallocated(void *old, void *p, uint64_t size, uint8_t *site,
                      const void *fp) {
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (o && !p) {
    o->free(old);
  } else if (o) {
    mip_rt_heap_just_freed = 0;
    o->realloc(old, p, size, (uintptr_t)site, fp, mip_rt_heap_depth);
  }
}

/* After realloc or reallocarray: when p is not NULL, old dies (unless the
 * interposed realloc closed it already) and p is born in the context of
 * the block it came from (as DHAT counts it), or in this call's when MIP
 * never saw old; p NULL with size 0 freed old; p NULL otherwise changed
 * nothing. realloc(NULL, n) is an allocation, as the owner's realloc
 * would make it. Sampled, so is a realloc of an old block that was not
 * recorded (no mark, and not the one the interposed realloc just moved):
 * p is a block of this call's, with its own chance, as the owner's
 * realloc would make it, and the owner is not asked. */
HOOK void __mip_heap_realloc(void *old, void *p, uint64_t size,
                             uint8_t *site) {
  *site = 1;
  if (!old) {
    if (p && !mip_rt_heap_sample_passes(size))
      born(p, size, site, __builtin_frame_address(0), 0);
    return;
  }
  int untracked = mip_rt_heap_sample_untracked((uintptr_t)old) &&
                  (uintptr_t)old != mip_rt_heap_moved_from;
  if (!p) { /* failed (size not 0: nothing changed), or freed old */
    if (!size && !untracked)
      reallocated(old, p, size, site, __builtin_frame_address(0));
    return;
  }
  if (!untracked)
    reallocated(old, p, size, site, __builtin_frame_address(0));
  else if (!mip_rt_heap_sample_passes(size))
    born(p, size, site, __builtin_frame_address(0), MIP_RT_HEAP_REALLOC);
}

/* A free in instrumented code that the owner may have to close. A free of
 * a pointer MIP never saw (a ghost free) is counted, and its stack walked
 * from fp. */
SLOW void freed(void *p, uint8_t *site, const void *fp) {
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (o && !o->free(p)) {
    __atomic_fetch_add(&mip_rt_heap_unseen_frees, 1, __ATOMIC_RELAXED);
    o->ghost((uintptr_t)site, fp, mip_rt_heap_depth);
  }
}

HOOK void __mip_heap_free(void *p, uint8_t *site) {
  *site = 1;
  if (!p)
    return;
  /* The free that follows need not look for it again (with no owner,
   * there is nothing to look for). Set first, so that p need not be kept
   * across the calls: a signal handler's free of another block in
   * between clears it, and the free then only looks again. */
  mip_rt_heap_just_freed = (uintptr_t)p;
  /* Sampled, a pointer without a mark was not recorded: nothing to do. */
  if (!mip_rt_heap_sample_untracked((uintptr_t)p))
    freed(p, site, __builtin_frame_address(0));
}

/* memcpy, memmove (each range) and memset: one access to each granule.
 * No owner needed, only the shadow. */
HOOK void __mip_heap_access_range(const void *p, uint64_t size) {
  if (!size || mip_rt_heap_touch_fast((uintptr_t)p, size))
    return;
  mip_rt_heap_start(NULL);
  if (mip_rt_heap_shadow_present())
    mip_rt_heap_shadow_touch(MIP_RT_HEAP_SHADOW_OFFSET, (uintptr_t)p, size);
}
