/*
 * The whole heap over time: the bytes and blocks live, their global peak
 * and a timeline of at most MIP_RT_HEAP_POINTS points (docs/heap.md,
 * "Timeline and peak").
 *
 * Time is counted in births and deaths (events), so that a program that
 * allocates the same way gets the same points whatever the machine; each
 * point also has the time of its last event. The point under way is kept
 * in the totals' own fields, written out when it ends or is read, so that
 * an event touches the totals' memory only. A point covers `interval`
 * events and keeps the most bytes live during them (and the blocks at the
 * first moment they were), so that no peak is lost between points. When
 * the points run out, two neighbours become one and the interval doubles:
 * a run of any length keeps its whole life in the same memory, at a
 * coarser grain.
 *
 * The peak is DHAT's: the most bytes live at once, reached by a birth; it
 * is confirmed when the heap first shrinks after it (the epoch goes up),
 * and every context keeps its own live bytes and blocks of that moment
 * the next time it changes (heap.h, mip_rt_heap_context_change). One
 * lock orders every change, so that the peak is a moment that really
 * happened even when several threads allocate.
 */
#include <sched.h>

#include "heap.h"

/* Until the thread that found a second one has seen the first leave. */
static void wait_settled(struct mip_rt_heap_timeline *t) {
  while (__atomic_load_n(&t->multi, __ATOMIC_ACQUIRE) !=
         MIP_RT_HEAP_MULTI_SETTLED)
    sched_yield();
}

/* A second thread: from now on every change takes the locks. The owner
 * may be changing the state without them right now, having checked multi
 * before this store reached it: after the barrier its busy mark is seen
 * here (the barrier drained its stores), or its check sees multi; so
 * once busy reads 0, it has left and will not come back unlocked. Only
 * then is multi settled: any other thread that came meanwhile waits for
 * that, as this one waits for busy. 0 when another thread made the
 * switch first (then multi is coming or settled). */
static int switch_to_multi(struct mip_rt_heap_timeline *t) {
  uint32_t none = 0;
  if (!__atomic_compare_exchange_n(&t->multi, &none, MIP_RT_HEAP_MULTI_COMING,
                                   0, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE))
    return 0;
  mip_rt_heap_barrier();
  while (__atomic_load_n(&t->busy, __ATOMIC_ACQUIRE))
    sched_yield();
  __atomic_store_n(&t->multi, MIP_RT_HEAP_MULTI_SETTLED, __ATOMIC_RELEASE);
  return 1;
}

int mip_rt_heap_solo_slow(struct mip_rt_heap_timeline *t) {
  uint32_t multi = __atomic_load_n(&t->multi, __ATOMIC_ACQUIRE);
  if (!multi) {
    uintptr_t self = mip_rt_thread_pointer(), none = 0;
    if (t->owner == self ||
        __atomic_compare_exchange_n(&t->owner, &none, self, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
      if (!__atomic_load_n(&t->multi, __ATOMIC_RELAXED))
        return 1;
      /* the owner itself: it has left, the locks are its way in now */
      __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
    } else if (!switch_to_multi(t)) {
      wait_settled(t);
    }
  } else if (multi != MIP_RT_HEAP_MULTI_SETTLED &&
             t->owner != mip_rt_thread_pointer()) {
    wait_settled(t);
  }
  return 0;
}

int mip_rt_heap_timeline_enter(struct mip_rt_heap_timeline *t) {
  if (mip_rt_heap_solo_slow(t))
    return 0;
  mip_rt_heap_lock(&t->lock);
  return 1;
}

/* A thread that reads or changes the whole state (a dump, a reset, a
 * fork) and is not the owner: it switches to multi first, as a second
 * thread's first change does, so that the locks it takes (or tries)
 * exclude the owner. The owner itself, or any thread once multi is
 * settled, needs nothing: the locks already mean what they say. A thread
 * that finds the switch under way waits for it to settle, at most tries
 * turns (0: as long as it takes): a dump in a signal handler may have
 * interrupted its own thread's switch, which cannot end before it does. */
int mip_rt_heap_share(struct mip_rt_heap_timeline *t, unsigned tries) {
  uint32_t multi = __atomic_load_n(&t->multi, __ATOMIC_ACQUIRE);
  if (multi == MIP_RT_HEAP_MULTI_SETTLED)
    return 1;
  uintptr_t self = mip_rt_thread_pointer(), none = 0;
  if (t->owner == self)
    return 1;
  if (!multi) {
    /* Nobody changed the state yet: the caller becomes its owner (what
     * it then does takes the locks, which every other thread will take
     * once it has switched to multi). */
    if (__atomic_compare_exchange_n(&t->owner, &none, self, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return 1;
    if (switch_to_multi(t))
      return 1;
  }
  for (unsigned turn = 0; !tries || turn < tries; turn++) {
    if (__atomic_load_n(&t->multi, __ATOMIC_ACQUIRE) ==
        MIP_RT_HEAP_MULTI_SETTLED)
      return 1;
    sched_yield();
  }
  return 0;
}

/* A forked child has one thread, the caller: it owns the state alone
 * again, whoever did in the parent (the parent's busy mark, if another
 * thread held it, belongs to a thread that does not exist here). */
void mip_rt_heap_solo_again(struct mip_rt_heap_timeline *t) {
  t->owner = mip_rt_thread_pointer();
  t->busy = 0;
  t->multi = mip_rt_heap_barrier_works() ? 0 : MIP_RT_HEAP_MULTI_SETTLED;
}

/* Two neighbouring points become one, the interval doubles: all of them
 * full (their count even), so that the next event starts a point. */
_Static_assert(MIP_RT_HEAP_POINTS % 2 == 0, "points halve in pairs");
static void halve(struct mip_rt_heap_timeline *t) {
  uint32_t n = t->count / 2;
  for (uint32_t i = 0; i < n; i++) {
    const struct mip_rt_heap_point *a = &t->points[2 * i];
    const struct mip_rt_heap_point *b = &t->points[2 * i + 1];
    struct mip_rt_heap_point m = *b; /* ends where b ends */
    if (a->bytes >= b->bytes) { /* the first moment of the most bytes */
      m.bytes = a->bytes;
      m.blocks = a->blocks;
    }
    t->points[i] = m;
  }
  t->count = n;
  t->interval <<= 1;
  t->interval_log2++;
}

/* Points cover interval events each: point i the events from
 * i * interval + 1 to (i + 1) * interval. The first event of a point sets
 * its bytes and blocks (the totals after it), later births raise them
 * (heap.h, mip_rt_heap_timeline_change); t->ms is still the time of the
 * event before, the last of the point that ends. */
void mip_rt_heap_timeline_next(struct mip_rt_heap_timeline *t, uint32_t now) {
  t->left = 0; /* counted down past the end of the point before */
  if (t->count) {
    mip_rt_heap_timeline_settle(t, t->points);
    if (t->count == MIP_RT_HEAP_POINTS)
      halve(t);
  }
  t->count++;
  t->left = t->interval - 1;
  t->point_bytes = t->bytes;
  t->point_blocks = t->blocks;
  if (t->bytes > t->peak_bytes)
    mip_rt_heap_timeline_top(t, now);
}

void mip_rt_heap_timeline_settle(const struct mip_rt_heap_timeline *t,
                                 struct mip_rt_heap_point *points) {
  if (!t->count)
    return;
  points[t->count - 1] = (struct mip_rt_heap_point){
      .event = mip_rt_heap_timeline_events(t),
      .ms = t->ms,
      .bytes = t->point_bytes,
      .blocks = t->point_blocks,
  };
}

uint64_t mip_rt_heap_timeline_epoch(const struct mip_rt_heap_timeline *t) {
  return t->epoch + (t->pending != 0);
}

void mip_rt_heap_at_peak(const struct mip_rt_heap_context *c, uint64_t epoch,
                         uint64_t *bytes, uint64_t *blocks) {
  int kept = c->at_epoch == epoch;
  *bytes = kept ? c->at_bytes : c->live;
  *blocks = kept ? c->at_blocks : c->live_blocks;
}

void mip_rt_heap_timeline_clear(struct mip_rt_heap_timeline *t) {
  struct mip_rt_heap_point *points = t->points;
  uintptr_t owner = t->owner;
  uint32_t multi = t->multi, busy = t->busy;
  *t = (struct mip_rt_heap_timeline){0};
  t->points = points; /* left 0: the first event starts a point */
  t->interval = 1;
  /* Who changes the totals stays as it was; a state starting out on a
   * kernel without membarrier takes the lock from the start. */
  t->owner = owner;
  t->busy = busy;
  t->multi = (multi || !mip_rt_heap_barrier_works())
                 ? MIP_RT_HEAP_MULTI_SETTLED
                 : 0;
}
