/*
 * Live blocks by address. The address picks one of 256 shards, each an
 * open-addressing table (linear probing, backward-shift deletion, at most
 * half full) behind a spin lock of its own, so threads working on
 * different blocks rarely meet. Tables are mmap'd, whole pages of slots:
 * the first of a shard holds 128 blocks (one page), and a full one is
 * replaced by one twice its size.
 *
 * A replaced table goes back to the system whole. A walk that could not
 * take a shard's lock (a dump in a signal handler that interrupted its own
 * thread's table operation) reads the shard without it, so it counts
 * itself in unlocked_readers first; the thread that replaces a table
 * publishes the new one, then looks at that count (both sequentially
 * consistent, so one of the two sees the other): none, and the old table
 * is unmapped; some, and it is only emptied (MADV_DONTNEED: its memory
 * goes back, it reads as zeros, a reader cannot fault) and stays mapped
 * for good, address space without memory.
 */
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

int mip_rt_heap_try_lock(uint32_t *lock) {
  for (unsigned spins = 0; spins < 4096; spins++) {
    if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
      return 1;
    if (spins < 64)
      __builtin_ia32_pause();
    else
      sched_yield();
  }
  return 0;
}

static uint64_t mix(uint64_t addr) {
  uint64_t k = addr >> 4; /* blocks are 16-byte aligned */
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

static struct mip_rt_heap_shard *shard_of(struct mip_rt_heap *h, uint64_t k) {
  return &h->shards[k >> 56];
}

#define PAGE 4096u

/* A shard's table word: its slots and their mask (0 when none). */
static struct mip_rt_heap_block *slots_of(uint64_t table) {
  return (struct mip_rt_heap_block *)(uintptr_t)(table & ~(uint64_t)(PAGE - 1));
}

static uint64_t mask_of(uint64_t table) {
  return table ? ((uint64_t)1 << (table & 63)) - 1 : 0;
}

static uint64_t table_bytes(uint64_t table) {
  return (mask_of(table) + 1) * sizeof(struct mip_rt_heap_block);
}

/* The slot holding addr, or the free slot where it would go. */
static struct mip_rt_heap_block *find(struct mip_rt_heap_block *slot,
                                      uint64_t mask, uint64_t k,
                                      uint64_t addr) {
  for (uint64_t i = k;; i++) {
    struct mip_rt_heap_block *b = &slot[i & mask];
    if (b->addr == addr || b->addr == 0)
      return b;
  }
}

/* Makes room for one more block in the shard (locked). */
static int room(struct mip_rt_heap *h, struct mip_rt_heap_shard *sh) {
  uint64_t old = sh->table;
  uint64_t mask = mask_of(old);
  if (old && (sh->count + 1) * 2 <= mask + 1)
    return 0;
  uint64_t log2 = old ? (old & 63) + 1 : MIP_RT_HEAP_SHARD_MIN_LOG2;
  uint64_t bytes = ((uint64_t)1 << log2) * sizeof(struct mip_rt_heap_block);
  void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return -1;
  struct mip_rt_heap_block *t = m, *s = slots_of(old);
  uint64_t tmask = ((uint64_t)1 << log2) - 1;
  for (uint64_t i = 0; old && i <= mask; i++)
    if (s[i].addr)
      *find(t, tmask, mix(s[i].addr), s[i].addr) = s[i];
  __atomic_store_n(&sh->table, (uint64_t)(uintptr_t)t | log2,
                   __ATOMIC_SEQ_CST);
  if (old) {
    if (__atomic_load_n(&h->unlocked_readers, __ATOMIC_SEQ_CST) == 0)
      munmap(s, table_bytes(old));
    else
      madvise(s, table_bytes(old), MADV_DONTNEED);
  }
  return 0;
}

int mip_rt_heap_table_put(struct mip_rt_heap *h,
                          const struct mip_rt_heap_block *b,
                          struct mip_rt_heap_block *old) {
  uint64_t k = mix(b->addr);
  struct mip_rt_heap_shard *sh = shard_of(h, k);
  mip_rt_heap_lock(&sh->lock);
  int rc = -1;
  if (room(h, sh) == 0) {
    struct mip_rt_heap_block *slot =
        find(slots_of(sh->table), mask_of(sh->table), k, b->addr);
    rc = slot->addr != 0;
    if (rc)
      *old = *slot;
    else
      sh->count++;
    *slot = *b;
  }
  mip_rt_heap_unlock(&sh->lock);
  return rc;
}

int mip_rt_heap_table_take(struct mip_rt_heap *h, uint64_t addr,
                           struct mip_rt_heap_block *out) {
  uint64_t k = mix(addr);
  struct mip_rt_heap_shard *sh = shard_of(h, k);
  mip_rt_heap_lock(&sh->lock);
  struct mip_rt_heap_block *s = slots_of(sh->table);
  uint64_t mask = mask_of(sh->table);
  int found = 0;
  if (mask && addr) {
    struct mip_rt_heap_block *slot = find(s, mask, k, addr);
    found = slot->addr != 0;
    if (found) {
      *out = *slot;
      sh->count--;
      /* Backward shift: pull later blocks of the run into the hole when
       * their home is not between the hole and themselves. */
      uint64_t hole = (uint64_t)(slot - s);
      for (uint64_t i = (hole + 1) & mask;; i = (i + 1) & mask) {
        struct mip_rt_heap_block *b = &s[i];
        if (!b->addr)
          break;
        uint64_t home = mix(b->addr) & mask;
        if (((i - home) & mask) >= ((i - hole) & mask)) {
          s[hole] = *b;
          hole = i;
        }
      }
      s[hole].addr = 0;
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
    const struct mip_rt_heap_block *s = slots_of(table);
    for (uint64_t j = 0; table && j <= mask_of(table); j++) {
      struct mip_rt_heap_block b = s[j];
      if (b.addr)
        fn(&b, arg);
    }
    if (locked)
      mip_rt_heap_unlock(&sh->lock);
    else
      __atomic_sub_fetch(&h->unlocked_readers, 1, __ATOMIC_RELEASE);
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
