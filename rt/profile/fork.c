/*
 * fork(): the child starts with no counts of its own, and writes its own
 * file. A pthread_atfork child handler (one per image, registered by the
 * image's constructor and dropped by glibc when a shared library is
 * unloaded) zeroes the image's counters, restarts the first-call clock,
 * empties the edge table, lets go of a pooled file's lock the parent held
 * (merge.c) and marks the process as a forked child, so that its file
 * name gets the child's pid (path.c). What the parent counted before the
 * fork stays in the parent's profile only. In continuous mode the child
 * lets go of its parent's file first and then maps its own.
 */
#include "mip_rt.h"

/* pthread_atfork is a wrapper in libc_nonshared.a that calls glibc's
 * __register_atfork with the image's __dso_handle (so that glibc drops
 * the handlers when a shared library is unloaded): called directly, the
 * image has no copy of the wrapper, no unwind entry for it and no PLT
 * slot, only the import it had. __dso_handle is crtbegin's, in every
 * image. */
extern int __register_atfork(void (*prepare)(void), void (*parent)(void),
                             void (*child)(void), void *dso_handle);
extern void *__dso_handle MIP_RT_HIDDEN;

/* The coverage bytes, writable (image.c sees them read-only; kinds.c
 * has the other kinds). */
#ifndef MIP_RT_SHARED
extern uint8_t __start___mip_cov[] MIP_RT_HIDDEN; /* never 0: image.c */
extern uint8_t __stop___mip_cov[] MIP_RT_HIDDEN;
#endif

static int forked;

/* Out of line, one copy for every kind; the empty asm keeps the loop a
 * loop rather than a call to memset, which no other part of the runtime
 * imports. */
__attribute__((noinline)) void mip_rt_fill(uint8_t *start, uint8_t *stop,
                                           uint8_t value) {
  for (uint8_t *p = start; p && p < stop; p++) {
    *p = value;
    __asm__("" ::: "memory");
  }
}

/* Every counter as before the first call: 0, but coverage bytes "not
 * yet" (1 on AArch64). Here the coverage bytes only; kinds.c, linked
 * into the images that have other counters, replaces it. */
#ifndef MIP_RT_SHARED
__attribute__((weak)) void mip_rt_counters_reset(void) {
  mip_rt_fill(__start___mip_cov, __stop___mip_cov, MIP_RT_COV_NOT_YET);
}
#define counters_reset mip_rt_counters_reset
#else
/* Those of every image registered with the shared runtime. */
static void image_counters_reset(const struct mip_rt_image *image) {
  uint8_t *const *at = (uint8_t *const *)image->sections;
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  mip_rt_fill(at[0], at[1], id == MIP_RAW_COV ? MIP_RT_COV_NOT_YET : 0),      \
      at += 2;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
}

static void counters_reset(void) {
  mip_rt_shared_each_image(image_counters_reset);
}
#endif

/* Stand-ins for order.c, edges.c and merge.c (pool mode), which replace
 * them when linked. */
__attribute__((weak)) void mip_rt_order_reset(void) {}
__attribute__((weak)) void mip_rt_edges_reset(void) {}
__attribute__((weak)) void mip_rt_pool_after_fork(void) {}

/* In continuous mode the counters are the parent's file until the child
 * maps pages of its own over them (continuous.c): first, before anything
 * clears them; and once the child is marked forked, it counts into a file
 * of its own. */
static void in_child(void) {
  if (mip_rt_continuous_forked() == 0) {
    counters_reset();
    mip_rt_edges_reset();
  }
  mip_rt_order_reset();
  mip_rt_pool_after_fork();
  __atomic_store_n(&forked, 1, __ATOMIC_RELAXED);
  mip_rt_continuous_restarted();
}

/* The child's counters reset after a fork; nothing before it, so that a
 * fork waits for nothing a plain fork would not (dump_all.c). */
void mip_rt_fork_init(void) {
  if (__register_atfork(NULL, NULL, in_child,
                        __dso_handle) != 0)
    mip_rt_report("cannot register a fork handler: a forked child may "
                  "repeat its parent's counts, or hang at exit");
}

int mip_rt_forked(void) { return __atomic_load_n(&forked, __ATOMIC_RELAXED); }
