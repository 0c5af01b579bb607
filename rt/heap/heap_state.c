/*
 * A heap state: its tables, and what happens to them when a block is born
 * and when it dies. The process has one, kept by the owner (heap_owner.c);
 * the unit tests make their own.
 *
 * Born: the block goes into the table (a block the table still held at
 * that address died where MIP could not see, and is closed first, as
 * freed unseen), its granules' counters are cleared, and its context's
 * live bytes grow (and with them, perhaps, its peak). Dies: it leaves the
 * table, its counters are summed (a big block's then given back to the
 * system), and its MemInfoBlock is merged into its context's, under the
 * context's lock.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "heap.h"

void *mip_rt_heap_map(uint64_t bytes) {
  int saved = errno;
  void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  errno = saved;
  return m == MAP_FAILED ? NULL : m;
}

/* Times are kept in milliseconds, so the coarse clock does: the kernel
 * keeps it at each tick (1 to 10 ms, CONFIG_HZ), and the vDSO reads it
 * without the TSC, several times faster than CLOCK_MONOTONIC. Where it
 * cannot be had, or ticks more slowly than that, CLOCK_MONOTONIC; where
 * that fails too, none (-1). Found working here, a clock cannot fail
 * later, so that reading it never changes errno. */
static int32_t pick_clock(uint64_t *start_ns) {
  struct timespec res, ts;
  int saved = errno;
  int32_t clock = -1;
  if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 && res.tv_sec == 0 &&
      res.tv_nsec <= 10000000 &&
      clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0)
    clock = CLOCK_MONOTONIC_COARSE;
  else if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
    clock = CLOCK_MONOTONIC;
  errno = saved;
  *start_ns = clock < 0 ? 0
                        : (uint64_t)ts.tv_sec * 1000000000u +
                              (uint64_t)ts.tv_nsec;
  return clock;
}

uint32_t mip_rt_heap_cpu_slow(void) {
  int saved = errno;
  int cpu = sched_getcpu();
  errno = saved;
  return cpu < 0 || (uint32_t)cpu >= MIP_RT_HEAP_NO_CPU ? MIP_RT_HEAP_NO_CPU
                                                        : (uint32_t)cpu;
}

#define TIMELINE_BYTES                                                         \
  (MIP_RT_HEAP_POINTS * sizeof(struct mip_rt_heap_point))

/* The depot's slots: both tiers in one mapping. */
static uint64_t depot_bytes(uint64_t second_slots) {
  return ((1u << MIP_RT_HEAP_DEPOT_FIRST_LOG2) + second_slots) *
         sizeof(uint64_t);
}

int mip_rt_heap_init(struct mip_rt_heap *h,
                     const struct mip_rt_heap_config *c) {
  memset(h, 0, sizeof *h);
  if (!c->depot_slots || (c->depot_slots & (c->depot_slots - 1)) ||
      !c->depth || c->depth > MIP_RT_HEAP_DEPTH_MAX ||
      c->arena_words >> 32 || c->contexts >= MIP_RT_HEAP_UNRECORDED)
    return -1;
  static uint32_t serials;
  h->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
  h->shadow = c->shadow;
  h->clock = pick_clock(&h->start_ns);
  h->depth = c->depth;
  h->context_cap = c->contexts;
  h->depot_mask = c->depot_slots - 1;
  h->arena_words = c->arena_words;
  h->arena_used = 1; /* offset 0 means "no entry" */
  h->contexts = mip_rt_heap_map((uint64_t)c->contexts * sizeof *h->contexts);
  h->depot = mip_rt_heap_map(depot_bytes(c->depot_slots));
  h->arena = mip_rt_heap_map(c->arena_words * sizeof *h->arena);
  h->first_tables = mip_rt_heap_map(MIP_RT_HEAP_FIRST_TABLES_BYTES);
  h->timeline.points = mip_rt_heap_map(TIMELINE_BYTES);
  uint64_t limit = mip_rt_heap_shadow_limit(h->shadow);
  h->small_below = limit > MIP_RT_HEAP_SMALL_BYTES
                       ? limit - MIP_RT_HEAP_SMALL_BYTES : 0;
  mip_rt_heap_timeline_clear(&h->timeline);
  if (!h->contexts || !h->depot || !h->arena || !h->first_tables ||
      !h->timeline.points) {
    mip_rt_heap_destroy(h);
    return -1;
  }
  return 0;
}

void mip_rt_heap_destroy(struct mip_rt_heap *h) {
  if (h->contexts)
    munmap(h->contexts, (uint64_t)h->context_cap * sizeof *h->contexts);
  if (h->depot)
    munmap(h->depot, depot_bytes(h->depot_mask + 1));
  if (h->arena)
    munmap(h->arena, h->arena_words * sizeof *h->arena);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    mip_rt_heap_table_unmap(h->shards[i].table);
  if (h->first_tables)
    munmap(h->first_tables, MIP_RT_HEAP_FIRST_TABLES_BYTES);
  if (h->timeline.points)
    munmap(h->timeline.points, TIMELINE_BYTES);
  mip_rt_heap_tail_destroy(&h->tail);
  memset(h, 0, sizeof *h);
}

/* Blocks keep 7 bits of generation: when they run out, every live block
 * is made the parent's explicitly, once every 127 generations. */
void mip_rt_heap_forget(struct mip_rt_heap *h) {
  if (++h->generation == MIP_RT_HEAP_FOREIGN) {
    mip_rt_heap_table_disown(h);
    h->generation = 0;
  }
  uint32_t n = h->context_count < h->context_cap ? h->context_count
                                                 : h->context_cap;
  for (uint32_t i = 0; i < n; i++) {
    struct mip_rt_heap_context *c = &h->contexts[i];
    c->lock = 0;
    c->live = c->peak = 0;
    c->mib = (struct mip_rt_mib){0};
    c->live_blocks = c->at_bytes = c->at_blocks = c->at_epoch = 0;
    c->ghost_frees = 0;
  }
  for (int i = 0; i < MIP_RT_HEAP_STAT_COUNT; i++)
    h->stats[i] = 0;
  mip_rt_heap_timeline_clear(&h->timeline);
  mip_rt_heap_solo_again(&h->timeline);
  h->unlocked_readers = 0; /* the other threads' walks did not fork */
  mip_rt_heap_unlock_all(h);
}

static void stat(struct mip_rt_heap *h, enum mip_rt_heap_stat s) {
  __atomic_fetch_add(&h->stats[s], 1, __ATOMIC_RELAXED);
}

/* The counters of a block of 1 to MIP_RT_HEAP_SMALL_BYTES bytes in the
 * shadow, its first and its last granule's (the same one, for a block
 * within one): 1, or 0 for any other block, whose counters the loops of
 * heap_shadow.c go through. */
static inline int small_block(const struct mip_rt_heap *h, uintptr_t p,
                              uint64_t size, mip_rt_heap_counter **first,
                              mip_rt_heap_counter **last) {
  if (size - 1 >= MIP_RT_HEAP_SMALL_BYTES || p >= h->small_below)
    return 0;
  *first = (mip_rt_heap_counter *)(h->shadow +
                                   ((p >> MIP_RT_HEAP_GRANULE_SHIFT)
                                    << MIP_RT_HEAP_COUNTER_SHIFT));
  *last = (mip_rt_heap_counter *)(h->shadow +
                                  (((p + size - 1) >> MIP_RT_HEAP_GRANULE_SHIFT)
                                   << MIP_RT_HEAP_COUNTER_SHIFT));
  return 1;
}

/* A block's counters cleared, as mip_rt_heap_shadow_zero does: only
 * those that are not 0 written. */
static inline void clear_counters(const struct mip_rt_heap *h, uintptr_t p,
                                  uint64_t size) {
  mip_rt_heap_counter *first, *last;
  if (!small_block(h, p, size, &first, &last)) {
    mip_rt_heap_shadow_zero(h->shadow, p, size);
    return;
  }
  if (*first)
    *first = 0;
  if (*last)
    *last = 0;
}

static uint32_t cpu_id(uint32_t cpu) {
  return cpu == MIP_RT_HEAP_NO_CPU ? UINT32_MAX : cpu;
}

void mip_rt_heap_block_mib(struct mip_rt_mib *m,
                           const struct mip_rt_heap_block *b, uint64_t count,
                           uint32_t now, uint32_t cpu) {
  mip_rt_heap_mib_block(m, b->size, count, b->alloc_ms, now, cpu_id(b->cpu),
                        cpu_id(cpu));
  m->ReallocCount = (b->flags & MIP_RT_HEAP_REALLOC) != 0;
}

/* A block died with count accesses at now on cpu: its MemInfoBlock into
 * its context's, and its bytes out of the context's live ones, under the
 * context's lock unless solo (mip_rt_heap_solo). Inline in every free (a call would save and restore
 * half the registers for it); out of line where a birth finds a block
 * that died unseen (died_unseen), which is rare. */
static inline __attribute__((always_inline)) void
died(struct mip_rt_heap *h, const struct mip_rt_heap_block *b, uint64_t count,
     uint32_t now, uint32_t cpu, int solo) {
  if (b->context >= h->context_cap || b->generation != h->generation)
    return; /* never counted, or the parent's (fork) */
  struct mip_rt_heap_context *c = &h->contexts[b->context];
  uint64_t epoch =
      mip_rt_heap_timeline_change_as(&h->timeline, b->size, 0, now, solo);
  mip_rt_heap_lock_unless(solo, &c->lock);
  mip_rt_heap_mib_add(&c->mib, b->size, count, b->alloc_ms, now,
                      cpu_id(b->cpu), cpu_id(cpu),
                      (b->flags & MIP_RT_HEAP_REALLOC) != 0);
  if (h->sample)
    mip_rt_heap_mib_weigh(&c->mib, h->sample, b->size);
  mip_rt_heap_context_change(c, b->size, 0, epoch);
  mip_rt_heap_unlock_unless(solo, &c->lock);
}

void mip_rt_heap_mib_weigh(struct mip_rt_mib *m, uint64_t rate,
                           uint64_t size) {
  uint64_t weight, bytes;
  mip_rt_heap_sample_weigh(rate, size, &weight, &bytes);
  m->SampleWeight += weight;
  m->SampleBytes += bytes;
}

static __attribute__((noinline)) void
died_unseen(struct mip_rt_heap *h, const struct mip_rt_heap_block *b,
            uint32_t now, uint32_t cpu, int solo) {
  died(h, b, mip_rt_heap_shadow_sum(h->shadow, b->addr, b->size), now, cpu,
       solo);
}

void mip_rt_heap_born(struct mip_rt_heap *h, uintptr_t p, uint64_t size,
                      uint32_t context, uint32_t flags, uint32_t now,
                      uint32_t cpu) {
  struct mip_rt_heap_block b = {
      .addr = p,
      .size = size,
      .alloc_ms = now,
      .context = context,
      .cpu = (uint16_t)cpu,
      .flags = (uint16_t)flags,
      .generation = h->generation,
  };
  struct mip_rt_heap_block old;
  /* One way in for the table, the timeline and the context. */
  struct mip_rt_heap_timeline *t = &h->timeline;
  int solo = mip_rt_heap_solo(t);
  int rc = mip_rt_heap_table_put_as(h, &b, &old, solo);
  if (rc < 0) {
    mip_rt_heap_solo_end(t, solo);
    stat(h, MIP_RT_HEAP_STAT_DROPPED);
    return;
  }
  if (rc == 0 && h->sample) /* replacing a block keeps its address's mark */
    mip_rt_heap_sample_mark(h, p, 1);
  if (rc > 0) {
    /* Its counters are still the old block's: the new one has not been
     * touched by instrumented code yet. */
    if (old.generation == h->generation)
      stat(h, MIP_RT_HEAP_STAT_FREED_UNSEEN);
    died_unseen(h, &old, now, cpu, solo);
  }
  if (context < h->context_cap) {
    struct mip_rt_heap_context *c = &h->contexts[context];
    uint64_t epoch = mip_rt_heap_timeline_change_as(t, size, 1, now, solo);
    mip_rt_heap_lock_unless(solo, &c->lock);
    mip_rt_heap_context_change(c, size, 1, epoch);
    if (c->live > c->peak) /* read by a dump without the lock */
      __atomic_store_n(&c->peak, c->live, __ATOMIC_RELAXED);
    mip_rt_heap_unlock_unless(solo, &c->lock);
    mip_rt_heap_solo_end(t, solo);
  } else {
    mip_rt_heap_solo_end(t, solo);
    if (context != MIP_RT_HEAP_UNRECORDED)
      stat(h, MIP_RT_HEAP_STAT_DROPPED);
  }
  /* After the lock: a locked instruction waits for every store before it,
   * and these may miss the cache. */
  clear_counters(h, p, size);
}

void mip_rt_heap_taken_at(struct mip_rt_heap *h, struct mip_rt_heap_taken *t,
                          uint32_t now, uint32_t cpu) {
  mip_rt_heap_counter *first, *last;
  if (small_block(h, t->block.addr, t->block.size, &first, &last)) {
    t->count = *first + (last != first ? *last : 0);
  } else {
    t->count =
        mip_rt_heap_shadow_sum(h->shadow, t->block.addr, t->block.size);
    /* Before the real free or realloc, while the block is still its own:
     * a big block's counters take no memory once it is gone. */
    if (mip_rt_heap_shadow_release(h->shadow, t->block.addr, t->block.size))
      t->block.flags |= MIP_RT_HEAP_RELEASED;
  }
  t->dealloc_ms = now;
  t->dealloc_cpu = cpu;
}

void mip_rt_heap_context_prefetch(struct mip_rt_heap *h, uint32_t context) {
  if (context < h->context_cap)
    __builtin_prefetch(&h->contexts[context], 1);
}

int mip_rt_heap_take(struct mip_rt_heap *h, uintptr_t p,
                     struct mip_rt_heap_taken *t, uint32_t now, uint32_t cpu) {
  if (!mip_rt_heap_table_take(h, p, &t->block))
    return 0;
  mip_rt_heap_context_prefetch(h, t->block.context);
  mip_rt_heap_taken_at(h, t, now, cpu);
  return 1;
}

void mip_rt_heap_settle(struct mip_rt_heap *h,
                        const struct mip_rt_heap_taken *t, int dies) {
  if (dies) {
    if (h->sample)
      mip_rt_heap_sample_mark(h, t->block.addr, 0);
    int solo = mip_rt_heap_solo(&h->timeline);
    died(h, &t->block, t->count, t->dealloc_ms, t->dealloc_cpu, solo);
    mip_rt_heap_solo_end(&h->timeline, solo);
  } else {
    if (t->block.flags & MIP_RT_HEAP_RELEASED)
      mip_rt_heap_shadow_restore(h->shadow, t->block.addr, t->block.size,
                                 t->count);
    struct mip_rt_heap_block old;
    mip_rt_heap_table_put(h, &t->block, &old);
  }
}

int mip_rt_heap_free(struct mip_rt_heap *h, uintptr_t p, uint32_t now,
                     uint32_t cpu) {
  struct mip_rt_heap_taken t;
  /* One way in for the table, the timeline and the context. */
  int solo = mip_rt_heap_solo(&h->timeline);
  int found = mip_rt_heap_table_take_as(h, p, &t.block, solo);
  if (found) {
    mip_rt_heap_context_prefetch(h, t.block.context);
    mip_rt_heap_taken_at(h, &t, now, cpu);
    if (h->sample)
      mip_rt_heap_sample_mark(h, p, 0);
    died(h, &t.block, t.count, t.dealloc_ms, t.dealloc_cpu, solo); /* settled */
  }
  mip_rt_heap_solo_end(&h->timeline, solo);
  return found;
}
