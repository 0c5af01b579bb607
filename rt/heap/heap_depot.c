/*
 * The stack depot: every distinct call stack once per allocation site, and
 * with it its allocation context. A context is a site's: the hooks of two
 * sites whose code the compiler shared return to the same address and
 * walk the same frames, and stay two contexts. Append-only and lock-free:
 * a stack's entry (hash, depth and flags, context index, site, frames) is
 * written into an mmap'd arena
 * at an offset taken with one atomic add, then published by one
 * compare-and-swap of a hash-table slot (the hash's top half and the
 * offset). A thread that loses the race to publish the same stack uses the
 * winner's entry; its own stays unused. The context index is taken with
 * the entry, so contexts are numbered densely in the order stacks were
 * first seen, and a context's index is its stack's id in the profile.
 *
 * Full (no slot within a stack's probe sequences, the arena or the
 * context table used up): the stack gets no context, and the caller
 * counts the allocation as dropped.
 */
#include "heap.h"

#define FIRST_SLOTS (1u << MIP_RT_HEAP_DEPOT_FIRST_LOG2)
#define FIRST_PROBES 16 /* two cache lines */
#define SECOND_PROBES 64
#define HEADER 4 /* an entry's words before its frames */

uint64_t mip_rt_heap_stack_hash(const uintptr_t *frames, uint32_t depth,
                                uint32_t flags) {
  uint64_t lane[2] = MIP_RT_HEAP_HASH_START;
  for (uint32_t i = 0; i < depth; i++)
    mip_rt_heap_hash_step(lane, frames[i]);
  return mip_rt_heap_hash_end(lane, depth, flags);
}

/* The depot's hash of a stack at a site. */
static uint64_t at_site(uint64_t stack_hash, uintptr_t site) {
  return stack_hash ^ (uint64_t)site * 0xd6e8feb86659fd93ULL;
}

static int same(const uint64_t *entry, const uintptr_t *frames,
                uint32_t depth, uint32_t flags, uintptr_t site) {
  if (entry[1] != (depth | (uint64_t)flags << 32) || entry[3] != site)
    return 0;
  /* All of them, without a branch per frame: entries almost always
   * match, so an early exit would rarely be taken. */
  uint64_t diff = 0;
  for (uint32_t i = 0; i < depth; i++)
    diff |= entry[HEADER + i] ^ frames[i];
  return diff == 0;
}

/* Writes a new entry and its context; its arena offset, or 0. */
static uint64_t append(struct mip_rt_heap *h, uint64_t hash,
                       const uintptr_t *frames, uint32_t depth,
                       uint32_t flags, uintptr_t site) {
  uint64_t words = HEADER + depth;
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
  e[3] = site;
  for (uint32_t i = 0; i < depth; i++)
    e[HEADER + i] = frames[i];
  struct mip_rt_heap_context *ctx = &h->contexts[c];
  ctx->site = site;
  __atomic_store_n(&ctx->stack, at, __ATOMIC_RELEASE);
  return at;
}

/* Looks for the stack at site, whose depot hash is hash, in one tier's
 * probe sequence: 1 and *context when
 * found (or published there now), 0 when the sequence ends at a free slot
 * without it and there was no room for a new entry (*context =
 * MIP_RT_HEAP_NO_CONTEXT), -1 when every slot of the sequence holds
 * another stack. */
static int look(struct mip_rt_heap *h, uint64_t *tier, uint64_t mask,
                uint32_t probes, const struct mip_rt_heap_stack *s,
                uintptr_t site, uint64_t hash, uint64_t *mine,
                uint32_t *context) {
  uint64_t tag = hash >> 32 ? hash >> 32 : 1;
  for (uint64_t i = 0, at = hash; i < probes; i++, at++) {
    uint64_t *slot = &tier[at & mask];
    uint64_t v = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (v == 0) {
      if (!*mine && !(*mine = append(h, hash, s->frames, s->depth, s->flags,
                                     site))) {
        *context = MIP_RT_HEAP_NO_CONTEXT;
        return 0;
      }
      if (__atomic_compare_exchange_n(slot, &v, tag << 32 | *mine, 0,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        *context = (uint32_t)h->arena[*mine + 2];
        return 1;
      }
      /* v is what another thread published there first */
    }
    const uint64_t *e = h->arena + (v & 0xffffffffu);
    if (v >> 32 == tag && same(e, s->frames, s->depth, s->flags, site)) {
      *context = (uint32_t)e[2];
      return 1;
    }
  }
  return -1;
}

/* Two tiers of slots, the first small, so that the few stacks most
 * programs have sit together in a few pages (in the cache, and little
 * resident memory), and the second large, used only once a stack's probe
 * sequence in the first is full. Slots are never emptied, so a stack
 * whose sequence in the first tier reaches a free slot is not in the
 * second. */
uint32_t mip_rt_heap_context_hashed(struct mip_rt_heap *h,
                                    const struct mip_rt_heap_stack *s,
                                    uintptr_t site) {
  uint64_t mine = 0, hash = at_site(s->hash, site);
  uint32_t context = MIP_RT_HEAP_NO_CONTEXT;
  if (look(h, h->depot, FIRST_SLOTS - 1, FIRST_PROBES, s, site, hash, &mine,
           &context) < 0)
    look(h, h->depot + FIRST_SLOTS, h->depot_mask, SECOND_PROBES, s, site,
         hash, &mine, &context);
  return context;
}

uint32_t mip_rt_heap_context_of(struct mip_rt_heap *h, const uintptr_t *frames,
                                uint32_t depth, uint32_t flags,
                                uintptr_t site) {
  struct mip_rt_heap_stack s;
  s.hash = mip_rt_heap_stack_hash(frames, depth, flags);
  s.depth = depth;
  s.flags = flags;
  for (uint32_t i = 0; i < depth && i < MIP_RT_HEAP_DEPTH_MAX; i++)
    s.frames[i] = frames[i];
  return mip_rt_heap_context_hashed(h, &s, site);
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
  return e + HEADER;
}
