/*
 * Live blocks' records beside the blocks: where the process's malloc is
 * the executable's interposed one (heap_interpose.c), every block it
 * hands out has MIP_RT_HEAP_TAIL_ROOM bytes more than asked for, and a
 * small block's record goes in the last of them, where the hooks find it
 * through malloc_usable_size: no table to look it up in, whose cache
 * misses were half of what the runtime spent on each block of programs
 * that keep millions live (bench/README.md, "The record beside the
 * block"). Larger blocks, and blocks without the room, go to the table.
 *
 * A record is three parts: a check word (the block's address xor a
 * secret drawn when the state starts), the block as the table packs it
 * (12 bytes) and the key's bits above the address. A bit a 16 bytes of
 * address space (8 on 32-bit targets) says a record starts there; a bit
 * a page of those bits, and a bit a page of those, let a walk read only
 * pages that hold any.
 *
 * A walk (a dump, the blocks live at exit) never asks the allocator about
 * a pointer: a block freed where MIP could not see it leaves its bit set
 * over memory that may since have been reused or given back, and glibc's
 * malloc_usable_size on it would follow whatever the word before it says.
 * It looks for the check word from the block's start instead, 4 bytes at
 * a time, within pages mincore says are mapped: small blocks keep the
 * look short. A death clears the check word, so that an old record in
 * reused memory matches nothing, and waits, before the real free, while
 * a walk is under way, so that no walk reads a block freed meanwhile.
 *
 * Every operation here runs under the block's shard lock, as the table's
 * do: a fork and a new generation see no record half written.
 */
#include <errno.h>
#include <sched.h>
#include <sys/mman.h>

#include "heap.h"
#include "heap_block.h"

/* A bit a 16 bytes (8 on 32-bit targets, where glibc's chunks are 8
 * bytes apart): blocks the allocator aligns less go to the table. */
#define GRANULE_LOG2 (sizeof(void *) == 8 ? 4 : 3)
#define GRANULE_MASK (((uint64_t)1 << GRANULE_LOG2) - 1)
/* A word of bits is one region's, and so one shard's: changed only under
 * that shard's lock (or by the state's only thread), with no locked
 * instruction. */
_Static_assert((64u << GRANULE_LOG2) <= (1u << MIP_RT_HEAP_REGION_LOG2),
               "a word of bits within a region");
#define PAGE_BITS_LOG2 15 /* 4 KiB of bits */
#define PAGE_BYTES 4096u
/* How far from a block's start its record can be: the block, the room,
 * and what an allocator rounds a size up by. */
#define LOOK_BYTES (MIP_RT_HEAP_TAIL_MAX + MIP_RT_HEAP_TAIL_ROOM + 64)

/* The addresses covered: those the table takes, within the pointer. */
static uint64_t covered(void) {
  uint64_t limit = MIP_RT_HEAP_TABLE_ADDR_LIMIT;
  return (uint64_t)UINTPTR_MAX < limit ? (uint64_t)UINTPTR_MAX + 1 : limit;
}

/* Bytes of each level: the bits, then one bit a page of the level below. */
static uint64_t level_bytes(int level) {
  uint64_t bits = covered() >> GRANULE_LOG2;
  for (int i = 0; i < level; i++)
    bits = (bits + ((uint64_t)1 << PAGE_BITS_LOG2) - 1) >> PAGE_BITS_LOG2;
  uint64_t bytes = (bits + 7) / 8;
  return (bytes + PAGE_BYTES - 1) & ~(uint64_t)(PAGE_BYTES - 1);
}

int mip_rt_heap_tail_init(struct mip_rt_heap_tail *t,
                          mip_rt_heap_usable_fn usable, uint64_t secret) {
  uint64_t bytes = level_bytes(0) + level_bytes(1) + level_bytes(2);
  uint8_t *m = mip_rt_heap_map(bytes);
  if (!m)
    return -1;
  t->levels[2] = (uint64_t *)m;
  t->levels[1] = (uint64_t *)(m + level_bytes(2));
  t->levels[0] = (uint64_t *)(m + level_bytes(2) + level_bytes(1));
  t->bytes = bytes;
  t->secret = secret | 1; /* never 0: a zeroed word is no check word */
  t->walkers = 0;
  t->fenced = !mip_rt_heap_barrier_works();
  __atomic_store_n(&t->usable, usable, __ATOMIC_RELEASE); /* on */
  return 0;
}

void mip_rt_heap_tail_destroy(struct mip_rt_heap_tail *t) {
  if (t->levels[2])
    munmap(t->levels[2], t->bytes);
  *t = (struct mip_rt_heap_tail){0};
}

/* ---- Bits ------------------------------------------------------------- */

static uint64_t *word_of(uint64_t *level, uint64_t i) { return &level[i >> 6]; }
static uint64_t bit_of(uint64_t i) { return (uint64_t)1 << (i & 63); }

static int bit_set(const struct mip_rt_heap_tail *t, uint64_t addr) {
  uint64_t i = addr >> GRANULE_LOG2;
  return (__atomic_load_n(word_of(t->levels[0], i), __ATOMIC_ACQUIRE) &
          bit_of(i)) != 0;
}

/* Sets the bit of addr and the levels' above it (once: they are never
 * cleared; shared by many shards, they are or'ed in). 1 when the bit was
 * set already. */
static int set_bit(struct mip_rt_heap_tail *t, uint64_t addr) {
  uint64_t i = addr >> GRANULE_LOG2, *w = word_of(t->levels[0], i);
  uint64_t was = __atomic_load_n(w, __ATOMIC_RELAXED);
  __atomic_store_n(w, was | bit_of(i), __ATOMIC_RELEASE);
  if (was & bit_of(i))
    return 1;
  for (int level = 1; level < 3; level++) {
    i >>= PAGE_BITS_LOG2;
    uint64_t *w = word_of(t->levels[level], i);
    if (!(__atomic_load_n(w, __ATOMIC_RELAXED) & bit_of(i)))
      __atomic_fetch_or(w, bit_of(i), __ATOMIC_RELEASE);
  }
  return 0;
}

/* Clears the bit of addr: 1 when it was set. */
static int clear_bit(struct mip_rt_heap_tail *t, uint64_t addr) {
  uint64_t i = addr >> GRANULE_LOG2, *w = word_of(t->levels[0], i);
  uint64_t was = __atomic_load_n(w, __ATOMIC_RELAXED);
  __atomic_store_n(w, was & ~bit_of(i), __ATOMIC_RELAXED);
  return (was & bit_of(i)) != 0;
}

/* ---- Records ---------------------------------------------------------- */

static uint64_t check_word(const struct mip_rt_heap_tail *t, uint64_t addr) {
  return addr ^ t->secret;
}

/* The record of a block of usable bytes at addr: aligned as usable is,
 * which on Armv7 is 4 bytes (glibc's chunks keep a 4-byte size before
 * each), so that records are read and written by copies. */
static uint8_t *record_at(uint64_t addr, uint64_t usable) {
  return (uint8_t *)(uintptr_t)(addr + usable - MIP_RT_HEAP_TAIL_ROOM);
}

static uint64_t load_word(const uint8_t *at) {
  uint64_t w;
  __builtin_memcpy(&w, at, sizeof w);
  return w;
}

static void store_word(uint8_t *at, uint64_t w) {
  __builtin_memcpy(at, &w, sizeof w);
}

/* The check word last: a walk that finds it finds the rest written.
 * The block is packed straight into the record (4-byte aligned at
 * least), whose last word is the key's high bits. */
static void write_record(const struct mip_rt_heap_tail *t, uint8_t *r,
                         const struct mip_rt_heap_block *b) {
  uint32_t *v = (uint32_t *)(void *)(r + 8);
  uint64_t key;
  mip_rt_heap_block_pack(&key, v, b);
  v[3] = (uint32_t)(key >> MIP_RT_HEAP_TABLE_ADDR_BITS);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  store_word(r, check_word(t, b->addr));
}

/* The block whose record is at r, if r is one of addr's. */
static int read_record(const struct mip_rt_heap_tail *t, const uint8_t *r,
                       uint64_t addr, struct mip_rt_heap_block *out) {
  if (load_word(r) != check_word(t, addr))
    return 0;
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  const uint32_t *v = (const uint32_t *)(const void *)(r + 8);
  mip_rt_heap_block_unpack(
      out, addr | (uint64_t)v[3] << MIP_RT_HEAP_TABLE_ADDR_BITS, v);
  return 1;
}

/* Records are looked for this far apart: the alignment of a chunk's
 * usable size. */
#define STEP 4u

/* ---- Operations ------------------------------------------------------- */

/* The allocator's malloc_usable_size, once records are on. */
static mip_rt_heap_usable_fn usable_of(const struct mip_rt_heap_tail *t) {
  return __atomic_load_n(&t->usable, __ATOMIC_ACQUIRE);
}

int mip_rt_heap_tail_put(struct mip_rt_heap_tail *t,
                         const struct mip_rt_heap_block *b,
                         struct mip_rt_heap_block *old) {
  mip_rt_heap_usable_fn usable_size = usable_of(t);
  if (!usable_size || b->size >= MIP_RT_HEAP_TAIL_MAX ||
      (b->addr & GRANULE_MASK) || b->addr >= covered())
    return -2;
  uint64_t usable = usable_size((void *)(uintptr_t)b->addr);
  /* The record is written and read as u32s: an allocator whose usable
   * sizes are not multiples of 4 (glibc's are) gets the table. */
  if (usable < b->size + MIP_RT_HEAP_TAIL_ROOM || (usable & 3))
    return -2;
  uint8_t *r = record_at(b->addr, usable);
  /* A block at addr died unseen: its record, if it is where this one
   * goes (else its check word may linger, and is cleared below). */
  int was_set = bit_set(t, b->addr);
  int replaced = was_set && read_record(t, r, b->addr, old);
  if (was_set && !replaced)
    for (uint8_t *w = (uint8_t *)(uintptr_t)b->addr; w < r; w += STEP)
      if (load_word(w) == check_word(t, b->addr))
        store_word(w, 0);
  write_record(t, r, b);
  set_bit(t, b->addr);
  return replaced;
}

/* Waits while a walk is under way, so that it never reads a block whose
 * bit it saw once the block is freed. The bit cleared before is seen by
 * any walk that counted itself after this reads the count: a walk makes
 * every thread pass a barrier between counting itself and reading bits
 * (mip_rt_heap_tail_walk), which orders this thread's store before its
 * load as a fence here would; without that barrier, the fence. */
static void wait_for_walks(struct mip_rt_heap_tail *t) {
  if (__atomic_load_n(&t->fenced, __ATOMIC_RELAXED))
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  else
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  for (unsigned spins = 0; __atomic_load_n(&t->walkers, __ATOMIC_RELAXED);
       spins++) {
    if (spins < 64)
      mip_rt_cpu_relax();
    else
      sched_yield();
  }
}

int mip_rt_heap_tail_holds(const struct mip_rt_heap_tail *t, uint64_t addr) {
  return usable_of(t) && !(addr & GRANULE_MASK) && addr < covered() &&
         bit_set(t, addr);
}

int mip_rt_heap_tail_take(struct mip_rt_heap_tail *t, uint64_t addr,
                          struct mip_rt_heap_block *out) {
  if (!mip_rt_heap_tail_holds(t, addr) || !clear_bit(t, addr))
    return 0;
  uint8_t *r = record_at(addr, usable_of(t)((void *)(uintptr_t)addr));
  int found = read_record(t, r, addr, out);
  if (found)
    store_word(r, 0); /* no longer a record */
  wait_for_walks(t);
  return found;
}

/* ---- Walks ------------------------------------------------------------ */

/* Whether every page of [from, to) is mapped. */
static int mapped(uint64_t from, uint64_t to) {
  from &= ~(uint64_t)(PAGE_BYTES - 1);
  unsigned char resident[64];
  while (from < to) {
    uint64_t n = (to - from + PAGE_BYTES - 1) / PAGE_BYTES;
    n = n < sizeof resident ? n : sizeof resident;
    int saved = errno;
    int rc = mincore((void *)(uintptr_t)from, n * PAGE_BYTES, resident);
    errno = saved;
    if (rc != 0)
      return 0;
    from += n * PAGE_BYTES;
  }
  return 1;
}

/* The record of the block at addr, looked for from its start. */
static int find_record(const struct mip_rt_heap_tail *t, uint64_t addr,
                       int stretch_mapped, struct mip_rt_heap_block *out,
                       uint8_t **where) {
  uint64_t end = addr + LOOK_BYTES;
  /* Mapped up to here; page by page past it (a block near the end of
   * the heap has its record before the first page that is not). */
  uint64_t known = stretch_mapped ? end + 8 : addr & ~(uint64_t)(PAGE_BYTES - 1);
  for (uint8_t *w = (uint8_t *)(uintptr_t)addr;
       (uint64_t)(uintptr_t)w < end; w += STEP) {
    uint64_t need = (uint64_t)(uintptr_t)w + 8;
    if (need > known) {
      uint64_t to = (need + PAGE_BYTES - 1) & ~(uint64_t)(PAGE_BYTES - 1);
      if (!mapped(known, to))
        return 0;
      known = to;
    }
    if (read_record(t, w, addr, out)) {
      *where = w;
      return 1;
    }
  }
  return 0;
}

/* The blocks whose bits are in one page of bits (index page of level 0):
 * 512 KiB of addresses, mapped as a whole or looked at block by block. */
static void walk_page(struct mip_rt_heap_tail *t, uint64_t page,
                      mip_rt_heap_tail_fn fn, void *arg) {
  const uint64_t *words = t->levels[0] + (page << (PAGE_BITS_LOG2 - 6));
  uint64_t first = page << (PAGE_BITS_LOG2 + GRANULE_LOG2);
  uint64_t span = (uint64_t)1 << (PAGE_BITS_LOG2 + GRANULE_LOG2);
  int stretch_mapped = mapped(first, first + span + LOOK_BYTES + 8);
  for (uint64_t i = 0; i < ((uint64_t)1 << (PAGE_BITS_LOG2 - 6)); i++) {
    for (uint64_t w = __atomic_load_n(&words[i], __ATOMIC_ACQUIRE); w;
         w &= w - 1) {
      uint64_t addr = first + ((i << 6 | (uint64_t)__builtin_ctzll(w))
                               << GRANULE_LOG2);
      struct mip_rt_heap_block b;
      uint8_t *r;
      if (find_record(t, addr, stretch_mapped, &b, &r))
        fn(t, &b, r, arg);
    }
  }
}

/* The pages of level - 1 whose bits are set in level's words [from, to). */
static void walk_level(struct mip_rt_heap_tail *t, int level, uint64_t from,
                       uint64_t to, mip_rt_heap_tail_fn fn, void *arg) {
  for (uint64_t i = from; i < to; i++)
    for (uint64_t w = __atomic_load_n(&t->levels[level][i], __ATOMIC_ACQUIRE);
         w; w &= w - 1) {
      uint64_t page = i << 6 | (uint64_t)__builtin_ctzll(w);
      if (level == 1)
        walk_page(t, page, fn, arg);
      else
        walk_level(t, level - 1, page << (PAGE_BITS_LOG2 - 6),
                   (page + 1) << (PAGE_BITS_LOG2 - 6), fn, arg);
    }
}

void mip_rt_heap_tail_walk(struct mip_rt_heap_tail *t, mip_rt_heap_tail_fn fn,
                           void *arg) {
  if (!usable_of(t))
    return;
  __atomic_add_fetch(&t->walkers, 1, __ATOMIC_SEQ_CST);
  /* The barrier the deaths do without (wait_for_walks). Refused where it
   * worked before (a filter on system calls installed since): deaths
   * fence from now on, and this walk, which one under way may not have
   * seen, reads no record. */
  int safe = __atomic_load_n(&t->fenced, __ATOMIC_RELAXED) ||
             mip_rt_heap_barrier() == 0;
  if (!safe)
    __atomic_store_n(&t->fenced, 1, __ATOMIC_SEQ_CST);
  else
    walk_level(t, 2, 0, level_bytes(2) / 8, fn, arg);
  __atomic_sub_fetch(&t->walkers, 1, __ATOMIC_SEQ_CST);
}

void mip_rt_heap_tail_rewrite(struct mip_rt_heap_tail *t, uint8_t *r,
                              const struct mip_rt_heap_block *b) {
  write_record(t, r, b);
}
