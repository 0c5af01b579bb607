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
 * executable with heap code an object (rt/interpose/) with weak
 * definitions of free, realloc and reallocarray that jump here, and into
 * every image with heap code __mip_heap_interpose, which tells the
 * runtime the image is a heap image (docs/heap.md has the assembly). Weak:
 * a program that defines its own free keeps it. A shared library defines
 * none of the three (it exports nothing of libc's, and a pointer to free
 * it hands out stays good after it is unloaded): where no executable's
 * free is the process's (a heap library loaded with dlopen, or linked by
 * an executable without heap code, a program with a free of its own), the
 * owner of the heap state redirects the process's calls here through the
 * GOT (heap_got.c).
 *
 * Each forwards to the definition the process calls: the one
 * dlsym(RTLD_DEFAULT) finds (heap_got.c: a non-PIE executable's PLT stub
 * that stands for it is looked past), so that an allocator preloaded
 * ahead of libc stays the one called. Unless that is an interposed free
 * itself (this image's, or another's that this one's may come after in
 * the lookup order) and this image exports its free (an executable):
 * then the next
 * definition in the lookup order (dlsym(RTLD_NEXT)), as a chain of
 * interposed functions must end. Which free is an interposed one, a
 * probe says: called on NULL (always harmless) with errno set to
 * MIP_RT_HEAP_PROBE, an interposed free answers MIP_RT_HEAP_PROBED, any
 * other leaves errno alone. Looked up when the runtime starts, or at
 * the first call. dlsym may itself free (or realloc) while it looks: a
 * free arriving then, on the looking thread, is kept and done once the
 * real one is known; a realloc then goes to glibc's __libc_realloc.
 *
 * free: the block leaves the table before the real free, so that no other
 * thread can be handed the same address first. An instrumented free has
 * closed its block already (its hook runs before the call) and said so in
 * mip_rt_heap_just_freed: this one then does not look for it again.
 * Otherwise it looks and, finding nothing, says nothing: it sees every
 * free of the process, libc's own included, so a pointer it never saw is
 * no news; sampled, a pointer without a mark (heap.h) it does not even
 * look up. realloc: the
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
typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);

/* glibc's own entry points, for the bootstrap only. malloc's are not
 * weak: in a static link their reference takes glibc's malloc into the
 * program, whose definitions then win over the interposer's weak ones
 * (nothing else of libc might: libc's own calls to malloc would find the
 * interposer's). */
extern void __libc_free(void *) __attribute__((weak));
extern void *__libc_realloc(void *, size_t) __attribute__((weak));
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);

static free_fn real_free;
static realloc_fn real_realloc;
static reallocarray_fn real_reallocarray;
static malloc_fn real_malloc;
static calloc_fn real_calloc;
static mip_rt_heap_usable_fn real_usable;
/* What malloc, calloc and realloc add to each size: room for a record
 * beside the block (heap_tail.c) until the owner knows whether records
 * go there; then that, or nothing. */
static uint32_t room = MIP_RT_HEAP_TAIL_ROOM;
/* The state whose records the interposed malloc_usable_size leaves out. */
static const struct mip_rt_heap_tail *tails;
static uint32_t resolved;
static pthread_t resolver;
static uint32_t process_free_is_mip;

__thread uintptr_t mip_rt_heap_just_freed;

#define PARKED 64
static void *parked[PARKED];
static uint32_t parked_count;

/* Whether f is some image's interposed free: called on NULL with errno
 * set to MIP_RT_HEAP_PROBE, an interposed free answers, any other free
 * does nothing (errno kept by the caller). */
static int interposed(free_fn f) {
  errno = MIP_RT_HEAP_PROBE;
  f(NULL);
  return errno == MIP_RT_HEAP_PROBED;
}

/* What the interposed function of that name (at here) forwards to: the
 * definition the process calls, unless that is this image's own weak one
 * (a jump here: a program that defines free keeps its own, not always
 * realloc too), or the process's free is an interposed one (mip) whose
 * chain this image's exported definition may be part of: then the next
 * definition, which ends the chain. */
static uintptr_t forward_to(const char *name, uintptr_t here, uint32_t mip) {
  uintptr_t p = mip_rt_heap_process_function(name);
  if ((p && mip_rt_heap_jumps_to(p, here)) ||
      (mip && mip_rt_heap_exports(name)))
    return (uintptr_t)dlsym(RTLD_NEXT, name);
  return p;
}

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
  free_fn process_free = (free_fn)mip_rt_heap_process_function("free");
  uint32_t mip = process_free && interposed(process_free);
  free_fn f = (free_fn)forward_to("free", (uintptr_t)__mip_heap_interposed_free,
                                  mip);
  realloc_fn r = (realloc_fn)forward_to(
      "realloc", (uintptr_t)__mip_heap_interposed_realloc, mip);
  reallocarray_fn ra = (reallocarray_fn)forward_to(
      "reallocarray", (uintptr_t)__mip_heap_interposed_reallocarray, mip);
  malloc_fn m = (malloc_fn)forward_to(
      "malloc", (uintptr_t)__mip_heap_interposed_malloc, mip);
  calloc_fn c = (calloc_fn)forward_to(
      "calloc", (uintptr_t)__mip_heap_interposed_calloc, mip);
  mip_rt_heap_usable_fn u = (mip_rt_heap_usable_fn)forward_to(
      "malloc_usable_size",
      (uintptr_t)__mip_heap_interposed_malloc_usable_size, mip);
  if (!f)
    f = __libc_free;
  if (!r)
    r = __libc_realloc;
  if (!m)
    m = __libc_malloc;
  if (!c)
    c = __libc_calloc;
  if (!f || !r || !m || !c) {
    mip_rt_report("heap profiling cannot find the C library's malloc, "
                  "calloc, free and realloc");
    abort();
  }
  real_free = f;
  real_realloc = r;
  real_reallocarray = ra;
  real_malloc = m;
  real_calloc = c;
  real_usable = u;
  process_free_is_mip = mip;
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

int mip_rt_heap_process_free_is_mip(void) {
  return resolve() && process_free_is_mip;
}

int mip_rt_heap_interpose_targets(uintptr_t out[3]) {
  if (!resolve())
    return 0;
  out[0] = (uintptr_t)real_free;
  out[1] = (uintptr_t)real_realloc;
  out[2] = (uintptr_t)real_reallocarray;
  return 1;
}

/* Takes the block at p out of the table, if the owner has it. */
static int take(const struct mip_rt_heap_ops *o, void *p,
                struct mip_rt_heap_taken *t) {
  return o && o->take(p, t);
}

/* A free that the owner may have to close: mostly of blocks nobody
 * tracks, so the table first, the clock and the CPU only for a block
 * found there. */
static inline __attribute__((always_inline)) void close_if_tracked(void *p) {
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner_if_any();
  struct mip_rt_heap_taken t;
  if (take(o, p, &t))
    o->settle(&t, 1);
}

/* Kept until dlsym is done: a leak if more come than there is room. */
static void park(void *p) {
  uint32_t i = __atomic_fetch_add(&parked_count, 1, __ATOMIC_RELAXED);
  if (i < PARKED)
    parked[i] = p;
}

/* A free the owner may have to close, or before the real free is known.
 * Out of line, its record on its own stack, so that the interposed free
 * keeps no register and ends in a jump to the real one. */
static __attribute__((noinline)) void free_slowly(void *p, int tracked) {
  if (tracked)
    close_if_tracked(p);
  if (resolve())
    real_free(p);
  else
    park(p);
}

/* None of these changes errno on its own (the table operations call
 * nothing that could; the lookup of the real functions keeps it). */
void __mip_heap_interposed_free(void *p) {
  if (!p) {
    /* Perhaps a probe (interposed() in some image): it is answered. */
    if (__builtin_expect(errno == MIP_RT_HEAP_PROBE, 0))
      errno = MIP_RT_HEAP_PROBED;
    return;
  }
  /* Read and cleared at once, as far as this thread goes: a signal
   * handler's free in between sees 0, or p (then p is closed already). */
  uintptr_t closed = mip_rt_heap_just_freed;
  mip_rt_heap_just_freed = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  /* Sampled, a pointer without a mark was not recorded (heap.h). */
  int tracked =
      closed != (uintptr_t)p && !mip_rt_heap_sample_untracked((uintptr_t)p);
  if (__builtin_expect(!tracked, 1) &&
      __builtin_expect(__atomic_load_n(&resolved, __ATOMIC_ACQUIRE), 1))
    real_free(p);
  else
    free_slowly(p, tracked);
}

/* size and the room for a record beside the block; 0 stays 0 (realloc
 * frees), and a size too large for the room keeps its own failure. */
static inline __attribute__((always_inline)) size_t with_room(size_t size) {
  size_t more = __atomic_load_n(&room, __ATOMIC_RELAXED);
  return size && size + more > size ? size + more : size;
}

/* The real call, with the old block taken out first and settled after. */
static __attribute__((noinline)) void *reallocate(void *old, size_t size,
                                                  size_t n, int array) {
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner_if_any();
  struct mip_rt_heap_taken t;
  int taken = take(o, old, &t);
  size_t total = 0;
  int overflow = array && __builtin_mul_overflow(size, n, &total);
  void *q;
  if (!array)
    q = real_realloc(old, with_room(total = size));
  else if (overflow)
    q = NULL, errno = ENOMEM;
  else
    q = real_realloc(old, with_room(total));
  if (taken)
    o->settle_moved(&t, q != NULL || (!overflow && total == 0));
  return q;
}

/* Whether a realloc of old may need the owner: realloc(NULL, n) does not
 * (the hook that follows in instrumented code makes its block), nor,
 * sampled, a realloc of a block without a mark (heap.h). Either way the
 * pointer a free hook left is forgotten. */
static inline __attribute__((always_inline)) int may_be_tracked(void *old) {
  mip_rt_heap_just_freed = 0;
  return old && !mip_rt_heap_sample_untracked((uintptr_t)old);
}

/* A realloc of a block the owner may hold, or before the real functions
 * are known. Out of line, so that the interposed realloc keeps no
 * register. */
static __attribute__((noinline)) void *realloc_slowly(void *old,
                                                      size_t size) {
  if (!resolve()) {
    if (__libc_realloc)
      return __libc_realloc(old, size);
    errno = ENOMEM;
    return NULL;
  }
  if (!may_be_tracked(old))
    return real_realloc(old, with_room(size));
  return reallocate(old, size, 1, 0);
}

void *__mip_heap_interposed_realloc(void *old, size_t size) {
  if (__builtin_expect(__atomic_load_n(&resolved, __ATOMIC_ACQUIRE), 1) &&
      !may_be_tracked(old))
    return real_realloc(old, with_room(size));
  return realloc_slowly(old, size);
}

void *__mip_heap_interposed_reallocarray(void *old, size_t n, size_t m) {
  if (!resolve()) {
    size_t total;
    if (__libc_realloc && !__builtin_mul_overflow(n, m, &total))
      return __libc_realloc(old, total);
    errno = ENOMEM;
    return NULL;
  }
  size_t total;
  if (!may_be_tracked(old) && !__builtin_mul_overflow(n, m, &total))
    return real_realloc(old, with_room(total));
  return reallocate(old, n, m, 1);
}

/* Before the real functions are known (dlsym looking them up allocates),
 * glibc's own, without room: these blocks never get a record. */
void *__mip_heap_interposed_malloc(size_t size) {
  if (__builtin_expect(!resolve(), 0))
    return __libc_malloc(size);
  return real_malloc(with_room(size));
}

void *__mip_heap_interposed_calloc(size_t n, size_t size) {
  size_t total;
  if (__builtin_expect(!resolve(), 0))
    return __libc_calloc(n, size);
  if (__builtin_mul_overflow(n, size, &total))
    return real_calloc(n, size); /* its own failure */
  return real_calloc(1, with_room(total));
}

/* Less the record beside the block, where it has one: a program that
 * uses all of what this says never writes over it. */
size_t __mip_heap_interposed_malloc_usable_size(void *p) {
  if (!p || !resolve() || !real_usable)
    return 0;
  size_t n = real_usable(p);
  const struct mip_rt_heap_tail *t = __atomic_load_n(&tails, __ATOMIC_ACQUIRE);
  if (t && n >= MIP_RT_HEAP_TAIL_ROOM &&
      mip_rt_heap_tail_holds(t, (uintptr_t)p))
    n -= MIP_RT_HEAP_TAIL_ROOM;
  return n;
}

/* Whether the process calls this image's interposed function by that
 * name (the weak definition that jumps to here). */
static int process_calls(const char *name, uintptr_t here) {
  uintptr_t p = mip_rt_heap_process_function(name);
  return p && mip_rt_heap_jumps_to(p, here);
}

/* Whether two functions are in one object. */
static int same_object(uintptr_t a, uintptr_t b) {
  Dl_info x, y;
  return dladdr((void *)a, &x) && dladdr((void *)b, &y) &&
         x.dli_fbase == y.dli_fbase;
}

mip_rt_heap_usable_fn
mip_rt_heap_interpose_tail(const struct mip_rt_heap_tail *tail) {
  int mine =
      tail && resolve() && real_usable &&
      process_calls("malloc", (uintptr_t)__mip_heap_interposed_malloc) &&
      process_calls("calloc", (uintptr_t)__mip_heap_interposed_calloc) &&
      process_calls("realloc", (uintptr_t)__mip_heap_interposed_realloc) &&
      process_calls("free", (uintptr_t)__mip_heap_interposed_free) &&
      process_calls("malloc_usable_size",
                    (uintptr_t)__mip_heap_interposed_malloc_usable_size) &&
      same_object((uintptr_t)real_malloc, (uintptr_t)real_usable) &&
      same_object((uintptr_t)real_malloc, (uintptr_t)real_calloc) &&
      same_object((uintptr_t)real_malloc, (uintptr_t)real_realloc) &&
      same_object((uintptr_t)real_malloc, (uintptr_t)real_free);
  if (!mine) {
    __atomic_store_n(&room, 0, __ATOMIC_RELAXED);
    return NULL;
  }
  __atomic_store_n(&tails, tail, __ATOMIC_RELEASE);
  return real_usable;
}
