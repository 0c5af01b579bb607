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

/* Sampled (heap_sample, which every image reads alike once started): a
 * block not chosen costs the countdown alone, not even a call to the
 * owner; nothing goes into the table, so the pointer a free hook left
 * needs no clearing either. */
static void born(void *p, uint64_t size, uint8_t *site, const void *fp,
                 uint32_t block_flags) {
  uint64_t rate = mip_rt_heap_sample_option;
  if (__builtin_expect(rate != 0, 0)) {
    if (!mip_rt_heap_sampled(rate, size))
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
  if (p)
    born(p, size, site, __builtin_frame_address(0), 0);
}

HOOK void __mip_heap_alloc_str(void *p, uint8_t *site) {
  *site = 1;
  if (p)
    born(p, mip_rt_strlen(p) + 1, site, __builtin_frame_address(0), 0);
}

HOOK void __mip_heap_alloc_at(void **out, int result, uint64_t size,
                              uint8_t *site) {
  *site = 1;
  if (result == 0 && out && *out)
    born(*out, size, site, __builtin_frame_address(0), 0);
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
  if (!old) { /* realloc(NULL, n): an allocation, as the owner's realloc
                 would make it */
    if (p)
      born(p, size, site, __builtin_frame_address(0), 0);
    return;
  }
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (o && !p) {
    o->free(old);
  } else if (o) {
    mip_rt_heap_just_freed = 0;
    o->realloc(old, p, size, (uintptr_t)site, __builtin_frame_address(0),
               mip_rt_heap_depth);
  }
}

/* A free of a pointer MIP never saw (a ghost free), from the hook whose
 * frame is fp: counted, and its stack walked. Out of line, so that the
 * hook keeps nothing but site across its call of free. */
static __attribute__((noinline, cold)) void ghost_free(uint8_t *site,
                                                       const void *fp) {
  __atomic_fetch_add(&mip_rt_heap_unseen_frees, 1, __ATOMIC_RELAXED);
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner(); /* found before */
  if (o)
    o->ghost((uintptr_t)site, fp, mip_rt_heap_depth);
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
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (o && !o->free(p))
    ghost_free(site, __builtin_frame_address(0));
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
