/*
 * Live blocks by address. The address's 64 KiB region picks one of 256
 * shards, each an open-addressing table (linear probing in the order
 * below, Robin Hood placement, at most three quarters full) behind a spin
 * lock of its own, so threads working on different blocks rarely meet,
 * and a thread working in one region of memory keeps to one shard.
 *
 * A table is two arrays with one index: the keys (8 bytes a slot, 0:
 * free), which probing reads, eight to a cache line, and the rest of each
 * block packed into 12 bytes, read once the key is found: 20 bytes a
 * block in all (Packing, below). A shard's first table (16 slots) is its
 * slice of one pool mapped with the state, so that a shard little used
 * takes less than a page; a full table is replaced by one twice its size,
 * mmap'd and populated at once (the blocks moved in touch all its pages
 * anyway, and one call costs less than a page fault a page).
 *
 * A replaced table goes back to the system whole. A walk that could not
 * take a shard's lock (a dump in a signal handler that interrupted its own
 * thread's table operation) reads the shard without it, so it counts
 * itself in unlocked_readers first; the thread that replaces a table
 * publishes the new one, then looks at that count (both sequentially
 * consistent, so one of the two sees the other): none, and the old table
 * is unmapped; some, and it is only emptied (MADV_DONTNEED: its memory
 * goes back, it reads as zeros, a reader cannot fault) and stays mapped
 * for good, address space without memory. A first table stays in the
 * pool.
 */
#include <errno.h>
#include <sched.h>
#include <sys/mman.h>

#include "heap.h"
#include "heap_block.h"

/* mip_rt_heap_lock's slow path, once the lock was found taken. */
void mip_rt_heap_lock_wait(uint32_t *lock) {
  for (unsigned spins = 0;; spins++) {
    if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
      return;
    while (__atomic_load_n(lock, __ATOMIC_RELAXED)) {
      if (++spins < 64)
        mip_rt_cpu_relax();
      else
        sched_yield();
    }
  }
}

int mip_rt_heap_try_lock_for(uint32_t *lock, unsigned tries) {
  for (unsigned spins = 0; spins < tries; spins++) {
    if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
      return 1;
    if (spins < 64)
      mip_rt_cpu_relax();
    else
      sched_yield();
  }
  return 0;
}

/* Where an address goes. Its 64 KiB region picks the shard, and within
 * a region consecutive 16-byte units get consecutive slots: blocks
 * allocated or freed one after the other usually lie close together (an
 * allocator hands out neighbouring chunks, and the most recently freed
 * first), so their slots share cache lines and pages, where a random hash
 * would spread them over the whole table and miss the cache on nearly
 * every operation.
 *
 * A table of up to 4096 slots is one panel: a region's 4096 units go
 * round it from an offset of the region's, so that each region covers it
 * evenly. A larger table is 2^k panels of 4096 slots, one region's units
 * once each: a region's units go to one panel, from an offset there, so
 * that a region still covers its panel evenly and the blocks it holds
 * lie in it in address order, a stream where the allocator's is one; and
 * regions are spread over the panels by the bits of their key right below
 * the shard's, which for consecutive regions (a heap) are spread more
 * evenly than chance would. Probing goes along a line of 8 slots, then
 * to the same line of the next panel (the last panel's goes on to the
 * next line of the first): a panel that holds more regions than it has
 * room for overflows into its neighbour, which the others fill
 * independently, not into its own next lines, as full as this one.
 *
 * (Placing each region's 4096 units at an offset of one table, as this
 * table once did, lets regions overlap at random once the table is
 * larger than a region: where three or four overlapped, probing runs of
 * thousands of slots formed, which every insert, lookup and removal
 * walked, in programs that keep millions of blocks live.) */
#define PANEL_LOG2 12 /* a region's 16-byte units */
#define LINE_LOG2 3   /* 8 keys, a cache line */
#define IN_LINE ((1u << LINE_LOG2) - 1)

static uint64_t region_key(uint64_t addr) {
  return (addr >> MIP_RT_HEAP_REGION_LOG2) * 0x9e3779b97f4a7c15ULL;
}

static struct mip_rt_heap_shard *shard_of(struct mip_rt_heap *h,
                                          uint64_t addr) {
  return &h->shards[region_key(addr) >> 56];
}

/* The functions below take a table's mask (its slots less one) and k,
 * log2 of its panels, and are inlined twice, where k is 0 (one panel,
 * where probing order is slot order) and where it is not: the small
 * tables of most programs keep plain linear probing's few instructions. */
#define INLINE static inline __attribute__((always_inline))

/* Where a block at addr goes, its home: its region's panel and offset
 * there (bits 24 to 35 of the key; a multiple of 8 with panels, so that
 * a line holds 8 consecutive units). */
INLINE uint64_t home_of(uint64_t addr, uint64_t mask, uint64_t k) {
  uint64_t key = region_key(addr);
  if (!k)
    return ((addr >> 4) + (key >> 24)) & mask;
  return (((addr >> 4) + ((key >> 24) & ~(uint64_t)IN_LINE)) &
          ((1u << PANEL_LOG2) - 1)) |
         (key << 8 >> (64 - k)) << PANEL_LOG2;
}

/* Slot p's place in probing order, and the slot at place i: line i >>
 * (3 + k) of panel (i >> 3) mod 2^k, slot i mod 8 of the line. A table
 * of one panel is probed as two halves so, line by line in turn: what
 * overflows a line where several regions' dense stretches meet goes to
 * the other half, where other stretches of theirs lie. */
INLINE uint64_t logical(uint64_t p, uint64_t mask, uint64_t k) {
  if (!k) {
    uint64_t half = mask >> 1;
    return ((p & half) >> LINE_LOG2) << (LINE_LOG2 + 1) |
           (uint64_t)(p > half) << LINE_LOG2 | (p & IN_LINE);
  }
  return ((p & ((1u << PANEL_LOG2) - 1)) >> LINE_LOG2) << (LINE_LOG2 + k) |
         (p >> PANEL_LOG2) << LINE_LOG2 | (p & IN_LINE);
}

INLINE uint64_t physical(uint64_t i, uint64_t mask, uint64_t k) {
  if (!k)
    return ((i >> LINE_LOG2) & 1 ? (mask >> 1) + 1 : 0) |
           (i >> (LINE_LOG2 + 1)) << LINE_LOG2 | (i & IN_LINE);
  return ((i >> LINE_LOG2) & (((uint64_t)1 << k) - 1)) << PANEL_LOG2 |
         (i >> (LINE_LOG2 + k)) << LINE_LOG2 | (i & IN_LINE);
}

#define FIRST_LOG2 MIP_RT_HEAP_SHARD_MIN_LOG2
#define FIRST_BYTES (MIP_RT_HEAP_SLOT_BYTES << FIRST_LOG2)

/* A shard's table word: its keys (64-byte aligned) and log2 of their
 * number in the low bits, 0 when none; the values follow the keys. */
static uint64_t *keys_of(uint64_t table) {
  return (uint64_t *)(uintptr_t)(table & ~(uint64_t)63);
}

static uint64_t mask_of(uint64_t table) {
  return table ? ((uint64_t)1 << (table & 63)) - 1 : 0;
}

static uint32_t *values_of(uint64_t table) {
  return table ? (uint32_t *)(keys_of(table) + mask_of(table) + 1) : NULL;
}

static uint64_t table_bytes(uint64_t table) {
  return (mask_of(table) + 1) * MIP_RT_HEAP_SLOT_BYTES;
}

/* Whether a table is a shard's first, in the pool. */
static int pooled(uint64_t table) { return (table & 63) == FIRST_LOG2; }

void mip_rt_heap_table_unmap(uint64_t table) {
  if (table && !pooled(table))
    munmap(keys_of(table), table_bytes(table));
}

static void move_slot(uint64_t *keys, uint32_t *values, uint64_t to,
                      const uint64_t *from_keys, const uint32_t *from_values,
                      uint64_t from) {
  keys[to] = from_keys[from];
  __builtin_memcpy(values + VALUE_WORDS * to, from_values + VALUE_WORDS * from,
                   VALUE_WORDS * sizeof *values);
}

/* ---- One table -------------------------------------------------------- */

/* Probing is linear, in probing order, and places blocks as Robin Hood
 * hashing does: along a run of taken slots, blocks lie in the order of
 * their homes. So a lookup stops at a block nearer its home than the
 * address looked for would be, and a removal, which moves the rest of the
 * run one slot back, stops at a block at its home: where memory is
 * densely used (16- or 32-byte blocks side by side), blocks sit at their
 * homes in long runs, and both stop at the next slot, where plain linear
 * probing walks the run to its end. */

/* How far physical slot p is from physical slot home in probing order:
 * the slots between in a line, else through the order. */
INLINE uint64_t distance(uint64_t home, uint64_t p, uint64_t mask, uint64_t k) {
  if ((home ^ p) <= IN_LINE && home <= p)
    return p - home;
  return (logical(p, mask, k) - logical(home, mask, k)) & mask;
}

/* The slot after physical slot p in probing order. */
INLINE uint64_t next_of(uint64_t p, uint64_t mask, uint64_t k) {
  if ((p & IN_LINE) != IN_LINE)
    return p + 1;
  return physical((logical(p, mask, k) + 1) & mask, mask, k);
}

/* The slot holding addr, or where it goes: a free slot, or the slot of
 * the first block nearer its home than addr would be (insert_at moves it
 * and the rest of the run on), looking from the slot after addr's home,
 * which holds another block. */
static uint64_t table_find_after(const uint64_t *keys, uint64_t mask,
                                 uint64_t k, uint64_t addr, uint64_t home) {
  for (uint64_t p = next_of(home, mask, k);; p = next_of(p, mask, k)) {
    uint64_t key = keys[p];
    if (!key || (key & ADDR_MASK) == addr ||
        distance(home_of(key & ADDR_MASK, mask, k), p, mask, k) <
            distance(home, p, mask, k))
      return p;
  }
}

/* The slot holding addr, or a free slot: how a block known to be in the
 * table is found, reading keys only (a block is before the run's first
 * free slot, whatever the order within the run). */
static uint64_t find_held(const uint64_t *keys, uint64_t mask, uint64_t k,
                          uint64_t addr, uint64_t home) {
  for (uint64_t p = next_of(home, mask, k);; p = next_of(p, mask, k)) {
    uint64_t key = keys[p];
    if (!key || (key & ADDR_MASK) == addr)
      return p;
  }
}

/* The same from addr's home, where it nearly always is, or goes. */
INLINE uint64_t find_in(const uint64_t *keys, uint64_t mask, uint64_t k,
                        uint64_t addr) {
  uint64_t home = home_of(addr, mask, k), key = keys[home];
  if ((key & ADDR_MASK) == addr || key == 0)
    return home;
  return table_find_after(keys, mask, k, addr, home);
}

/* Puts a block (key, v) at slot p, found for it by find_in, moving the
 * blocks from there up to the next free slot one slot on. */
INLINE void insert_at(uint64_t *keys, uint32_t *values, uint64_t mask,
                      uint64_t k, uint64_t p, uint64_t key, const uint32_t *v) {
  uint32_t carry[VALUE_WORDS], next[VALUE_WORDS];
  __builtin_memcpy(carry, v, sizeof carry);
  for (;; p = next_of(p, mask, k)) {
    uint64_t displaced = keys[p];
    __builtin_memcpy(next, values + VALUE_WORDS * p, sizeof next);
    keys[p] = key;
    __builtin_memcpy(values + VALUE_WORDS * p, carry, sizeof carry);
    if (!displaced)
      return;
    key = displaced;
    __builtin_memcpy(carry, next, sizeof carry);
  }
}

/* Empties slot hole: the blocks after it in its run move one slot back,
 * up to a block at its home. */
INLINE void remove_in(uint64_t *keys, uint32_t *values, uint64_t mask,
                      uint64_t k, uint64_t hole) {
  for (uint64_t p = next_of(hole, mask, k);; p = next_of(p, mask, k)) {
    uint64_t key = keys[p];
    if (!key || home_of(key & ADDR_MASK, mask, k) == p)
      break;
    move_slot(keys, values, hole, keys, values, p);
    hole = p;
  }
  keys[hole] = 0;
}

/* Moves the blocks of a table (keys, values, old_mask) into an empty one
 * of 2^k panels (t, mask): most to their homes, which are free. */
INLINE void move_all(uint64_t *t, uint64_t mask, uint64_t k,
                     const uint64_t *keys, const uint32_t *values,
                     uint64_t old_mask) {
  uint32_t *tvalues = (uint32_t *)(t + mask + 1);
  for (uint64_t i = 0; i <= old_mask; i++) {
    uint64_t key = keys[i], addr = key & ADDR_MASK;
    if (!key)
      continue;
    uint64_t p = home_of(addr, mask, k);
    if (!t[p]) {
      t[p] = key;
      __builtin_memcpy(tvalues + VALUE_WORDS * p, values + VALUE_WORDS * i,
                       VALUE_WORDS * sizeof *values);
    } else {
      insert_at(t, tvalues, mask, k, table_find_after(t, mask, k, addr, p), key,
                values + VALUE_WORDS * i);
    }
  }
}

/* A new table of 2^log2 slots: the next slice of the pool for a shard's
 * first (in the order shards are first used, so that the few a small
 * program uses share pages), mmap'd for the others. */
static uint64_t *new_table(struct mip_rt_heap *h, uint64_t log2) {
  if (log2 == FIRST_LOG2) {
    uint32_t i = __atomic_fetch_add(&h->first_used, 1, __ATOMIC_RELAXED);
    return i < MIP_RT_HEAP_SHARDS /* one a shard: always */
               ? (uint64_t *)(h->first_tables + i * FIRST_BYTES)
               : NULL;
  }
  uint64_t *t = mip_rt_heap_map(MIP_RT_HEAP_SLOT_BYTES << log2);
#ifdef MADV_POPULATE_WRITE /* Linux 5.14; where it fails, pages fault in */
  if (t) {
    int saved = errno;
    madvise(t, MIP_RT_HEAP_SLOT_BYTES << log2, MADV_POPULATE_WRITE);
    errno = saved;
  }
#endif
  return t;
}

/* Replaces the shard's table (locked) by one twice its size, or makes
 * its first. With panels, the blocks of panel c go to panel c or c + 2^k
 * of the new table, in the same line: the new table is written in a few
 * streams, as the old one is read. */
static __attribute__((noinline)) int table_grow(struct mip_rt_heap *h,
                                                struct mip_rt_heap_shard *sh) {
  uint64_t old = sh->table;
  uint64_t log2 = old ? (old & 63) + 1 : FIRST_LOG2;
  uint64_t *t = new_table(h, log2);
  if (!t)
    return -1;
  uint64_t table = (uint64_t)(uintptr_t)t | log2;
  uint64_t mask = mask_of(table);
  if (old && log2 > PANEL_LOG2)
    move_all(t, mask, log2 - PANEL_LOG2, keys_of(old), values_of(old),
             mask_of(old));
  else if (old)
    move_all(t, mask, 0, keys_of(old), values_of(old), mask_of(old));
  __atomic_store_n(&sh->table, table, __ATOMIC_SEQ_CST);
  if (old && !pooled(old)) {
    int saved = errno;
    if (__atomic_load_n(&h->unlocked_readers, __ATOMIC_SEQ_CST) == 0)
      munmap(keys_of(old), table_bytes(old));
    else
      madvise(keys_of(old), table_bytes(old), MADV_DONTNEED);
    errno = saved;
  }
  return 0;
}

/* Makes room for one more block in the shard (locked): at most three
 * quarters full, where a lookup reads one or two slots. Fuller, where
 * several regions share a panel (or the one panel of a small table) the
 * panel is as full as the table on average and fuller in places, and
 * linear probing's runs there grow long even in Robin Hood's order. */
static int room(struct mip_rt_heap *h, struct mip_rt_heap_shard *sh) {
  uint64_t table = sh->table;
  if (__builtin_expect(
          table && (sh->count + 1) * 4 <= (mask_of(table) + 1) * 3, 1))
    return 0;
  return table_grow(h, sh);
}

/* ---- The shards ------------------------------------------------------- */

void mip_rt_heap_table_prefetch(struct mip_rt_heap *h, uint64_t addr) {
  uint64_t table =
      __atomic_load_n(&shard_of(h, addr)->table, __ATOMIC_RELAXED);
  if (!table)
    return;
  uint64_t log2 = table & 63, mask = ((uint64_t)1 << log2) - 1, i;
  uint64_t *keys = keys_of(table);
  if (log2 > PANEL_LOG2) {
    /* and the same line of the next panel, where probing goes on (the
     * removal of a block in a line's last slot looks there) */
    i = home_of(addr, mask, log2 - PANEL_LOG2);
    __builtin_prefetch(keys + ((i + (1u << PANEL_LOG2)) & mask), 1);
  } else {
    i = home_of(addr, mask, 0);
  }
  __builtin_prefetch(keys + i, 1);
  __builtin_prefetch((uint32_t *)(keys + mask + 1) + VALUE_WORDS * i, 1);
}

/* put and take in a table of 2^k panels: inlined where k is 0, called
 * where it is not (only tables of more than 4096 slots have panels), so
 * that small tables' code keeps its registers to itself. */
INLINE int put_in(uint64_t *keys, uint64_t mask, uint64_t k,
                  const struct mip_rt_heap_block *b,
                  struct mip_rt_heap_block *old) {
  uint32_t *values = (uint32_t *)(keys + mask + 1);
  uint64_t i = find_in(keys, mask, k, b->addr);
  if ((keys[i] & ADDR_MASK) == b->addr) {
    mip_rt_heap_block_unpack(old, keys[i], &values[VALUE_WORDS * i]);
    mip_rt_heap_block_pack(&keys[i], &values[VALUE_WORDS * i], b);
    return 1;
  }
  uint64_t key;
  uint32_t v[VALUE_WORDS];
  mip_rt_heap_block_pack(&key, v, b);
  insert_at(keys, values, mask, k, i, key, v);
  return 0;
}

static __attribute__((noinline)) int
table_put_panels(uint64_t *keys, uint64_t mask, uint64_t k,
                 const struct mip_rt_heap_block *b,
                 struct mip_rt_heap_block *old) {
  return put_in(keys, mask, k, b, old);
}

INLINE int take_in(uint64_t *keys, uint64_t mask, uint64_t k, uint64_t addr,
                   struct mip_rt_heap_block *out) {
  uint32_t *values = (uint32_t *)(keys + mask + 1);
  uint64_t hole = home_of(addr, mask, k), key = keys[hole];
  if ((key & ADDR_MASK) != addr) {
    if (!key)
      return 0;
    hole = find_held(keys, mask, k, addr, hole);
    key = keys[hole];
    if ((key & ADDR_MASK) != addr)
      return 0;
  }
  mip_rt_heap_block_unpack(out, key, &values[VALUE_WORDS * hole]);
  remove_in(keys, values, mask, k, hole);
  return 1;
}

static __attribute__((noinline)) int
table_take_panels(uint64_t *keys, uint64_t mask, uint64_t k, uint64_t addr,
                  struct mip_rt_heap_block *out) {
  return take_in(keys, mask, k, addr, out);
}

/* put, once in (solo: by the state's only thread, without the lock). */
INLINE int put_into(struct mip_rt_heap *h, const struct mip_rt_heap_block *b,
                    struct mip_rt_heap_block *old, int solo) {
  if (!b->addr || b->addr > ADDR_MASK)
    return -1;
  struct mip_rt_heap_shard *sh = shard_of(h, b->addr);
  mip_rt_heap_lock_unless(solo, &sh->lock);
  /* A small block's record beside it (heap_tail.c), else the table. */
  int rc = mip_rt_heap_tail_put(&h->tail, b, old);
  if (rc == -2 && (rc = -1, room(h, sh) == 0)) {
    uint64_t *keys = keys_of(sh->table);
    uint64_t log2 = sh->table & 63, mask = mask_of(sh->table);
    rc = log2 > PANEL_LOG2
             ? table_put_panels(keys, mask, log2 - PANEL_LOG2, b, old)
             : put_in(keys, mask, 0, b, old);
    if (!rc)
      sh->count++;
  }
  mip_rt_heap_unlock_unless(solo, &sh->lock);
  return rc;
}

int mip_rt_heap_table_put_as(struct mip_rt_heap *h,
                             const struct mip_rt_heap_block *b,
                             struct mip_rt_heap_block *old, int solo) {
  return put_into(h, b, old, solo);
}

int mip_rt_heap_table_put(struct mip_rt_heap *h,
                          const struct mip_rt_heap_block *b,
                          struct mip_rt_heap_block *old) {
  int solo = mip_rt_heap_solo(&h->timeline);
  int rc = put_into(h, b, old, solo);
  mip_rt_heap_solo_end(&h->timeline, solo);
  return rc;
}

/* The shard that may hold a block at addr, NULL when none can. A shard
 * without blocks holds none at addr, which its count says without its
 * lock (or the way in, mip_rt_heap_solo): a block at addr was put there
 * before the caller could free it (the program saw the allocation
 * return), so its count is seen. What a sampled run does for most frees,
 * and the interposed free for blocks nobody tracks. */
INLINE struct mip_rt_heap_shard *shard_holding(struct mip_rt_heap *h,
                                               uint64_t addr) {
  if (!addr || addr > ADDR_MASK)
    return NULL;
  struct mip_rt_heap_shard *sh = shard_of(h, addr);
  return __atomic_load_n(&sh->count, __ATOMIC_RELAXED) ? sh : NULL;
}

/* take from that shard, once in. */
INLINE int take_from(struct mip_rt_heap_shard *sh, uint64_t addr,
                     struct mip_rt_heap_block *out, int solo) {
  mip_rt_heap_lock_unless(solo, &sh->lock);
  uint64_t table = sh->table;
  int found = 0;
  if (table) {
    uint64_t *keys = keys_of(table);
    uint64_t log2 = table & 63, mask = mask_of(table);
    found = log2 > PANEL_LOG2
                ? table_take_panels(keys, mask, log2 - PANEL_LOG2, addr, out)
                : take_in(keys, mask, 0, addr, out);
    sh->count -= (uint64_t)found;
  }
  mip_rt_heap_unlock_unless(solo, &sh->lock);
  return found;
}

/* take of a record beside its block, once in. */
static int take_beside(struct mip_rt_heap *h, uint64_t addr,
                       struct mip_rt_heap_block *out, int solo) {
  struct mip_rt_heap_shard *sh = shard_of(h, addr);
  mip_rt_heap_lock_unless(solo, &sh->lock);
  int found = mip_rt_heap_tail_take(&h->tail, addr, out);
  mip_rt_heap_unlock_unless(solo, &sh->lock);
  return found;
}

int mip_rt_heap_table_take_as(struct mip_rt_heap *h, uint64_t addr,
                              struct mip_rt_heap_block *out, int solo) {
  if (mip_rt_heap_tail_holds(&h->tail, addr) &&
      take_beside(h, addr, out, solo))
    return 1;
  struct mip_rt_heap_shard *sh = shard_holding(h, addr);
  return sh ? take_from(sh, addr, out, solo) : 0;
}

int mip_rt_heap_table_take(struct mip_rt_heap *h, uint64_t addr,
                           struct mip_rt_heap_block *out) {
  int beside = mip_rt_heap_tail_holds(&h->tail, addr);
  struct mip_rt_heap_shard *sh = shard_holding(h, addr);
  if (!sh && !beside)
    return 0;
  int solo = mip_rt_heap_solo(&h->timeline);
  int found = (beside && take_beside(h, addr, out, solo)) ||
              (sh && take_from(sh, addr, out, solo));
  mip_rt_heap_solo_end(&h->timeline, solo);
  return found;
}

/* A table walk's function, called on the records beside blocks. */
struct walk {
  mip_rt_heap_block_fn fn;
  void *arg;
};

static void walk_beside(struct mip_rt_heap_tail *t,
                        const struct mip_rt_heap_block *b, uint8_t *record,
                        void *arg) {
  (void)t;
  (void)record;
  const struct walk *w = arg;
  w->fn(b, w->arg);
}

void mip_rt_heap_table_walk(struct mip_rt_heap *h, mip_rt_heap_block_fn fn,
                            void *arg) {
  /* Unless the state is shared (or this is the owner's thread), the
   * owner may be changing any shard without its lock: each is read as a
   * shard whose lock could not be had. */
  int shared = mip_rt_heap_share(&h->timeline, 200);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    struct mip_rt_heap_shard *sh = &h->shards[i];
    /* Tables never shrink: at exit a program that freed its blocks has
     * its largest tables, empty, and would read them whole (cmark: 4
     * million lines, 5% of its cache misses in cachegrind). A block born
     * meanwhile on another thread is one the walk could have passed
     * before anyway. */
    if (!__atomic_load_n(&sh->count, __ATOMIC_RELAXED))
      continue;
    int locked = shared && mip_rt_heap_try_lock(&sh->lock);
    if (!locked)
      __atomic_add_fetch(&h->unlocked_readers, 1, __ATOMIC_SEQ_CST);
    uint64_t table = __atomic_load_n(&sh->table, __ATOMIC_SEQ_CST);
    const uint64_t *keys = keys_of(table);
    const uint32_t *values = values_of(table);
    for (uint64_t j = 0; table && j <= mask_of(table); j++) {
      if (keys[j]) {
        struct mip_rt_heap_block b;
        mip_rt_heap_block_unpack(&b, keys[j], &values[VALUE_WORDS * j]);
        fn(&b, arg);
      }
    }
    if (locked)
      mip_rt_heap_unlock(&sh->lock);
    else
      __atomic_sub_fetch(&h->unlocked_readers, 1, __ATOMIC_RELEASE);
  }
  struct walk w = {fn, arg};
  mip_rt_heap_tail_walk(&h->tail, walk_beside, &w);
}

static void disown_beside(struct mip_rt_heap_tail *t,
                          const struct mip_rt_heap_block *b, uint8_t *record,
                          void *arg) {
  (void)arg;
  struct mip_rt_heap_block foreign = *b;
  foreign.generation = MIP_RT_HEAP_FOREIGN;
  mip_rt_heap_tail_rewrite(t, record, &foreign);
}

void mip_rt_heap_table_disown(struct mip_rt_heap *h) {
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    uint64_t table = h->shards[i].table;
    uint64_t *keys = keys_of(table);
    for (uint64_t j = 0; table && j <= mask_of(table); j++)
      if (keys[j])
        keys[j] |= (uint64_t)MIP_RT_HEAP_FOREIGN << GEN_SHIFT;
  }
  mip_rt_heap_tail_walk(&h->tail, disown_beside, NULL);
}

/* The slots a lookup of each block in a table reads, summed; *most:
 * the most one reads. */
INLINE uint64_t probes_in(const uint64_t *keys, uint64_t mask, uint64_t k,
                          uint64_t *most) {
  uint64_t sum = 0;
  for (uint64_t p = 0; p <= mask; p++) {
    if (keys[p]) {
      uint64_t n =
          distance(home_of(keys[p] & ADDR_MASK, mask, k), p, mask, k) + 1;
      sum += n;
      *most = n > *most ? n : *most;
    }
  }
  return sum;
}

uint64_t mip_rt_heap_table_probes(struct mip_rt_heap *h, uint64_t *most) {
  uint64_t sum = 0;
  *most = 0;
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    struct mip_rt_heap_shard *sh = &h->shards[i];
    mip_rt_heap_lock(&sh->lock);
    uint64_t table = sh->table, log2 = table & 63;
    if (table)
      sum += log2 > PANEL_LOG2
                 ? probes_in(keys_of(table), mask_of(table), log2 - PANEL_LOG2,
                             most)
                 : probes_in(keys_of(table), mask_of(table), 0, most);
    mip_rt_heap_unlock(&sh->lock);
  }
  return sum;
}

uint64_t mip_rt_heap_table_count(struct mip_rt_heap *h) {
  uint64_t n = 0;
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    n += __atomic_load_n(&h->shards[i].count, __ATOMIC_RELAXED);
  return n;
}

/* After the switch to multi (a reset or a fork on another thread than the
 * owner's): the locks then keep out every change. */
void mip_rt_heap_lock_all(struct mip_rt_heap *h) {
  mip_rt_heap_share(&h->timeline, 0);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    mip_rt_heap_lock(&h->shards[i].lock);
}

void mip_rt_heap_unlock_all(struct mip_rt_heap *h) {
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    mip_rt_heap_unlock(&h->shards[i].lock);
}
