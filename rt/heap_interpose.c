/*
 * free, realloc and reallocarray for the whole process, so that a block
 * allocated in instrumented code and freed or reallocated by code MIP did
 * not instrument (a library, the C++ runtime's operator delete) dies when
 * it really does.
 *
 * The public symbols are not defined here: a member of libmip_rt.a that
 * defined `free` would be pulled into every program that calls free,
 * coverage-only ones included, since the linker takes an archive member
 * for any undefined symbol it defines. Instead mipcc links into every
 * image with heap code an object (rt/interpose/) with weak definitions of
 * free, realloc and reallocarray that jump here (default visibility in an
 * executable, hidden in a shared library), and __mip_heap_interpose,
 * which tells the runtime the image is a heap image (docs/heap.md has the
 * assembly). Weak: a program that defines its own free keeps it (and the
 * hooks alone see its instrumented frees).
 *
 * Each forwards to the next definition in the lookup order
 * (dlsym(RTLD_NEXT)) or, in a shared library, whose interposed functions
 * are hidden, to the one the library would have used without them
 * (dlsym(RTLD_DEFAULT)), looked up from the image's constructor or at the
 * first call. dlsym may itself free (or realloc) while it looks: a free
 * arriving then, on the looking thread, is kept and done once the real
 * one is known; a realloc then goes to glibc's __libc_realloc.
 *
 * free: the block leaves the table before the real free, so that no other
 * thread can be handed the same address first. An instrumented free has
 * closed its block already (its hook runs before the call) and said so in
 * mip_rt_heap_just_freed: this one then does not look for it again.
 * Otherwise it looks and, finding nothing, says nothing: it sees every
 * free of the process, libc's own included, so a pointer it never saw is
 * no news. realloc: the
 * old block is taken out (its counters summed) before the real realloc,
 * and dies only if that succeeded (or the size was 0, which frees it);
 * otherwise it goes back. The new block is born only in the hook, where
 * instrumented code reallocated, into the context of the block it moved
 * from (the owner remembers it for the thread); a realloc by code MIP did
 * not instrument returns a block MIP does not follow.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "heap.h"

typedef void (*free_fn)(void *);
typedef void *(*realloc_fn)(void *, size_t);
typedef void *(*reallocarray_fn)(void *, size_t, size_t);

/* 1 in shared libraries, whose interposer (rt/interpose/) defines it so:
 * their free is hidden, the library's own, so the real one is the one the
 * global lookup finds, RTLD_DEFAULT's; RTLD_NEXT's, the next after the
 * library, would skip an allocator that the executable or a preloaded
 * library defines, and free its blocks with libc's. An executable's free
 * is the process's: the real one comes next. A weak definition, not a
 * weak reference: gold resolves an undefined hidden weak symbol to the
 * image's load address, not to 0. */
MIP_RT_HIDDEN __attribute__((weak)) const char __mip_heap_interpose_hidden = 0;

/* glibc's own entry points, for the bootstrap only. */
extern void __libc_free(void *) __attribute__((weak));
extern void *__libc_realloc(void *, size_t) __attribute__((weak));

static free_fn real_free;
static realloc_fn real_realloc;
static reallocarray_fn real_reallocarray;
static uint32_t resolved;
static pthread_t resolver;

__thread uintptr_t mip_rt_heap_just_freed;

#define PARKED 64
static void *parked[PARKED];
static uint32_t parked_count;

/* Looks the real functions up, or waits for the thread that does. */
static int resolve_now(void) {
  pthread_t self = pthread_self(), none = 0;
  if (!__atomic_compare_exchange_n(&resolver, &none, self, 0,
                                   __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
    if (pthread_equal(none, self))
      return 0;
    while (!__atomic_load_n(&resolved, __ATOMIC_ACQUIRE))
      sched_yield();
    return 1;
  }
  int saved = errno;
  void *next = __mip_heap_interpose_hidden ? RTLD_DEFAULT : RTLD_NEXT;
  free_fn f = (free_fn)dlsym(next, "free");
  realloc_fn r = (realloc_fn)dlsym(next, "realloc");
  reallocarray_fn ra = (reallocarray_fn)dlsym(next, "reallocarray");
  if (!f)
    f = __libc_free;
  if (!r)
    r = __libc_realloc;
  if (!f || !r) {
    mip_rt_report("heap profiling cannot find the C library's free and "
                  "realloc",
                  NULL);
    abort();
  }
  real_free = f;
  real_realloc = r;
  real_reallocarray = ra;
  __atomic_store_n(&resolved, 1, __ATOMIC_RELEASE);
  uint32_t n = parked_count < PARKED ? parked_count : PARKED;
  for (uint32_t i = 0; i < n; i++)
    f(parked[i]);
  errno = saved;
  return 1;
}

/* 1 once the real functions are known; 0 when called back from dlsym on
 * the thread that is looking them up. */
static inline __attribute__((always_inline)) int resolve(void) {
  if (__builtin_expect(__atomic_load_n(&resolved, __ATOMIC_ACQUIRE), 1))
    return 1;
  return resolve_now();
}

void mip_rt_heap_interpose_init(void) { resolve(); }

/* Takes the block at p out of the table, if the owner has it. */
static int take(const struct mip_rt_heap_ops *o, void *p,
                struct mip_rt_heap_taken *t) {
  return o && o->take(p, t);
}

MIP_RT_HIDDEN void __mip_heap_interposed_free(void *p);
MIP_RT_HIDDEN void *__mip_heap_interposed_realloc(void *old, size_t size);
MIP_RT_HIDDEN void *__mip_heap_interposed_reallocarray(void *old, size_t n,
                                                       size_t m);

/* None of these changes errno on its own (the table operations call
 * nothing that could; the lookup of the real functions keeps it). */
void __mip_heap_interposed_free(void *p) {
  if (!p)
    return;
  /* Read and cleared at once, as far as this thread goes: a signal
   * handler's free in between sees 0, or p (then p is closed already). */
  uintptr_t closed = mip_rt_heap_just_freed;
  if (closed) {
    mip_rt_heap_just_freed = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  }
  if (closed != (uintptr_t)p) {
    /* Mostly blocks nobody tracks: the table first, the clock and the
     * CPU only for a block found there. */
    const struct mip_rt_heap_ops *o = mip_rt_heap_owner_if_any();
    struct mip_rt_heap_taken t;
    if (take(o, p, &t))
      o->settle(&t, 1);
  }
  if (resolve()) {
    real_free(p);
  } else {
    /* Kept until dlsym is done: a leak if more come than there is room. */
    uint32_t i = __atomic_fetch_add(&parked_count, 1, __ATOMIC_RELAXED);
    if (i < PARKED)
      parked[i] = p;
  }
}

/* The real call, with the old block taken out first and settled after. */
static void *reallocate(void *old, size_t size, size_t n, int array) {
  mip_rt_heap_just_freed = 0;
  const struct mip_rt_heap_ops *o = old ? mip_rt_heap_owner_if_any() : NULL;
  struct mip_rt_heap_taken t;
  int taken = take(o, old, &t);
  size_t total = 0;
  int overflow = array && __builtin_mul_overflow(size, n, &total);
  void *q;
  if (!array)
    q = real_realloc(old, total = size);
  else if (real_reallocarray)
    q = real_reallocarray(old, size, n);
  else if (overflow)
    q = NULL, errno = ENOMEM;
  else
    q = real_realloc(old, total);
  if (taken)
    o->settle_moved(&t, q != NULL || (!overflow && total == 0));
  return q;
}

void *__mip_heap_interposed_realloc(void *old, size_t size) {
  if (!resolve()) {
    if (__libc_realloc)
      return __libc_realloc(old, size);
    errno = ENOMEM;
    return NULL;
  }
  return reallocate(old, size, 1, 0);
}

void *__mip_heap_interposed_reallocarray(void *old, size_t n, size_t m) {
  if (!resolve()) {
    size_t total;
    if (__libc_realloc && !__builtin_mul_overflow(n, m, &total))
      return __libc_realloc(old, total);
    errno = ENOMEM;
    return NULL;
  }
  return reallocate(old, n, m, 1);
}
