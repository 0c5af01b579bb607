/*
 * The stack depot: every distinct call stack once, and with it its
 * allocation context. Append-only and lock-free: a stack's entry (hash,
 * depth and flags, context index, frames) is written into an mmap'd arena
 * at an offset taken with one atomic add, then published by one
 * compare-and-swap of a hash-table slot (the hash's top half and the
 * offset). A thread that loses the race to publish the same stack uses the
 * winner's entry; its own stays unused. The context index is taken with
 * the entry, so contexts are numbered densely in the order stacks were
 * first seen, and a context's index is its stack's id in the profile.
 *
 * Full (no slot within MIP_RT_DEPOT_PROBES tries, the arena or the
 * context table used up): the stack gets no context, and the caller
 * counts the allocation as dropped.
 */
#include "heap.h"

#define MIP_RT_DEPOT_PROBES 64

/* One frame into a lane: multiply, then fold the high half down. */
static uint64_t step(uint64_t lane, uint64_t frame) {
  lane = (lane ^ frame) * 0xff51afd7ed558ccdULL;
  return lane ^ (lane >> 32);
}

/* Four lanes, frame i into lane i % 4, so that the multiplies of
 * successive frames do not wait for each other; then the lanes, the depth
 * and the flags are mixed into one (murmur3's finalizer). Lanes start
 * apart, so frames that change places change the hash. */
static uint64_t hash_stack(const uintptr_t *frames, uint32_t depth,
                           uint32_t flags) {
  uint64_t a = 0x9e3779b97f4a7c15ULL, b = 0xbf58476d1ce4e5b9ULL,
           c = 0x94d049bb133111ebULL, d = 0x2545f4914f6cdd1dULL;
  uint32_t i = 0;
  for (; i + 4 <= depth; i += 4) {
    a = step(a, frames[i]);
    b = step(b, frames[i + 1]);
    c = step(c, frames[i + 2]);
    d = step(d, frames[i + 3]);
  }
  if (i < depth)
    a = step(a, frames[i]);
  if (i + 1 < depth)
    b = step(b, frames[i + 1]);
  if (i + 2 < depth)
    c = step(c, frames[i + 2]);
  uint64_t h = (depth | (uint64_t)flags << 32) ^ a * 0xc4ceb9fe1a85ec53ULL ^
               b * 0xd6e8feb86659fd93ULL ^ c * 0xa0761d6478bd642fULL ^
               d * 0xe7037ed1a0b428dbULL;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

static int same(const uint64_t *entry, const uintptr_t *frames,
                uint32_t depth, uint32_t flags) {
  if (entry[1] != (depth | (uint64_t)flags << 32))
    return 0;
  /* All of them, without a branch per frame: entries almost always
   * match, so an early exit would rarely be taken. */
  uint64_t diff = 0;
  for (uint32_t i = 0; i < depth; i++)
    diff |= entry[3 + i] ^ frames[i];
  return diff == 0;
}

/* Writes a new entry and its context; its arena offset, or 0. */
static uint64_t append(struct mip_rt_heap *h, uint64_t hash,
                       const uintptr_t *frames, uint32_t depth,
                       uint32_t flags, uintptr_t site) {
  uint64_t words = 3 + depth;
  uint64_t at = __atomic_fetch_add(&h->arena_used, words, __ATOMIC_RELAXED);
  if (at + words > h->arena_words)
    return 0;
  uint32_t c = __atomic_fetch_add(&h->context_count, 1, __ATOMIC_RELAXED);
  if (c >= h->context_cap)
    return 0;
  uint64_t *e = h->arena + at;
  e[0] = hash;
  e[1] = depth | (uint64_t)flags << 32;
  e[2] = c;
  for (uint32_t i = 0; i < depth; i++)
    e[3 + i] = frames[i];
  struct mip_rt_heap_context *ctx = &h->contexts[c];
  ctx->site = site;
  __atomic_store_n(&ctx->stack, at, __ATOMIC_RELEASE);
  return at;
}

uint32_t mip_rt_heap_context_of(struct mip_rt_heap *h, const uintptr_t *frames,
                                uint32_t depth, uint32_t flags,
                                uintptr_t site) {
  uint64_t hash = hash_stack(frames, depth, flags);
  uint64_t tag = hash >> 32 ? hash >> 32 : 1;
  uint64_t mine = 0;
  for (uint64_t i = 0, at = hash; i < MIP_RT_DEPOT_PROBES; i++, at++) {
    uint64_t *slot = &h->depot[at & h->depot_mask];
    uint64_t v = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (v == 0) {
      if (!mine && !(mine = append(h, hash, frames, depth, flags, site)))
        return MIP_RT_HEAP_NO_CONTEXT;
      if (__atomic_compare_exchange_n(slot, &v, tag << 32 | mine, 0,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return (uint32_t)h->arena[mine + 2];
      /* v is what another thread published there first */
    }
    const uint64_t *e = h->arena + (v & 0xffffffffu);
    if (v >> 32 == tag && same(e, frames, depth, flags))
      return (uint32_t)e[2];
  }
  return MIP_RT_HEAP_NO_CONTEXT;
}

const uint64_t *mip_rt_heap_stack_of(const struct mip_rt_heap *h,
                                     uint32_t context, uint32_t *depth,
                                     uint32_t *flags) {
  uint64_t at = __atomic_load_n(&h->contexts[context].stack, __ATOMIC_ACQUIRE);
  if (!at)
    return NULL;
  const uint64_t *e = h->arena + at;
  *depth = (uint32_t)e[1];
  *flags = (uint32_t)(e[1] >> 32);
  return e + 3;
}
