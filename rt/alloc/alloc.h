/*
 * libmip_alloc.a's inside: what the C and C++ entry points share.
 * Everything here is hidden; the entry points (include/mip/alloc.h) are
 * the library's only exported symbols.
 */
#ifndef MIP_RT_ALLOC_H
#define MIP_RT_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#define MIP_ALLOC_HIDDEN __attribute__((visibility("hidden")))
#define MIP_ALLOC_API __attribute__((visibility("default")))

/* What a hint asks for (include/mip/alloc.h). */
static inline int mip_alloc_is_notcold(unsigned hint) {
  return hint >= 128 && hint < 192;
}

/*
 * The counters behind __mip_alloc_hint_stats (include/mip/alloc.h), one
 * cache line a kind, so that threads allocating with different hints do
 * not contend for one line. Relaxed atomic additions: no lock, nothing
 * allocated.
 */
enum mip_alloc_kind {
  MIP_ALLOC_COLD,
  MIP_ALLOC_HOT,
  MIP_ALLOC_NOTCOLD,
  MIP_ALLOC_PLAIN,
  MIP_ALLOC_KINDS
};

struct mip_alloc_counter {
  uint64_t calls;
  uint64_t bytes;
} __attribute__((aligned(64)));

extern struct mip_alloc_counter mip_alloc_counters[MIP_ALLOC_KINDS]
    MIP_ALLOC_HIDDEN;

/* Counts one call of this kind that asked for bytes. */
static inline void mip_alloc_add(enum mip_alloc_kind kind, size_t bytes) {
  struct mip_alloc_counter *c = &mip_alloc_counters[kind];
  __atomic_fetch_add(&c->calls, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&c->bytes, (uint64_t)bytes, __ATOMIC_RELAXED);
}

/*
 * Every entry point counts each call once: mip_alloc_flags and
 * mip_alloc_move_flags count the calls they decide, in the branch that
 * decides (the fast path pays two atomic additions and nothing else); the
 * entry point counts, with this, a call that never asks them (a request
 * only the standard function answers, operator new replaced).
 */
static inline void mip_alloc_count_unhinted(unsigned hint, size_t bytes) {
  mip_alloc_add(mip_alloc_is_notcold(hint) ? MIP_ALLOC_NOTCOLD
                                           : MIP_ALLOC_PLAIN,
                bytes);
}

/*
 * The mallocx() flags for an allocation with this hint of a block of at
 * least size bytes (the larger of size and alignment): its arena, and the
 * thread cache it may use. 0 when the allocation is to be a plain call of
 * the standard function: a notcold hint, or hints off. Counts the call,
 * as one that asked for bytes, of the kind it decides. The first call
 * that needs the arenas creates them (arena.c).
 */
int mip_alloc_flags(unsigned hint, size_t size, size_t bytes) MIP_ALLOC_HIDDEN;

/* The largest hot block that goes through the thread's hot cache. */
#define MIP_ALLOC_HOT_CACHE_MAX 1024

/*
 * The same for rallocx(), which frees the old block into the thread cache
 * its flags name: never an explicit one, which must only ever hold blocks
 * of its own arena. Counted the same way.
 */
int mip_alloc_move_flags(unsigned hint, size_t bytes) MIP_ALLOC_HIDDEN;

/* Whether hints are on (creating the arenas if this is the first call). */
int mip_alloc_enabled(void) MIP_ALLOC_HIDDEN;

/* Whether a and b are addresses in the same loaded object. */
int mip_alloc_same_object(const void *a, const void *b) MIP_ALLOC_HIDDEN;

/* The address of jemalloc's mallocx, in the object jemalloc is. */
const void *mip_alloc_jemalloc(void) MIP_ALLOC_HIDDEN;

/* One line on stderr, "mip: " and why. */
void mip_alloc_report(const char *why) MIP_ALLOC_HIDDEN;

/* The system's page size, set once hints are on. */
extern size_t mip_alloc_page MIP_ALLOC_HIDDEN;

#endif
