/*
 * A thread's recent walks, so that an allocation from a stack the thread
 * saw a moment ago need not walk it again, nor hash it and look it up in
 * the depot (the walk waits on every frame's load before it can take the
 * next, and the depot's entries are seldom in the cache).
 *
 * A walk is a function of its first frame, the thread's stack bounds, the
 * depth limit and the frames it visits, each 16 bytes (the next frame,
 * the return address) at an address the frame before gave. So when every
 * frame a recorded walk visited still holds what it held then, walking
 * again would give the same stack, and the context found for it. Checking
 * that takes loads whose addresses are all in the record, which the
 * processor does at once, 16 bytes a frame.
 *
 * Walks are kept by their first frame and the allocation's site (no load
 * needed to find them), in sets of four ways, tried most recently used
 * first, the least recently used replaced. A record is used for its own
 * site only: the hooks of two sites can share a return address, and so
 * every frame, when the compiler shares code between them, and each site
 * has a context of its own. Walks from one frame and site differ only
 * deeper down: a check that fails mostly fails within its first frames,
 * and is given up there.
 *
 * A signal handler that allocates can interrupt any of this on the same
 * thread: a walk being recorded is busy, and a handler's walk leaves it
 * alone; each recording gets a new ticket, a context is kept for the
 * recording whose ticket it was found with, and it is used only while
 * the ticket stays the same. The order of the ways changes in one store.
 */
#include <string.h>

#include "heap.h"

#define SETS_LOG2 3
#define WAYS 4
#define NOWHERE UINT32_MAX /* a walk not recorded */

/* A frame's two words (16 bytes; 8 on Armv7): in the stack, word
 * aligned; in a record, aligned to their size (so that the comparison
 * takes them straight from memory). */
#define FRAME_BYTES (2 * sizeof(uintptr_t))
typedef uintptr_t frame_bytes
    __attribute__((vector_size(FRAME_BYTES), aligned(sizeof(uintptr_t))));
typedef uintptr_t kept_bytes
    __attribute__((vector_size(FRAME_BYTES), aligned(FRAME_BYTES)));

struct recent {
  const void *fp;  /* its first frame */
  uintptr_t site;  /* the allocation's it was taken for */
  uint32_t limit;  /* the depth limit it had */
  uint32_t frames; /* how many it visited, 0: too many to keep */
  uint32_t ticket; /* the recording's */
  uint32_t found;  /* the ticket context goes with, 0: none (never for a
                      walk of too many frames to keep) */
  uint32_t busy;   /* being recorded */
  uint32_t flags;
  uint32_t context;
  uint32_t reserved;
  uint64_t tag; /* what context holds for: limit | the heap state's serial
                   << 32, so that one comparison checks both */
  uintptr_t frame[MIP_RT_HEAP_RECENT_FRAMES][2] __attribute__((aligned(16)));
};

static __thread struct recent recent[1u << SETS_LOG2][WAYS];
/* Per set, its ways most recently used first, a byte each, kept xor
 * IN_ORDER so that a thread's zeroed TLS starts them in order. */
#define IN_ORDER 0x03020100u
static __thread uint32_t order_bits[1u << SETS_LOG2];
_Static_assert(WAYS == 4, "order's layout");
static uint32_t order_of(uint32_t set) { return order_bits[set] ^ IN_ORDER; }
static void set_order(uint32_t set, uint32_t o) {
  order_bits[set] = o ^ IN_ORDER;
}
static __thread uint32_t tickets;

/* The return address of the frame after fp's, if the walk would take
 * it (else 0): what tells apart the stacks of an allocation wrapper
 * called from many places at one depth, whose walks share fp and site.
 * (One frame more would take as much again on every allocation.) */
static uintptr_t caller_of(const void *fp) {
  const struct mip_rt_heap_bounds *b = mip_rt_heap_thread_stack();
  uintptr_t f = (uintptr_t)fp;
  if (!mip_rt_heap_start_ok(b, f))
    return 0;
  uintptr_t next = *(const uintptr_t *)f;
  return mip_rt_heap_next_ok(b, f, next) ? ((const uintptr_t *)next)[1] : 0;
}

/* A walk's set: by its first frame, its site and the caller after it, so
 * that the walks of one hot pair of frame and site (a wrapper's, reached
 * along many paths: a parser's node allocator) spread over the sets
 * instead of taking turns in the four ways of one, where each replaces
 * the next before it is used again. That caller is among the frames the
 * walk visited, so a walk found unchanged is looked for in the set it
 * was kept in. */
static uint32_t set_of(const void *fp, uintptr_t site) {
  uint64_t key = (uintptr_t)fp ^ (uint64_t)site << 17 ^
                 (uint64_t)caller_of(fp) * 0xd6e8feb86659fd93ULL;
  return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> (64 - SETS_LOG2));
}

/* order with the way at position i moved to the front. */
static uint32_t to_front(uint32_t o, uint32_t i) {
  uint32_t below = o & ((1u << (8 * i)) - 1);
  uint32_t above = i == 3 ? 0 : o & ~((1u << (8 * i + 8)) - 1);
  return above | below << 8 | ((o >> (8 * i)) & 0xff);
}

static int any(frame_bytes v) { return (v[0] | v[1]) != 0; }

/* What the frame at f holds now against what it held, then, into diff;
 * the next frame's address, from the record (so that the loads do not
 * wait for each other). */
static const char *compare(const uintptr_t *then, const char *f,
                           frame_bytes *diff) {
  frame_bytes now;
  memcpy(&now, f, sizeof now);
  *diff |= now ^ *(const kept_bytes *)then;
  return (const char *)then[0];
}

/* Whether every frame r's walk visited still holds what it did. A check
 * of another walk from the same place fails mostly in its first frames:
 * it stops at the first group of four that differs. Past them, the frames
 * that do not make a group of eight come first, by a jump into a row of
 * eight comparisons, then groups of eight, each tested once (deep stacks
 * that hold are the common case, and a test costs as much as a frame). */
static int unchanged(const struct recent *r) {
  const char *f = r->fp;
  const uintptr_t(*then)[2] = r->frame;
  uint32_t n = r->frames;
  frame_bytes diff = {0, 0};
  if (n >= 4) {
    f = compare(then[0], f, &diff);
    f = compare(then[1], f, &diff);
    f = compare(then[2], f, &diff);
    f = compare(then[3], f, &diff);
    if (any(diff))
      return 0;
    then += 4;
    n -= 4;
  }
  switch (n & 7) {
  case 7:
    f = compare(*then++, f, &diff);
    /* fall through */
  case 6:
    f = compare(*then++, f, &diff);
    /* fall through */
  case 5:
    f = compare(*then++, f, &diff);
    /* fall through */
  case 4:
    f = compare(*then++, f, &diff);
    /* fall through */
  case 3:
    f = compare(*then++, f, &diff);
    /* fall through */
  case 2:
    f = compare(*then++, f, &diff);
    /* fall through */
  case 1:
    f = compare(*then++, f, &diff);
    /* fall through */
  default:
    break;
  }
  for (n >>= 3; n; n--, then += 8) {
    if (any(diff))
      return 0;
    for (int k = 0; k < 8; k++)
      f = compare(then[k], f, &diff);
  }
  return !any(diff);
}

/* Whether r is a finished record of a walk from fp for site whose
 * context, for this tag (limit and serial), is known: a record being
 * made (busy) is not, nor one whose ticket moved on. */
static int usable(const struct recent *r, const void *fp, uintptr_t site,
                  uint64_t tag, uint32_t ticket) {
  return r->fp == fp && r->site == site && !r->busy && r->found == ticket &&
         r->tag == tag;
}

uint64_t mip_rt_heap_recent_again(const void *fp, uintptr_t site,
                                  uint32_t limit, uint32_t serial) {
  uint32_t set = set_of(fp, site), o = order_of(set);
  uint64_t tag = limit | (uint64_t)serial << 32;
  for (uint32_t i = 0; i < WAYS; i++) {
    struct recent *r = &recent[set][(o >> (8 * i)) & 0xff];
    uint32_t ticket = r->ticket;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (!usable(r, fp, site, tag, ticket) || !unchanged(r))
      continue;
    uint64_t hit = MIP_RT_HEAP_RECENT_HIT | (uint64_t)r->flags << 32 |
                   r->context;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (r->ticket != ticket || r->busy)
      return 0;
    if (i)
      set_order(set, to_front(o, i));
    return hit;
  }
  return 0;
}

uintptr_t (*mip_rt_heap_recent_record(const void *fp, uint32_t limit,
                                      struct mip_rt_heap_stack *s))[2] {
  uint32_t set = set_of(fp, s->site), o = order_of(set);
  uint32_t way = o >> 24; /* the least recently used */
  struct recent *r = &recent[set][way];
  s->ticket = 0;
  s->way = NOWHERE;
  if (r->busy)
    return NULL; /* a handler interrupted its recording */
  s->way = set * WAYS + way;
  r->busy = 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  r->found = 0;
  r->fp = fp;
  r->site = s->site;
  r->limit = limit;
  set_order(set, to_front(o, 3));
  return r->frame;
}

void mip_rt_heap_recent_recorded(struct mip_rt_heap_stack *s,
                                 uint32_t frames) {
  if (s->way == NOWHERE)
    return;
  struct recent *r = &recent[0][0] + s->way;
  r->frames = frames <= MIP_RT_HEAP_RECENT_FRAMES ? frames : 0;
  r->flags = s->flags;
  s->ticket = ++tickets ? tickets : ++tickets;
  r->ticket = s->ticket;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  r->busy = 0;
}

void mip_rt_heap_recent_found(const struct mip_rt_heap_stack *s,
                              uint32_t context, uint32_t serial) {
  if (s->way == NOWHERE)
    return;
  struct recent *r = &recent[0][0] + s->way;
  if (r->busy || r->ticket != s->ticket || !r->frames)
    return;
  r->context = context;
  r->tag = r->limit | (uint64_t)serial << 32;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  r->found = s->ticket;
}
