/*
 * Live blocks by address. The address's 64 KiB region picks one of 256
 * shards, each an open-addressing table (linear probing, backward-shift
 * deletion, at most three quarters full) behind a spin lock of its own,
 * so threads working on different blocks rarely meet, and a thread
 * working in one region of memory keeps to one shard.
 *
 * A table is two arrays with one index: the keys (8 bytes a slot, 0:
 * free), which probing reads, eight to a cache line, and the rest of each
 * block packed into 12 bytes, read once the key is found: 20 bytes a
 * block in all (Packing, below). A shard's first table (16 slots) is its
 * slice of one pool mapped with the state, so that a shard little used
 * takes less than a page; a full table is replaced by one twice its size,
 * mmap'd.
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

/* mip_rt_heap_lock's slow path, once the lock was found taken. */
void mip_rt_heap_lock_wait(uint32_t *lock) {
  for (unsigned spins = 0;; spins++) {
    if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
      return;
    while (__atomic_load_n(lock, __ATOMIC_RELAXED)) {
      if (++spins < 64)
        __builtin_ia32_pause();
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
      __builtin_ia32_pause();
    else
      sched_yield();
  }
  return 0;
}

/* Where an address goes. Its 64 KiB region picks the shard and an offset
 * into the shard's table, and within a region consecutive 16-byte units
 * get consecutive slots: blocks allocated or freed one after the other
 * usually lie close together (an allocator hands out neighbouring chunks,
 * and the most recently freed first), so their slots share cache lines
 * and pages, where a random hash would spread them over the whole table
 * and miss the cache on nearly every operation. Regions are spread by a
 * multiplicative hash, so equal strides in different regions do not pile
 * up on the same slots. */
static uint64_t region_key(uint64_t addr) {
  return (addr >> 16) * 0x9e3779b97f4a7c15ULL;
}

static struct mip_rt_heap_shard *shard_of(struct mip_rt_heap *h,
                                          uint64_t addr) {
  return &h->shards[region_key(addr) >> 56];
}

static uint64_t home_of(uint64_t addr) {
  return (addr >> 4) + (region_key(addr) >> 24);
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

/* ---- Packing ---------------------------------------------------------- */

/* A block in 20 bytes. The key: its address (47 bits: user space, the
 * only addresses the shadow covers; a block above is not tracked), the
 * high bits of its context, its generation and the realloc flag. The
 * value, three u32: size (44 bits, 16 TiB: larger is clamped), CPU (11
 * bits: 2047 is "unknown", CPUs from there up among them) and the low
 * bits of its context; then its allocation time. */
#define ADDR_BITS 47
#define ADDR_MASK (((uint64_t)1 << ADDR_BITS) - 1)
#define SIZE_BITS 44
#define SIZE_MASK (((uint64_t)1 << SIZE_BITS) - 1)
#define CPU_BITS 11
#define CONTEXT_LO_BITS 9
#define CONTEXT_LO_MASK ((1u << CONTEXT_LO_BITS) - 1)
#define CONTEXT_NONE ((1u << 18) - 1)
#define GEN_SHIFT 56
#define FLAG_SHIFT 63
#define VALUE_WORDS 3 /* u32 */

_Static_assert(MIP_RT_HEAP_NO_CPU == (1u << CPU_BITS) - 1, "CPU bits");
_Static_assert(MIP_RT_HEAP_CONTEXTS_MAX == CONTEXT_NONE, "context bits");
_Static_assert(MIP_RT_HEAP_SLOT_BYTES == 8 + VALUE_WORDS * 4, "slot bytes");

static void pack(uint64_t *key, uint32_t *v,
                 const struct mip_rt_heap_block *b) {
  uint64_t size = b->size > SIZE_MASK ? SIZE_MASK : b->size;
  uint32_t context = b->context > CONTEXT_NONE ? CONTEXT_NONE : b->context;
  uint32_t cpu = b->cpu > MIP_RT_HEAP_NO_CPU ? MIP_RT_HEAP_NO_CPU : b->cpu;
  uint64_t low = size | (uint64_t)cpu << SIZE_BITS |
                 (uint64_t)(context & CONTEXT_LO_MASK)
                     << (SIZE_BITS + CPU_BITS);
  *key = b->addr | (uint64_t)(context >> CONTEXT_LO_BITS) << ADDR_BITS |
         (uint64_t)(b->generation & MIP_RT_HEAP_FOREIGN) << GEN_SHIFT |
         (uint64_t)(b->flags & MIP_RT_HEAP_REALLOC) << FLAG_SHIFT;
  __builtin_memcpy(v, &low, sizeof low);
  v[2] = b->alloc_ms;
}

static void unpack(struct mip_rt_heap_block *b, uint64_t key,
                   const uint32_t *v) {
  uint64_t low;
  __builtin_memcpy(&low, v, sizeof low);
  uint32_t context = (uint32_t)((key >> ADDR_BITS) << CONTEXT_LO_BITS |
                                low >> (SIZE_BITS + CPU_BITS)) &
                     CONTEXT_NONE;
  *b = (struct mip_rt_heap_block){
      .addr = key & ADDR_MASK,
      .size = low & SIZE_MASK,
      .alloc_ms = v[2],
      .context = context == CONTEXT_NONE ? MIP_RT_HEAP_NO_CONTEXT : context,
      .cpu = (uint16_t)((low >> SIZE_BITS) & MIP_RT_HEAP_NO_CPU),
      .flags = (uint16_t)(key >> FLAG_SHIFT),
      .generation = (uint32_t)(key >> GEN_SHIFT) & MIP_RT_HEAP_FOREIGN,
  };
}

static void move_slot(uint64_t *keys, uint32_t *values, uint64_t to,
                      const uint64_t *from_keys, const uint32_t *from_values,
                      uint64_t from) {
  keys[to] = from_keys[from];
  __builtin_memcpy(values + VALUE_WORDS * to, from_values + VALUE_WORDS * from,
                   VALUE_WORDS * sizeof *values);
}

/* ---- One table -------------------------------------------------------- */

/* The slot holding addr, or the free slot where it would go. */
static uint64_t find(const uint64_t *keys, uint64_t mask, uint64_t addr) {
  for (uint64_t i = home_of(addr);; i++) {
    uint64_t k = keys[i & mask];
    if ((k & ADDR_MASK) == addr || k == 0)
      return i & mask;
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
  return mip_rt_heap_map(MIP_RT_HEAP_SLOT_BYTES << log2);
}

/* Makes room for one more block in the shard (locked): at most three
 * quarters full, where linear probing still finds a block in two or
 * three probes, nearly always in one cache line of keys. */
static int room(struct mip_rt_heap *h, struct mip_rt_heap_shard *sh) {
  uint64_t old = sh->table;
  uint64_t mask = mask_of(old);
  if (old && (sh->count + 1) * 4 <= (mask + 1) * 3)
    return 0;
  uint64_t log2 = old ? (old & 63) + 1 : FIRST_LOG2;
  uint64_t *t = new_table(h, log2);
  if (!t)
    return -1;
  uint64_t table = (uint64_t)(uintptr_t)t | log2, tmask = mask_of(table);
  const uint64_t *keys = keys_of(old);
  const uint32_t *values = values_of(old);
  uint32_t *tvalues = values_of(table);
  for (uint64_t i = 0; old && i <= mask; i++)
    if (keys[i])
      move_slot(t, tvalues, find(t, tmask, keys[i] & ADDR_MASK), keys, values,
                i);
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

/* ---- The shards ------------------------------------------------------- */

void mip_rt_heap_table_prefetch(struct mip_rt_heap *h, uint64_t addr) {
  uint64_t table =
      __atomic_load_n(&shard_of(h, addr)->table, __ATOMIC_RELAXED);
  uint64_t i = home_of(addr) & mask_of(table);
  if (table) {
    __builtin_prefetch(keys_of(table) + i, 1);
    __builtin_prefetch(values_of(table) + VALUE_WORDS * i, 1);
  }
}

int mip_rt_heap_table_put(struct mip_rt_heap *h,
                          const struct mip_rt_heap_block *b,
                          struct mip_rt_heap_block *old) {
  if (!b->addr || b->addr > ADDR_MASK)
    return -1;
  struct mip_rt_heap_shard *sh = shard_of(h, b->addr);
  mip_rt_heap_lock(&sh->lock);
  int rc = -1;
  if (room(h, sh) == 0) {
    uint64_t *keys = keys_of(sh->table);
    uint32_t *values = values_of(sh->table);
    uint64_t i = find(keys, mask_of(sh->table), b->addr);
    rc = keys[i] != 0;
    if (rc)
      unpack(old, keys[i], &values[VALUE_WORDS * i]);
    else
      sh->count++;
    pack(&keys[i], &values[VALUE_WORDS * i], b);
  }
  mip_rt_heap_unlock(&sh->lock);
  return rc;
}

int mip_rt_heap_table_take(struct mip_rt_heap *h, uint64_t addr,
                           struct mip_rt_heap_block *out) {
  if (!addr || addr > ADDR_MASK)
    return 0;
  struct mip_rt_heap_shard *sh = shard_of(h, addr);
  mip_rt_heap_lock(&sh->lock);
  uint64_t *keys = keys_of(sh->table);
  uint32_t *values = values_of(sh->table);
  uint64_t mask = mask_of(sh->table);
  int found = 0;
  if (mask) {
    uint64_t hole = find(keys, mask, addr);
    found = keys[hole] != 0;
    if (found) {
      unpack(out, keys[hole], &values[VALUE_WORDS * hole]);
      sh->count--;
      /* Backward shift: pull later blocks of the run into the hole when
       * their home is not between the hole and themselves. */
      for (uint64_t i = (hole + 1) & mask; keys[i]; i = (i + 1) & mask) {
        uint64_t home = home_of(keys[i] & ADDR_MASK) & mask;
        if (((i - home) & mask) >= ((i - hole) & mask)) {
          move_slot(keys, values, hole, keys, values, i);
          hole = i;
        }
      }
      keys[hole] = 0;
    }
  }
  mip_rt_heap_unlock(&sh->lock);
  return found;
}

void mip_rt_heap_table_walk(struct mip_rt_heap *h, mip_rt_heap_block_fn fn,
                            void *arg) {
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    struct mip_rt_heap_shard *sh = &h->shards[i];
    int locked = mip_rt_heap_try_lock(&sh->lock);
    if (!locked)
      __atomic_add_fetch(&h->unlocked_readers, 1, __ATOMIC_SEQ_CST);
    uint64_t table = __atomic_load_n(&sh->table, __ATOMIC_SEQ_CST);
    const uint64_t *keys = keys_of(table);
    const uint32_t *values = values_of(table);
    for (uint64_t j = 0; table && j <= mask_of(table); j++) {
      if (keys[j]) {
        struct mip_rt_heap_block b;
        unpack(&b, keys[j], &values[VALUE_WORDS * j]);
        fn(&b, arg);
      }
    }
    if (locked)
      mip_rt_heap_unlock(&sh->lock);
    else
      __atomic_sub_fetch(&h->unlocked_readers, 1, __ATOMIC_RELEASE);
  }
}

void mip_rt_heap_table_disown(struct mip_rt_heap *h) {
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    uint64_t table = h->shards[i].table;
    uint64_t *keys = keys_of(table);
    for (uint64_t j = 0; table && j <= mask_of(table); j++)
      if (keys[j])
        keys[j] |= (uint64_t)MIP_RT_HEAP_FOREIGN << GEN_SHIFT;
  }
}

uint64_t mip_rt_heap_table_count(struct mip_rt_heap *h) {
  uint64_t n = 0;
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    n += __atomic_load_n(&h->shards[i].count, __ATOMIC_RELAXED);
  return n;
}

void mip_rt_heap_lock_all(struct mip_rt_heap *h) {
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    mip_rt_heap_lock(&h->shards[i].lock);
}

void mip_rt_heap_unlock_all(struct mip_rt_heap *h) {
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    mip_rt_heap_unlock(&h->shards[i].lock);
}
