/*
 * Calling contexts by frame-pointer walking: frame [fp] holds the
 * caller's frame pointer, [fp + 8] the return address into the caller.
 * Code built in heap mode keeps its frame pointers (mipcc adds
 * -fno-omit-frame-pointer); code that does not (a library built without
 * them) leaves anything in rbp, so every step is checked before it is
 * followed: the next frame must be word-aligned, above the current one,
 * and inside the current thread's stack, whose bounds each thread looks
 * up once (pthread_getattr_np) and keeps in a TLS slot. A bad link ends
 * the stack there; it cannot make the walk read outside the stack.
 *
 * Every frame a walk visits is recorded, both its words, for the
 * thread's recent walks (heap_recent.c), which can tell without walking
 * that the same walk would find the same stack. (A walk that stops at a
 * frame reads one of its words only, but the other is inside the stack
 * too, or in the hook's own frame.)
 */
#include <errno.h>
#include <pthread.h>

#include "heap.h"

__thread struct mip_rt_heap_bounds mip_rt_heap_stack_bounds;

const struct mip_rt_heap_bounds *mip_rt_heap_thread_stack_slow(void) {
  struct mip_rt_heap_bounds *b = &mip_rt_heap_stack_bounds;
  if (!b->hi) {
    int saved = errno; /* pthread_getattr_np reads /proc, may set it */
    pthread_attr_t attr;
    void *addr;
    size_t size;
    uintptr_t lo = 1, hi = 1;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        lo = (uintptr_t)addr;
        hi = lo + size;
      }
      pthread_attr_destroy(&attr);
    }
    b->lo = lo;
    b->hi = hi;
    errno = saved;
  }
  return b;
}

static void keep(uintptr_t (*visited)[2], uint32_t i, const uintptr_t *f) {
  if (visited && i < MIP_RT_HEAP_RECENT_FRAMES) {
    visited[i][0] = f[0];
    visited[i][1] = f[1];
  }
}

/* The stack is hashed as it is walked: the walk waits on each frame's
 * load before it can take the next, and the hash's multiplies fill that
 * wait. */
uint32_t mip_rt_heap_unwind(const void *fp, struct mip_rt_heap_stack *s,
                            uint32_t limit) {
  const uintptr_t *f = fp;
  const struct mip_rt_heap_bounds *b = mip_rt_heap_thread_stack();
  uintptr_t(*visited)[2] = mip_rt_heap_recent_record(fp, limit, s);
  uint64_t lane[2] = MIP_RT_HEAP_HASH_START;
  uint32_t n = 0, seen = 0, flags = 0;
  uintptr_t ret = f[1] & ~(uintptr_t)MIP_RT_THUMB_BIT;
  keep(visited, seen++, f);
  s->frames[n++] = ret;
  mip_rt_heap_hash_step(lane, ret);
  if (mip_rt_heap_start_ok(b, (uintptr_t)f)) {
    for (;;) {
      uintptr_t next = f[0];
      if (!mip_rt_heap_next_ok(b, (uintptr_t)f, next))
        break;
      f = (const uintptr_t *)next;
      /* (without Thumb's bit 0: the address after the call, whose
       * symbolizer looks one byte before) */
      ret = f[1] & ~(uintptr_t)MIP_RT_THUMB_BIT;
      keep(visited, seen++, f);
      if (!ret)
        break;
      if (n == limit) {
        flags = MIP_RT_HEAP_TRUNCATED;
        break;
      }
      s->frames[n++] = ret;
      mip_rt_heap_hash_step(lane, ret);
    }
  }
  s->depth = n;
  s->flags = flags;
  s->hash = mip_rt_heap_hash_end(lane, n, flags);
  mip_rt_heap_recent_recorded(s, seen);
  return n;
}
