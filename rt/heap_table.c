/*
 * Live blocks by address. The address picks one of 256 shards, each an
 * open-addressing table (linear probing, backward-shift deletion, at most
 * half full) behind a spin lock of its own, so threads working on
 * different blocks rarely meet. Tables are mmap'd: the first of a shard
 * holds MIP_RT_HEAP_SHARD_MIN blocks, and a full one is replaced by one
 * twice its size. A replaced table is not unmapped but emptied
 * (MADV_DONTNEED: its memory goes back, it reads as zeros), so a dump
 * that reads a shard without its lock can never fault.
 */
#include <sched.h>
#include <sys/mman.h>

#include "heap.h"

void mip_rt_heap_lock(uint32_t *lock) {
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

static struct mip_rt_heap_slots *new_slots(uint64_t n) {
  uint64_t bytes = sizeof(struct mip_rt_heap_slots) +
                   n * sizeof(struct mip_rt_heap_block);
  void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return NULL;
  struct mip_rt_heap_slots *s = m;
  s->mask = n - 1;
  s->bytes = bytes;
  return s;
}

/* The slot holding addr, or the free slot where it would go. */
static struct mip_rt_heap_block *find(struct mip_rt_heap_slots *s, uint64_t k,
                                      uint64_t addr) {
  for (uint64_t i = k;; i++) {
    struct mip_rt_heap_block *b = &s->slot[i & s->mask];
    if (b->addr == addr || b->addr == 0)
      return b;
  }
}

/* Makes room for one more block in the shard (locked). */
static int room(struct mip_rt_heap_shard *sh) {
  struct mip_rt_heap_slots *s = sh->slots;
  if (s && (sh->count + 1) * 2 <= s->mask + 1)
    return 0;
  struct mip_rt_heap_slots *t =
      new_slots(s ? 2 * (s->mask + 1) : MIP_RT_HEAP_SHARD_MIN);
  if (!t)
    return -1;
  if (s) {
    for (uint64_t i = 0; i <= s->mask; i++) {
      const struct mip_rt_heap_block *b = &s->slot[i];
      if (b->addr)
        *find(t, mix(b->addr), b->addr) = *b;
    }
  }
  t->replaced = s;
  __atomic_store_n(&sh->slots, t, __ATOMIC_RELEASE);
  if (s) {
    uintptr_t page = ((uintptr_t)s + 4095) & ~(uintptr_t)4095;
    uintptr_t end = ((uintptr_t)s + s->bytes) & ~(uintptr_t)4095;
    if (end > page)
      madvise((void *)page, end - page, MADV_DONTNEED);
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
  if (room(sh) == 0) {
    struct mip_rt_heap_block *slot = find(sh->slots, k, b->addr);
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
  struct mip_rt_heap_slots *s = sh->slots;
  int found = 0;
  if (s && addr) {
    struct mip_rt_heap_block *slot = find(s, k, addr);
    found = slot->addr != 0;
    if (found) {
      *out = *slot;
      sh->count--;
      /* Backward shift: pull later blocks of the run into the hole when
       * their home is not between the hole and themselves. */
      uint64_t hole = (uint64_t)(slot - s->slot);
      for (uint64_t i = (hole + 1) & s->mask;; i = (i + 1) & s->mask) {
        struct mip_rt_heap_block *b = &s->slot[i];
        if (!b->addr)
          break;
        uint64_t home = mix(b->addr) & s->mask;
        if (((i - home) & s->mask) >= ((i - hole) & s->mask)) {
          s->slot[hole] = *b;
          hole = i;
        }
      }
      s->slot[hole].addr = 0;
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
    struct mip_rt_heap_slots *s =
        __atomic_load_n(&sh->slots, __ATOMIC_ACQUIRE);
    for (uint64_t j = 0; s && j <= s->mask; j++) {
      struct mip_rt_heap_block b = s->slot[j];
      if (b.addr)
        fn(&b, arg);
    }
    if (locked)
      mip_rt_heap_unlock(&sh->lock);
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
