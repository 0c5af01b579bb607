/*
 * Calling contexts by frame-pointer walking: frame [fp] holds the
 * caller's frame pointer, [fp + 8] the return address into the caller.
 * Code built in heap mode keeps its frame pointers (mipcc adds
 * -fno-omit-frame-pointer); code that does not (a library built without
 * them) leaves anything in rbp, so every step is checked before it is
 * followed: the next frame must be 8-byte aligned, above the current one,
 * and inside the current thread's stack, whose bounds each thread looks
 * up once (pthread_getattr_np) and keeps in a TLS slot. A bad link ends
 * the stack there; it cannot make the walk read outside the stack.
 */
#include <pthread.h>

#include "heap.h"

struct bounds {
  uintptr_t lo, hi; /* hi == 0: not looked up yet; lo == hi: unknown */
};

static __thread struct bounds stack;

static struct bounds *thread_stack(void) {
  struct bounds *b = &stack;
  if (!b->hi) {
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
  }
  return b;
}

uint32_t mip_rt_heap_unwind(const void *fp, uintptr_t *frames, uint32_t limit,
                            uint32_t *flags) {
  const uintptr_t *f = fp;
  uint32_t n = 0;
  *flags = 0;
  frames[n++] = f[1];
  const struct bounds *b = thread_stack();
  if (b->hi - b->lo < 16 || (uintptr_t)f < b->lo ||
      (uintptr_t)f > b->hi - 16)
    return n; /* bounds unknown, or on another stack (a signal stack, a
                 coroutine's) */
  for (;;) {
    uintptr_t next = f[0];
    if (next <= (uintptr_t)f || (next & 7) || next > b->hi - 16)
      break;
    f = (const uintptr_t *)next;
    if (!f[1])
      break;
    if (n == limit) {
      *flags |= MIP_RT_HEAP_TRUNCATED;
      break;
    }
    frames[n++] = f[1];
  }
  return n;
}
