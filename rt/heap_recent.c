/*
 * A thread's recent walks, so that an allocation from a stack the thread
 * saw a moment ago need not walk it again, nor hash it and look it up in
 * the depot (the walk waits on every frame's load before it can take the
 * next, and the depot's entries are seldom in the cache).
 *
 * A walk is a function of its first frame, the thread's stack bounds, the
 * depth limit and the words it reads: each address it reads is the frame
 * a word before it gave. So when every word a recorded walk read still
 * holds what it read then, walking again would give the same stack, and
 * the context found for it. Checking that takes loads whose addresses
 * are all known in advance, which the processor does at once.
 *
 * Walks are kept by their first frame and first few return addresses
 * (different paths reach an allocation from the same depth), in sets of
 * two, the one used less recently replaced.
 *
 * A signal handler that allocates can interrupt any of this on the same
 * thread: a walk being recorded is busy, and a handler's walk leaves it
 * alone; each recording gets a new ticket, a context is kept for the
 * recording whose ticket it was found with, and it is used only while
 * the ticket stays the same.
 */
#include "heap.h"

#define SETS_LOG2 4
#define WAYS 2
#define KEY_FRAMES 8
#define NOWHERE UINT32_MAX /* a walk not recorded */

struct recent {
  uint64_t key;    /* of its first words (first_words), 0: none */
  const void *fp;  /* its first frame */
  uint32_t limit;  /* the depth limit it had */
  uint32_t words;  /* how many it read, 0: too many to keep */
  uint32_t ticket; /* the recording's */
  uint32_t found;  /* the ticket context goes with, 0: none */
  uint32_t busy;   /* being recorded */
  uint32_t flags;
  uint32_t context;
  uint32_t serial; /* the heap state's, for which context holds */
  uintptr_t word[MIP_RT_HEAP_RECENT_WORDS];
};

static __thread struct recent recent[1u << SETS_LOG2][WAYS];
static __thread uint8_t older[1u << SETS_LOG2]; /* the way to replace */
static __thread uint32_t tickets;

/* The first words a walk from f reads, as the walk reads them, for
 * KEY_FRAMES frames (their return addresses and the next frames), going
 * on past a return address of 0; and the key of the walk: the first frame
 * and those return addresses, mixed; never 0. */
struct first {
  uint64_t key;
  uint32_t n;
  uintptr_t word[2 * KEY_FRAMES];
};

static void first_words(const struct mip_rt_heap_bounds *b, const uintptr_t *f,
                        struct first *w) {
  uint64_t key = (uintptr_t)f;
  uint32_t n = 0;
  w->word[n++] = f[1];
  key = (key ^ f[1]) * 0x9e3779b97f4a7c15ULL;
  if (mip_rt_heap_start_ok(b, (uintptr_t)f)) {
    for (int i = 1;; i++) {
      uintptr_t next = f[0];
      w->word[n++] = next;
      if (i == KEY_FRAMES || !mip_rt_heap_next_ok(b, (uintptr_t)f, next))
        break;
      f = (const uintptr_t *)next;
      w->word[n++] = f[1];
      key = (key ^ f[1]) * 0x9e3779b97f4a7c15ULL;
    }
  }
  w->n = n;
  w->key = key | 1;
}

static uint32_t set_of(uint64_t key) {
  return (uint32_t)(key >> (64 - SETS_LOG2));
}

/* Whether memory still holds every word r's walk read: the first ones as
 * first_words read them just now, the others read again. */
static int unchanged(const struct recent *r, const struct first *w) {
  const uintptr_t *word = r->word;
  uint32_t n = r->words, m = w->n < n ? w->n : n;
  uintptr_t diff = 0;
  for (uint32_t i = 0; i < m; i++)
    diff |= word[i] ^ w->word[i];
  /* Word 2k + 1 is the frame k + 1 the walk went on to, word 2k + 2 its
   * return address. Where first_words stopped at a frame the walk went on
   * from, the words differ. */
  if (n > m && (m & 1))
    return 0;
  uint32_t i = m;
  for (; i + 1 < n; i += 2) {
    const uintptr_t *f = (const uintptr_t *)word[i - 1];
    diff |= (f[1] ^ word[i]) | (f[0] ^ word[i + 1]);
  }
  if (i < n) /* the walk ended at this return address */
    diff |= ((const uintptr_t *)word[i - 1])[1] ^ word[i];
  return !diff;
}

int mip_rt_heap_recent_again(const void *fp, uint32_t limit, uint32_t serial,
                             uint32_t *context, uint32_t *flags,
                             uint64_t *walk_key) {
  struct first w;
  first_words(mip_rt_heap_thread_stack(), fp, &w);
  uint64_t key = *walk_key = w.key;
  uint32_t set = set_of(key);
  for (uint32_t way = 0; way < WAYS; way++) {
    struct recent *r = &recent[set][way];
    uint32_t ticket = r->ticket;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (r->key != key || r->busy || r->found != ticket || r->fp != fp ||
        r->limit != limit || r->serial != serial || !r->words)
      continue;
    int same = unchanged(r, &w);
    *context = r->context;
    *flags = r->flags;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (!same || r->ticket != ticket || r->busy)
      return 0;
    older[set] = (uint8_t)(way ^ 1);
    return 1;
  }
  return 0;
}

uintptr_t *mip_rt_heap_recent_record(const struct mip_rt_heap_bounds *b,
                                     const void *fp, uint32_t limit,
                                     struct mip_rt_heap_stack *s) {
  uint64_t key = s->key;
  if (!key) {
    struct first w;
    first_words(b, fp, &w);
    key = w.key;
  }
  uint32_t set = set_of(key), way = older[set];
  for (uint32_t i = 0; i < WAYS; i++)
    if (recent[set][i].key == key && recent[set][i].fp == fp)
      way = i; /* the same walk's, out of date */
  struct recent *r = &recent[set][way];
  s->ticket = 0;
  s->way = NOWHERE;
  if (r->busy)
    return NULL; /* a handler interrupted its recording */
  s->way = set * WAYS + way;
  r->busy = 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  r->found = 0;
  r->key = key;
  r->fp = fp;
  r->limit = limit;
  older[set] = (uint8_t)(way ^ 1);
  return r->word;
}

void mip_rt_heap_recent_recorded(struct mip_rt_heap_stack *s, uint32_t words) {
  if (s->way == NOWHERE)
    return;
  struct recent *r = &recent[0][0] + s->way;
  r->words = words <= MIP_RT_HEAP_RECENT_WORDS ? words : 0;
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
  if (r->busy || r->ticket != s->ticket)
    return;
  r->context = context;
  r->serial = serial;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  r->found = s->ticket;
}
