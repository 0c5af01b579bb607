/* The heap runtime's pieces, each on a heap state of the test's own: the
 * live-block table (alone and under 8 threads), the stack depot, the
 * frame-pointer walk, MemInfoBlock arithmetic, and the raw payloads,
 * decoded again with the layout decoders. No test maps the process's
 * shadow (it would clash with AddressSanitizer in the sanitizer pass):
 * states count into a small shadow of their own, for addresses near 0. */
#include <fcntl.h>
#include <link.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../rt/heap/heap.h"
#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

/* A shadow for addresses [0, 64 * SHADOW_GRANULES). */
#define SHADOW_GRANULES (1u << 16)

static uint64_t *new_shadow(void) {
  void *m = mmap(NULL, SHADOW_GRANULES * 8, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  return m;
}

static struct mip_rt_heap *new_heap(uint64_t *shadow, uint32_t contexts) {
  struct mip_rt_heap *h = malloc(sizeof *h);
  struct mip_rt_heap_config c = {
      .shadow = (uintptr_t)shadow,
      .depth = 8,
      .contexts = contexts,
      .depot_slots = 4 * contexts,
      .arena_words = 1u << 16,
  };
  ck_assert_int_eq(mip_rt_heap_init(h, &c), 0);
  return h;
}

static void free_heap(struct mip_rt_heap *h) {
  mip_rt_heap_destroy(h);
  free(h);
}

/* ---- table ------------------------------------------------------------ */

static struct mip_rt_heap_block block(uint64_t addr, uint64_t size) {
  return (struct mip_rt_heap_block){.addr = addr, .size = size, .context = 7};
}

START_TEST(table_puts_takes_and_replaces) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  struct mip_rt_heap_block b = block(0x1000, 24), old, out;
  ck_assert_int_eq(mip_rt_heap_table_take(h, 0x1000, &out), 0);
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  b.size = 48;
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 1);
  ck_assert_uint_eq(old.size, 24);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 1);
  ck_assert_int_eq(mip_rt_heap_table_take(h, 0x1000, &out), 1);
  ck_assert_uint_eq(out.size, 48);
  ck_assert_uint_eq(out.context, 7);
  ck_assert_int_eq(mip_rt_heap_table_take(h, 0x1000, &out), 0);
  ck_assert_int_eq(mip_rt_heap_table_take(h, 0, &out), 0);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
  free_heap(h);
}
END_TEST

static void count_block(const struct mip_rt_heap_block *b, void *arg) {
  uint64_t *sum = arg;
  sum[0]++;
  sum[1] += b->addr;
}

/* Many blocks (every shard grows several times), then every other one
 * out: the rest must all still be found (backward-shift deletion). */
/* Blocks of sizes 1 to n at 16, 32, ... 16 n: every shard they fall in
 * grows several times. */
static void put_many(struct mip_rt_heap *h, uint64_t n) {
  struct mip_rt_heap_block old;
  for (uint64_t i = 1; i <= n; i++) {
    struct mip_rt_heap_block b = block(i * 16, i);
    ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  }
}

START_TEST(table_grows_and_deletes) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  const uint64_t n = 200000;
  struct mip_rt_heap_block out;
  put_many(h, n);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), n);
  for (uint64_t i = 2; i <= n; i += 2)
    ck_assert_int_eq(mip_rt_heap_table_take(h, i * 16, &out), 1);
  uint64_t sum[2] = {0, 0}, want = 0;
  mip_rt_heap_table_walk(h, count_block, sum);
  for (uint64_t i = 1; i <= n; i += 2)
    want += i * 16;
  ck_assert_uint_eq(sum[0], n / 2);
  ck_assert_uint_eq(sum[1], want);
  for (uint64_t i = 1; i <= n; i += 2) {
    ck_assert_int_eq(mip_rt_heap_table_take(h, i * 16, &out), 1);
    ck_assert_uint_eq(out.size, i);
  }
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
  free_heap(h);
}
END_TEST

/* A table's bytes (table word: address | log2 of its slots). */
static size_t table_bytes(uint64_t table);

/* ---- records beside the blocks -------------------------------------- */

/* Blocks of the tests' own allocator: 64 usable bytes each, side by side
 * in one mapping, so that a test can take the memory away under them. */
#define ARENA_BYTES (1u << 20)
static size_t usable_64(void *p) {
  (void)p;
  return 64;
}

static uint8_t *new_arena(void) {
  void *m = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  return m;
}

static struct mip_rt_heap *heap_with_tails(void) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  ck_assert_int_eq(mip_rt_heap_tail_init(&h->tail, usable_64, 12345), 0);
  return h;
}

/* Small blocks with room go beside themselves, not in the table: put,
 * walked, taken once; a block without room, or too large, goes to the
 * table. Twice: deaths ordered against walks by the walks' barrier on
 * every thread (_i 0), and, as where the kernel has none, by a fence of
 * their own (1). */
START_TEST(tail_keeps_small_blocks_beside_them) {
  struct mip_rt_heap *h = heap_with_tails();
  h->tail.fenced = (uint32_t)_i;
  uint8_t *arena = new_arena();
  struct mip_rt_heap_block old, out;
  uint64_t want = 0;
  for (uint64_t i = 0; i < 1000; i++) {
    struct mip_rt_heap_block b = block((uint64_t)(uintptr_t)arena + i * 64,
                                       1 + i % 40);
    b.generation = 3;
    ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
    want += b.addr;
  }
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0); /* none in the table */
  struct mip_rt_heap_block roomless = block(0x1000, 48); /* 48 + 24 > 64 */
  ck_assert_int_eq(mip_rt_heap_table_put(h, &roomless, &old), 0);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 1);
  uint64_t sum[2] = {0, 0};
  mip_rt_heap_table_walk(h, count_block, sum);
  ck_assert_uint_eq(sum[0], 1001);
  ck_assert_uint_eq(sum[1], want + 0x1000);
  for (uint64_t i = 0; i < 1000; i += 2) {
    uint64_t addr = (uint64_t)(uintptr_t)arena + i * 64;
    ck_assert_int_eq(mip_rt_heap_table_take(h, addr, &out), 1);
    ck_assert_uint_eq(out.addr, addr);
    ck_assert_uint_eq(out.size, 1 + i % 40);
    ck_assert_uint_eq(out.context, 7);
    ck_assert_uint_eq(out.generation, 3);
    ck_assert_int_eq(mip_rt_heap_table_take(h, addr, &out), 0);
  }
  sum[0] = sum[1] = 0;
  mip_rt_heap_table_walk(h, count_block, sum);
  ck_assert_uint_eq(sum[0], 501);
  munmap(arena, ARENA_BYTES);
  free_heap(h);
}
END_TEST

/* A block born where one died unseen replaces it; a record the program
 * wrote over is no record (its block is not taken, nor walked); and a
 * walk over bits whose memory is gone reads none of it. */
START_TEST(tail_survives_unseen_deaths_and_lost_memory) {
  struct mip_rt_heap *h = heap_with_tails();
  uint8_t *arena = new_arena();
  uint64_t a = (uint64_t)(uintptr_t)arena;
  struct mip_rt_heap_block old, out, b = block(a, 10), c = block(a, 20);
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  ck_assert_int_eq(mip_rt_heap_table_put(h, &c, &old), 1);
  ck_assert_uint_eq(old.size, 10);
  struct mip_rt_heap_block d = block(a + 64, 30);
  ck_assert_int_eq(mip_rt_heap_table_put(h, &d, &old), 0);
  memset(arena + 64, 0xff, 64); /* the program wrote over all of it */
  ck_assert_int_eq(mip_rt_heap_table_take(h, a + 64, &out), 0);
  uint64_t sum[2] = {0, 0};
  mip_rt_heap_table_walk(h, count_block, sum);
  ck_assert_uint_eq(sum[0], 1);
  for (uint64_t i = 2; i < 100; i++) {
    struct mip_rt_heap_block e = block(a + i * 64, 8);
    ck_assert_int_eq(mip_rt_heap_table_put(h, &e, &old), 0);
  }
  ck_assert_int_eq(munmap(arena, ARENA_BYTES), 0); /* freed unseen, gone */
  sum[0] = sum[1] = 0;
  mip_rt_heap_table_walk(h, count_block, sum);
  ck_assert_uint_eq(sum[0], 0);
  free_heap(h);
}
END_TEST


/* Where a table's slots start, and whether shard i's table is mapped on
 * its own (past its first, which is a slice of a pool). */
static void *table_keys(uint64_t table) {
  return (void *)(uintptr_t)(table & ~(uint64_t)63);
}

static int own_table(struct mip_rt_heap *h, int i) {
  uint64_t t = h->shards[i].table;
  return t && (t & 63) != MIP_RT_HEAP_SHARD_MIN_LOG2;
}

/* Tables never shrink: a program that freed its blocks ends with its
 * largest tables empty, and a walk (the profile written at exit) must
 * not read them. Here they are made unreadable: reading one faults. One
 * block kept in a pooled first table is still found. */
START_TEST(table_walk_skips_empty_shards) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  const uint64_t n = 200000;
  struct mip_rt_heap_block old, out;
  put_many(h, n);
  for (uint64_t i = 1; i <= n; i++)
    ck_assert_int_eq(mip_rt_heap_table_take(h, i * 16, &out), 1);
  struct mip_rt_heap_block kept = block((uint64_t)1 << 40, 5);
  ck_assert_int_eq(mip_rt_heap_table_put(h, &kept, &old), 0);
  int hidden = 0;
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    if (own_table(h, i) && !h->shards[i].count) {
      uint64_t t = h->shards[i].table;
      ck_assert_int_eq(mprotect(table_keys(t), table_bytes(t), PROT_NONE), 0);
      hidden++;
    }
  ck_assert_int_gt(hidden, 0);
  uint64_t sum[2] = {0, 0};
  mip_rt_heap_table_walk(h, count_block, sum);
  ck_assert_uint_eq(sum[0], 1);
  ck_assert_uint_eq(sum[1], (uint64_t)1 << 40);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    if (own_table(h, i) && !h->shards[i].count)
      mprotect(table_keys(h->shards[i].table),
               table_bytes(h->shards[i].table), PROT_READ | PROT_WRITE);
  free_heap(h);
}
END_TEST

/* A table's bytes (table word: address | log2 of its slots). */
static size_t table_bytes(uint64_t table) {
  return ((size_t)1 << (table & 63)) * MIP_RT_HEAP_SLOT_BYTES;
}

/* Whether the table is mapped (msync fails with ENOMEM if not). */
static int mapped(uint64_t table) {
  void *p = (void *)(uintptr_t)(table & ~(uint64_t)4095);
  return msync(p, table_bytes(table), MS_ASYNC) == 0;
}

/* Whether every shard's table differs from was[i] (NULL: is there). */
static int all_differ(struct mip_rt_heap *h, const uint64_t *was) {
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    if (h->shards[i].table == (was ? was[i] : 0))
      return 0;
  return 1;
}

/* One block in each 64 KiB region: the regions' shards in turn. */
static void put_next(struct mip_rt_heap *h, uint64_t *next) {
  struct mip_rt_heap_block b = block(*next << 16, 1), old;
  ++*next;
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
}

/* Until every shard's table differs from was[i] (all 0: none yet); then
 * was holds them. */
static void grow_all(struct mip_rt_heap *h, uint64_t *next, uint64_t *was) {
  while (!all_differ(h, was))
    put_next(h, next);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    was[i] = h->shards[i].table;
}

/* A shard's first table is its slice of the pool; a replaced table after
 * it is unmapped, unless a walk is reading a shard without its lock: then
 * it stays mapped, emptied. A walk that cannot take a shard's lock reads
 * it anyway, and counts itself while it does. */
START_TEST(table_retires_replaced_tables) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  uint64_t next = 1, first[MIP_RT_HEAP_SHARDS] = {0};
  uint64_t second[MIP_RT_HEAP_SHARDS];
  uint64_t third[MIP_RT_HEAP_SHARDS];
  grow_all(h, &next, first);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    first[i] = h->shards[i].table;
    ck_assert_uint_eq(first[i] & 63, MIP_RT_HEAP_SHARD_MIN_LOG2);
    uint8_t *t = (uint8_t *)(uintptr_t)(first[i] & ~(uint64_t)63);
    ck_assert(t >= h->first_tables &&
              t < h->first_tables + MIP_RT_HEAP_FIRST_TABLES_BYTES);
  }
  memcpy(second, first, sizeof second);
  grow_all(h, &next, second);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++)
    ck_assert_uint_eq(second[i] & 4095 & ~(uint64_t)63, 0);
  /* A reader, then every shard grows again. */
  h->unlocked_readers = 1;
  memcpy(third, second, sizeof third);
  grow_all(h, &next, third);
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    ck_assert_uint_ne(third[i], second[i]);
    ck_assert(mapped(second[i]));
    const uint64_t *words = (const uint64_t *)(uintptr_t)(second[i] & ~4095ull);
    ck_assert_uint_eq(words[0] | words[table_bytes(second[i]) / 8 - 1],
                      0); /* emptied */
  }
  h->unlocked_readers = 0;
  uint64_t fourth[MIP_RT_HEAP_SHARDS];
  memcpy(fourth, third, sizeof fourth);
  grow_all(h, &next, fourth);
  /* Unmapped: mmap may have handed its pages to a newer table since. */
  for (int i = 0; i < MIP_RT_HEAP_SHARDS; i++) {
    ck_assert_uint_ne(h->shards[i].table, third[i]);
    uint64_t lo = third[i] & ~4095ull, reused = 0;
    for (int j = 0; j < MIP_RT_HEAP_SHARDS; j++) {
      uint64_t t = h->shards[j].table, tlo = t & ~4095ull;
      uint64_t thi = tlo + table_bytes(t);
      reused |= lo >= tlo && lo < thi;
    }
    ck_assert(reused || !mapped(third[i]));
  }
  /* Shard 0 held by someone else: walked all the same. */
  h->shards[0].lock = 1;
  uint64_t sum[2] = {0, 0};
  mip_rt_heap_table_walk(h, count_block, sum);
  ck_assert_uint_eq(sum[0], next - 1);
  ck_assert_uint_eq(h->unlocked_readers, 0);
  h->shards[0].lock = 0;
  free_heap(h);
}
END_TEST

/* A block's fields come back as they went in (packed in the table), and
 * a forked child whose generations wrap makes every live block the
 * parent's. */
START_TEST(table_keeps_fields_and_generations) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  struct mip_rt_heap_block b = {.addr = 0x7ffff0001233,
                                .size = (1ull << 43) + 5,
                                .alloc_ms = 0xfedcba98,
                                .context = MIP_RT_HEAP_CONTEXTS_MAX - 1,
                                .cpu = MIP_RT_HEAP_NO_CPU,
                                .flags = MIP_RT_HEAP_REALLOC,
                                .generation = 126},
                           old, out;
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  b.addr += 16, b.context = MIP_RT_HEAP_NO_CONTEXT, b.cpu = 3, b.flags = 0;
  b.generation = 0;
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  ck_assert_int_eq(mip_rt_heap_table_take(h, 0x7ffff0001233, &out), 1);
  ck_assert_uint_eq(out.size, (1ull << 43) + 5);
  ck_assert_uint_eq(out.alloc_ms, 0xfedcba98);
  ck_assert_uint_eq(out.context, MIP_RT_HEAP_CONTEXTS_MAX - 1);
  ck_assert_uint_eq(out.cpu, MIP_RT_HEAP_NO_CPU);
  ck_assert_uint_eq(out.flags, MIP_RT_HEAP_REALLOC);
  ck_assert_uint_eq(out.generation, 126);
  h->generation = MIP_RT_HEAP_FOREIGN - 1;
  mip_rt_heap_lock_all(h);
  mip_rt_heap_forget(h);
  ck_assert_uint_eq(h->generation, 0);
  ck_assert_int_eq(mip_rt_heap_table_take(h, 0x7ffff0001243, &out), 1);
  ck_assert_uint_eq(out.context, MIP_RT_HEAP_NO_CONTEXT);
  ck_assert_uint_eq(out.cpu, 3);
  ck_assert_uint_eq(out.generation, MIP_RT_HEAP_FOREIGN);
  /* Sizes from 16 TiB up are clamped; CPUs from 2047 up are unknown; an
   * address above user space is not tracked. */
  b = (struct mip_rt_heap_block){.addr = 0x1000, .size = 1ull << 50,
                                 .context = 511, .cpu = 5000};
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  ck_assert_int_eq(mip_rt_heap_table_take(h, 0x1000, &out), 1);
  ck_assert_uint_eq(out.size, (1ull << 44) - 1);
  ck_assert_uint_eq(out.context, 511);
  ck_assert_uint_eq(out.cpu, MIP_RT_HEAP_NO_CPU);
  b.addr = 1ull << 47;
  ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), -1);
  ck_assert_int_eq(mip_rt_heap_table_take(h, 1ull << 47, &out), 0);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
  free_heap(h);
}
END_TEST

/* A heap as an allocator lays out a parser's tree: n blocks side by
 * side from base, each 32 to 80 bytes from the one before (glibc's chunks
 * for 16- to 64-byte requests, mixed), or every step bytes when step is
 * not 0. The same addresses every run. */
static uint64_t *tree_heap(uint64_t n, uint64_t base, uint64_t step) {
  uint64_t *addr = malloc(n * sizeof *addr), seed = 0x2545f4914f6cdd1dULL;
  ck_assert_ptr_nonnull(addr);
  for (uint64_t i = 0; i < n; i++) {
    addr[i] = base;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    base += step ? step : 32 + 16 * ((seed >> 33) % 4);
  }
  return addr;
}

/* Mean slots a lookup reads, times 100, and the most any reads. */
static uint64_t probes_x100(struct mip_rt_heap *h, uint64_t *most) {
  uint64_t n = mip_rt_heap_table_count(h);
  return n ? mip_rt_heap_table_probes(h, most) * 100 / n : 0;
}

/* Every block of addr[0..n) by a walk, once: their number and the sum of
 * their addresses. */
static void walk_finds(struct mip_rt_heap *h, const uint64_t *addr,
                       uint64_t n) {
  uint64_t sum[2] = {0, 0}, want = 0;
  for (uint64_t i = 0; i < n; i++)
    want += addr[i];
  mip_rt_heap_table_walk(h, count_block, sum);
  ck_assert_uint_eq(sum[0], n);
  ck_assert_uint_eq(sum[1], want);
}

/* Two million blocks over some 1600 regions of 64 KiB, six thousand a
 * shard, as a program that keeps a whole document tree live has them:
 * lookups read one or two slots however many blocks are live (a table
 * that placed regions at random offsets made runs of thousands of slots
 * where they overlapped), through growth, removals and reinsertions. */
START_TEST(table_stays_near_home_with_many_regions) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  const uint64_t n = 2000000;
  uint64_t *addr = tree_heap(n, 0x100000000ull, 0), most, x100;
  struct mip_rt_heap_block old, out;
  for (uint64_t i = 0; i < n; i++) {
    struct mip_rt_heap_block b = block(addr[i], i % 61);
    ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
    if (i + 1 == n / 64 || i + 1 == n / 8) {
      x100 = probes_x100(h, &most);
      ck_assert_uint_le(x100, 130);
      ck_assert_uint_le(most, 16);
    }
  }
  ck_assert_uint_eq(mip_rt_heap_table_count(h), n);
  x100 = probes_x100(h, &most);
  ck_assert_uint_le(x100, 130);
  ck_assert_uint_le(most, 16);
  walk_finds(h, addr, n);
  /* Every third out, then back: as near home as before. */
  for (uint64_t i = 0; i < n; i += 3) {
    ck_assert_int_eq(mip_rt_heap_table_take(h, addr[i], &out), 1);
    ck_assert_uint_eq(out.size, i % 61);
  }
  for (uint64_t i = 0; i < n; i += 3)
    ck_assert_int_eq(mip_rt_heap_table_take(h, addr[i], &out), 0);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), n - (n + 2) / 3);
  for (uint64_t i = 0; i < n; i += 3) {
    struct mip_rt_heap_block b = block(addr[i], 7);
    ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  }
  x100 = probes_x100(h, &most);
  ck_assert_uint_le(x100, 130);
  ck_assert_uint_le(most, 16);
  /* A block put again replaces the one there. */
  struct mip_rt_heap_block again = block(addr[1], 99);
  ck_assert_int_eq(mip_rt_heap_table_put(h, &again, &old), 1);
  ck_assert_uint_eq(old.size, 1);
  /* All out, in an order far from the addresses'. */
  for (uint64_t j = 0, i = 0; j < n; j++, i = (i + 1000003) % n) {
    ck_assert_int_eq(mip_rt_heap_table_take(h, addr[i], &out), 1);
    ck_assert_uint_eq(out.size, i == 1 ? 99 : i % 3 ? i % 61 : 7);
  }
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
  free(addr);
  free_heap(h);
}
END_TEST

/* Memory used densely: blocks 16 bytes apart (one a slot's unit, two
 * regions to a panel where they collide) and 32 bytes apart, in whole
 * regions and in part of one. Blocks stay at or next to their homes, and
 * every one is found again, taken in address order, in reverse and at
 * random. */
START_TEST(table_holds_dense_regions) {
  static const struct {
    uint64_t n, step;
  } runs[] = {{3000, 16}, {3000, 32}, {700000, 16}, {600000, 32}};
  for (unsigned r = 0; r < sizeof runs / sizeof runs[0]; r++) {
    struct mip_rt_heap *h = new_heap(NULL, 16);
    uint64_t n = runs[r].n, most;
    uint64_t *addr = tree_heap(n, 0x7f0000000000ull + (r << 20), runs[r].step);
    struct mip_rt_heap_block old, out;
    for (uint64_t i = 0; i < n; i++) {
      struct mip_rt_heap_block b = block(addr[i], i % 7);
      ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
    }
    ck_assert_uint_le(probes_x100(h, &most), 110);
    ck_assert_uint_le(most, 16);
    walk_finds(h, addr, n);
    for (uint64_t i = 0; i < n; i += 2)
      ck_assert_int_eq(mip_rt_heap_table_take(h, addr[i], &out), 1);
    for (uint64_t i = n - 1 - n % 2; i < n; i -= 2) {
      ck_assert_int_eq(mip_rt_heap_table_take(h, addr[i], &out), 1);
      ck_assert_uint_eq(out.size, i % 7);
    }
    ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
    for (uint64_t i = 0; i < n; i++) {
      struct mip_rt_heap_block b = block(addr[i], 3);
      ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
    }
    for (uint64_t j = 0, i = 0; j < n; j++, i = (i + 7919) % n)
      ck_assert_int_eq(mip_rt_heap_table_take(h, addr[i], &out), 1);
    ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
    free(addr);
    free_heap(h);
  }
}
END_TEST

/* Blocks at random 16-byte units of 64 MiB of memory, about half of them
 * live at a time, four regions a shard: lines, panels and the halves of
 * one-panel tables overflow into each other, runs form and shift. Every
 * put and take must agree with a plain map of the units. */
START_TEST(table_agrees_with_a_map_under_random_operations) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  const uint64_t units = 1u << 22, base = 0x400000000ull;
  uint8_t *map = calloc(units, 1); /* the size of the block there, 0: none */
  uint64_t seed = 0x9e3779b97f4a7c15ull, live = 0, most;
  struct mip_rt_heap_block old, out;
  ck_assert_ptr_nonnull(map);
  for (uint64_t op = 0; op < 6000000; op++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    uint64_t u = (seed >> 20) % units, addr = base + u * 16;
    uint8_t size = (uint8_t)(1 + (seed >> 56) % 255);
    if (op < units / 2 || !map[u]) { /* grow to half full, then churn */
      struct mip_rt_heap_block b = block(addr, size);
      int was = map[u] != 0;
      ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), was);
      if (was)
        ck_assert_uint_eq(old.size, map[u]);
      live += !was;
      map[u] = size;
    } else {
      ck_assert_int_eq(mip_rt_heap_table_take(h, addr, &out), 1);
      ck_assert_uint_eq(out.size, map[u]);
      ck_assert_int_eq(mip_rt_heap_table_take(h, addr, &out), 0);
      map[u] = 0;
      live--;
    }
  }
  ck_assert_uint_eq(mip_rt_heap_table_count(h), live);
  ck_assert_uint_le(probes_x100(h, &most), 200);
  for (uint64_t u = 0; u < units; u++) {
    ck_assert_int_eq(mip_rt_heap_table_take(h, base + u * 16, &out),
                     map[u] != 0);
    if (map[u])
      ck_assert_uint_eq(out.size, map[u]);
  }
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
  free(map);
  free_heap(h);
}
END_TEST

/* A forked child whose generations wrap makes every block the parent's,
 * in tables of many panels too, and finds each again. */
START_TEST(table_disowns_large_tables) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  const uint64_t n = 500000;
  uint64_t *addr = tree_heap(n, 0x200000000ull, 0);
  struct mip_rt_heap_block old, out;
  for (uint64_t i = 0; i < n; i++) {
    struct mip_rt_heap_block b = block(addr[i], 5);
    b.generation = (uint32_t)(i % 100);
    ck_assert_int_eq(mip_rt_heap_table_put(h, &b, &old), 0);
  }
  h->generation = MIP_RT_HEAP_FOREIGN - 1;
  mip_rt_heap_lock_all(h);
  mip_rt_heap_forget(h);
  ck_assert_uint_eq(h->generation, 0);
  walk_finds(h, addr, n);
  for (uint64_t i = 0; i < n; i++) {
    ck_assert_int_eq(mip_rt_heap_table_take(h, addr[i], &out), 1);
    ck_assert_uint_eq(out.generation, MIP_RT_HEAP_FOREIGN);
    ck_assert_uint_eq(out.context, 7);
  }
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
  free(addr);
  free_heap(h);
}
END_TEST

/* 8 threads allocate and free their own blocks in 4 shared contexts at
 * once; every count and byte must arrive, and every block be gone. */
#define THREADS 8
#define PER_THREAD 20000

struct worker {
  struct mip_rt_heap *h;
  uint32_t contexts[4];
  int id;
};

static void *work(void *arg) {
  struct worker *w = arg;
  for (uint64_t i = 0; i < PER_THREAD; i++) {
    uint64_t addr = ((uint64_t)w->id << 32) + 16 * (i + 1);
    uint32_t c = w->contexts[i % 4];
    mip_rt_heap_born(w->h, addr, 1 + i % 4, c, 0, 0, 0);
    if (i % 2)
      mip_rt_heap_free(w->h, addr - 16, 1, 0);
    if (i % 2)
      mip_rt_heap_free(w->h, addr, 1, 0);
  }
  return NULL;
}

START_TEST(table_counts_exactly_under_threads) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  uint32_t contexts[4];
  for (uintptr_t k = 0; k < 4; k++) {
    uintptr_t frames[2] = {0x400000 + k, 0x500000};
    contexts[k] = mip_rt_heap_context_of(h, frames, 2, 0, 0x1000 + k);
    ck_assert_uint_eq(contexts[k], k);
  }
  pthread_t t[THREADS];
  struct worker w[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (struct worker){h, {contexts[0], contexts[1], contexts[2],
                               contexts[3]},
                           i + 1};
    ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 0);
  for (int k = 0; k < 4; k++) {
    const struct mip_rt_heap_context *c = &h->contexts[k];
    /* Blocks i with i % 4 == k: PER_THREAD / 4 per thread, size 1 + k. */
    ck_assert_uint_eq(c->mib.AllocCount, THREADS * PER_THREAD / 4);
    ck_assert_uint_eq(c->mib.TotalSize,
                      (uint64_t)THREADS * PER_THREAD / 4 * (1 + k));
    ck_assert_uint_eq(c->live, 0);
    ck_assert_uint_ge(c->peak, 1 + k);
  }
  ck_assert_uint_eq(h->stats[MIP_RT_HEAP_STAT_FREED_UNSEEN], 0);
  free_heap(h);
}
END_TEST

/* ---- depot ------------------------------------------------------------ */

START_TEST(depot_deduplicates_stacks) {
  struct mip_rt_heap *h = new_heap(NULL, 4);
  uintptr_t a[3] = {0x401000, 0x402000, 0x403000};
  uintptr_t b[3] = {0x401000, 0x402000, 0x403001};
  uint32_t ca = mip_rt_heap_context_of(h, a, 3, 0, 0x10);
  ck_assert_uint_eq(ca, 0);
  ck_assert_uint_eq(mip_rt_heap_context_of(h, a, 3, 0, 0x10), ca);
  uint32_t cb = mip_rt_heap_context_of(h, b, 3, 0, 0x20);
  ck_assert_uint_eq(cb, 1);
  /* A prefix, and the same frames cut at the limit, are other stacks. */
  ck_assert_uint_eq(mip_rt_heap_context_of(h, a, 2, 0, 0x10), 2);
  ck_assert_uint_eq(
      mip_rt_heap_context_of(h, a, 3, MIP_RT_HEAP_TRUNCATED, 0x10), 3);
  ck_assert_uint_eq(
      mip_rt_heap_context_of(h, a, 3, MIP_RT_HEAP_TRUNCATED, 0x10), 3);
  /* Full: 4 contexts. */
  uintptr_t c[1] = {0x9999};
  ck_assert_uint_eq(mip_rt_heap_context_of(h, c, 1, 0, 0),
                    MIP_RT_HEAP_NO_CONTEXT);
  ck_assert_uint_eq(mip_rt_heap_context_of(h, a, 3, 0, 0x10), ca);
  uint32_t depth, flags;
  const uint64_t *frames = mip_rt_heap_stack_of(h, 3, &depth, &flags);
  ck_assert_ptr_nonnull(frames);
  ck_assert_uint_eq(depth, 3);
  ck_assert_uint_eq(flags, MIP_RT_HEAP_TRUNCATED);
  ck_assert_uint_eq(frames[2], 0x403000);
  ck_assert_uint_eq(h->contexts[1].site, 0x20);
  free_heap(h);
}
END_TEST

/* Two sites whose hooks the compiler merged return to one address: the
 * same frames, two contexts, each with its own site. */
START_TEST(depot_keeps_sites_apart) {
  struct mip_rt_heap *h = new_heap(NULL, 4);
  uintptr_t a[3] = {0x401000, 0x402000, 0x403000};
  uint32_t first = mip_rt_heap_context_of(h, a, 3, 0, 0x10);
  uint32_t second = mip_rt_heap_context_of(h, a, 3, 0, 0x11);
  ck_assert_uint_ne(first, second);
  ck_assert_uint_eq(mip_rt_heap_context_of(h, a, 3, 0, 0x10), first);
  ck_assert_uint_eq(mip_rt_heap_context_of(h, a, 3, 0, 0x11), second);
  ck_assert_uint_eq(h->contexts[first].site, 0x10);
  ck_assert_uint_eq(h->contexts[second].site, 0x11);
  uint32_t depth, flags;
  const uint64_t *frames = mip_rt_heap_stack_of(h, second, &depth, &flags);
  ck_assert_ptr_nonnull(frames);
  ck_assert_uint_eq(depth, 3);
  ck_assert_uint_eq(frames[0], 0x401000);
  ck_assert_uint_eq(frames[2], 0x403000);
  free_heap(h);
}
END_TEST

/* 8 threads insert the same 1000 stacks at once: each stack gets one
 * context, whichever thread publishes it first. */
#define STACKS 1000

struct inserter {
  struct mip_rt_heap *h;
  uint32_t got[STACKS];
};

static void *insert_stacks(void *arg) {
  struct inserter *in = arg;
  for (uintptr_t i = 0; i < STACKS; i++) {
    uintptr_t frames[3] = {0x400000 + i, 0x500000 + i % 7, 0x600000};
    in->got[i] = mip_rt_heap_context_of(in->h, frames, 3, 0, 0x100 + i);
  }
  return NULL;
}

START_TEST(depot_agrees_under_threads) {
  struct mip_rt_heap *h = new_heap(NULL, 4096);
  static struct inserter in[THREADS];
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) {
    in[i].h = h;
    ck_assert_int_eq(pthread_create(&t[i], NULL, insert_stacks, &in[i]), 0);
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  for (uintptr_t s = 0; s < STACKS; s++) {
    ck_assert_uint_ne(in[0].got[s], MIP_RT_HEAP_NO_CONTEXT);
    for (int i = 1; i < THREADS; i++)
      ck_assert_uint_eq(in[i].got[s], in[0].got[s]);
    uint32_t depth, flags;
    const uint64_t *f = mip_rt_heap_stack_of(h, in[0].got[s], &depth, &flags);
    ck_assert_uint_eq(depth, 3);
    ck_assert_uint_eq(f[0], 0x400000 + s);
    ck_assert_uint_eq(h->contexts[in[0].got[s]].site, 0x100 + s);
  }
  free_heap(h);
}
END_TEST

/* ---- unwinding -------------------------------------------------------- */

/* A walk, and a lookup of the recent walks, from an allocation at a
 * site, 0 unless said. */
static uint32_t walk_at(const void *fp, uintptr_t site,
                        struct mip_rt_heap_stack *st, uint32_t limit) {
  st->site = site;
  return mip_rt_heap_unwind(fp, st, limit);
}

static uint32_t walk(const void *fp, struct mip_rt_heap_stack *st,
                     uint32_t limit) {
  return walk_at(fp, 0, st, limit);
}

static int again_at(const void *fp, uintptr_t site, uint32_t limit,
                    uint32_t serial, uint32_t *context) {
  uint64_t hit = mip_rt_heap_recent_again(fp, site, limit, serial);
  if (hit)
    *context = mip_rt_heap_recent_context(hit);
  return hit != 0;
}

static int again(const void *fp, uint32_t limit, uint32_t serial,
                 uint32_t *context) {
  return again_at(fp, 0, limit, serial, context);
}

/* Frames laid out by hand on this thread's stack: [next fp, return].
 * Not under AddressSanitizer, which would move the array to a stack of its
 * own (detect_stack_use_after_return). */
__attribute__((no_sanitize("address"), noinline)) static void unwind_test(void) {
  uintptr_t s[16] __attribute__((aligned(16)));
  memset(s, 0, sizeof s);
  /* s[0..1] is the runtime's own frame, then three more. */
  s[0] = (uintptr_t)&s[4], s[1] = 0x1001;
  s[4] = (uintptr_t)&s[8], s[5] = 0x2002;
  s[8] = (uintptr_t)&s[12], s[9] = 0x3003;
  s[12] = 0, s[13] = 0x4004; /* next frame 0: the end */
  struct mip_rt_heap_stack st;
  const uintptr_t *frames = st.frames;
  ck_assert_uint_eq(walk(s, &st, 8), 4);
  ck_assert_uint_eq(frames[0], 0x1001);
  ck_assert_uint_eq(frames[3], 0x4004);
  ck_assert_uint_eq(st.flags, 0);
  ck_assert_uint_eq(st.hash, mip_rt_heap_stack_hash(frames, 4, 0));
  ck_assert_uint_eq(walk(s, &st, 2), 2);
  ck_assert_uint_eq(frames[1], 0x2002);
  ck_assert_uint_eq(st.flags, MIP_RT_HEAP_TRUNCATED);
  ck_assert_uint_eq(st.hash,
                    mip_rt_heap_stack_hash(frames, 2, MIP_RT_HEAP_TRUNCATED));
  ck_assert_uint_eq(walk(s, &st, 4), 4);
  ck_assert_uint_eq(st.flags, 0);

  /* The walk is recorded: while every frame it visited holds, the context
   * found for it comes back without a walk. */
  uint32_t context;
  ck_assert_uint_eq(walk(s, &st, 8), 4);
  ck_assert_int_eq(again(s, 8, 1, &context), 0);
  mip_rt_heap_recent_found(&st, 42, 1);
  ck_assert_int_eq(again(s, 8, 1, &context), 1);
  ck_assert_uint_eq(context, 42);
  ck_assert_int_eq(again(s, 4, 1, &context), 0);
  ck_assert_int_eq(again(s, 8, 2, &context), 0);
  s[13] = 0x4005; /* a return address far out */
  ck_assert_int_eq(again(s, 8, 1, &context), 0);
  s[13] = 0x4004;
  ck_assert_int_eq(again(s, 8, 1, &context), 1);
  s[12] = (uintptr_t)&s[14]; /* the end moves on */
  ck_assert_int_eq(again(s, 8, 1, &context), 0);
  s[12] = 0;
  /* Two sites whose hooks return to one address walk the same frames:
   * each site's walk is its own, with its own context. */
  ck_assert_int_eq(again_at(s, 0x77, 8, 1, &context), 0);
  walk_at(s, 0x77, &st, 8);
  mip_rt_heap_recent_found(&st, 43, 1);
  ck_assert_int_eq(again_at(s, 0x77, 8, 1, &context), 1);
  ck_assert_uint_eq(context, 43);
  ck_assert_int_eq(again(s, 8, 1, &context), 1);
  ck_assert_uint_eq(context, 42);
  /* Walks from one frame that differ deeper down are kept side by side,
   * four of them; a fifth replaces the one used least recently. */
  for (uintptr_t v = 0; v < 5; v++) {
    s[13] = 0x4000 + v;
    walk(s, &st, 8);
    mip_rt_heap_recent_found(&st, 100 + v, 1);
  }
  for (uintptr_t v = 4; v >= 1; v--) {
    s[13] = 0x4000 + v;
    ck_assert_int_eq(again(s, 8, 1, &context), 1);
    ck_assert_uint_eq(context, 100 + v);
  }
  s[13] = 0x4000;
  ck_assert_int_eq(again(s, 8, 1, &context), 0);
  s[13] = 0x4004;
  /* Walks from one frame and site that differ in the caller right after
   * it (an allocation wrapper called from many places at one depth) are
   * spread over the sets by that caller, where four ways would replace
   * each before it is used again. Which set a caller gets depends on where
   * the stack is, so the count kept is not fixed; it stays four only if
   * all sixteen fall in one set (one chance in 8^15). A record found is
   * always the right one. */
  uint32_t kept = 0;
  for (uintptr_t v = 0; v < 16; v++) {
    s[5] = 0x2100 + v;
    walk(s, &st, 8);
    mip_rt_heap_recent_found(&st, 200 + v, 1);
  }
  for (uintptr_t v = 0; v < 16; v++) {
    s[5] = 0x2100 + v;
    if (again(s, 8, 1, &context) == 1) {
      ck_assert_uint_eq(context, 200 + v);
      kept++;
    }
  }
  ck_assert_uint_gt(kept, 4);
  s[5] = 0x2002;
  /* A walk as deep as the record holds, and one deeper, which is not
   * kept. */
  uintptr_t deep[2 * 70] __attribute__((aligned(16)));
  for (int i = 0; i < 70; i++) {
    deep[2 * i] = i + 1 < 70 ? (uintptr_t)&deep[2 * i + 2] : 0;
    deep[2 * i + 1] = 0x1000 + i;
  }
  deep[2 * 63] = 0;
  ck_assert_uint_eq(walk(deep, &st, 128), 64);
  mip_rt_heap_recent_found(&st, 7, 1);
  ck_assert_int_eq(again(deep, 128, 1, &context), 1);
  ck_assert_uint_eq(context, 7);
  deep[2 * 63] = (uintptr_t)&deep[128];
  ck_assert_uint_eq(walk(deep, &st, 128), 70);
  mip_rt_heap_recent_found(&st, 8, 1);
  ck_assert_int_eq(again(deep, 128, 1, &context), 0);

  /* Going down, misaligned, or off the stack: the walk stops there. */
  s[8] = (uintptr_t)&s[2];
  ck_assert_uint_eq(walk(s, &st, 8), 3);
  s[8] = (uintptr_t)&s[12] + 4;
  ck_assert_uint_eq(walk(s, &st, 8), 3);
  static uintptr_t elsewhere[4];
  s[8] = (uintptr_t)elsewhere;
  ck_assert_uint_eq(walk(s, &st, 8), 3);
  /* A frame not on this thread's stack: only its return address. */
  elsewhere[0] = (uintptr_t)&s[4], elsewhere[1] = 0x5005;
  ck_assert_uint_eq(walk(elsewhere, &st, 8), 1);
  ck_assert_uint_eq(frames[0], 0x5005);
}

START_TEST(unwind_follows_checks_and_truncates) { unwind_test(); }
END_TEST

/* ---- MemInfoBlocks ---------------------------------------------------- */

/* Sampling (heap_sample.c): each block's chance is 1 - exp(-size/rate)
 * to the last digits libm gives, the weights its inverse, and the
 * countdown records blocks at that rate: of 200000 blocks of 4 KiB at a
 * rate of 64 KiB, p * 200000 within 5 standard errors. */
START_TEST(sampling_chance_weights_and_rate) {
  static const uint64_t sizes[] = {1, 16, 100, 4096, 32768, 65536, 300000,
                                   1u << 20, 1u << 26};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    double want = -expm1(-(double)sizes[i] / 65536.0);
    double got = mip_rt_heap_sample_chance(65536, sizes[i]);
    ck_assert_msg(fabs(got - want) <= 1e-12 * want, "size %llu: %.17g, want %.17g",
                  (unsigned long long)sizes[i], got, want);
    uint64_t weight, bytes;
    mip_rt_heap_sample_weigh(65536, sizes[i], &weight, &bytes);
    ck_assert_uint_eq(weight, (uint64_t)(65536.0 / want + 0.5));
    ck_assert_uint_eq(bytes, (uint64_t)((double)sizes[i] / want + 0.5));
  }
  ck_assert(mip_rt_heap_sample_chance(65536, 0) == 0);
  mip_rt_heap_sample_seed = 12345;
  uint64_t hits = 0, n = 200000;
  for (uint64_t i = 0; i < n; i++)
    hits += (uint64_t)mip_rt_heap_sampled(65536, 4096);
  double p = -expm1(-4096.0 / 65536.0), mean = p * (double)n;
  double se = sqrt((double)n * p * (1 - p));
  ck_assert_msg(fabs((double)hits - mean) <= 5 * se, "%llu hits, want %.0f +- %.0f",
                (unsigned long long)hits, mean, 5 * se);
  mip_rt_heap_sample_seed = 0;
}
END_TEST

START_TEST(mib_follows_memprof) {
  struct mip_rt_mib a, b, c, m = {0};
  /* 100 bytes, 50 accesses, 10 → 30 ms, CPU 1 → 1: density 50 * 100 / 100
   * = 50, lifetime 20, per second 50 * 1000 / 20 = 2500. */
  mip_rt_heap_mib_block(&a, 100, 50, 10, 30, 1, 1);
  ck_assert_uint_eq(a.TotalAccessDensity, 50);
  ck_assert_uint_eq(a.TotalLifetimeAccessDensity, 2500);
  ck_assert_uint_eq(a.NumMigratedCpu, 0);
  /* 300 bytes, 9 accesses, 25 → 26 on CPU 2 → 3: density 3, lifetime 1,
   * per second 3000; allocated before a died: an overlap. */
  mip_rt_heap_mib_block(&b, 300, 9, 25, 26, 2, 3);
  /* 0 bytes (divides by 1), 4 accesses, 40 → 40 (lifetime counts as 1 ms)
   * on CPU 3: density 400, per second 400000. */
  mip_rt_heap_mib_block(&c, 0, 4, 40, 40, 3, 3);
  ck_assert_uint_eq(c.TotalAccessDensity, 400);
  ck_assert_uint_eq(c.TotalLifetimeAccessDensity, 400000);
  mip_rt_heap_mib_merge(&m, &a);
  ck_assert_mem_eq(&m, &a, sizeof m);
  mip_rt_heap_mib_merge(&m, &b);
  mip_rt_heap_mib_merge(&m, &c);
  ck_assert_uint_eq(m.AllocCount, 3);
  ck_assert_uint_eq(m.TotalAccessCount, 63);
  ck_assert_uint_eq(m.MinAccessCount, 4);
  ck_assert_uint_eq(m.MaxAccessCount, 50);
  ck_assert_uint_eq(m.TotalSize, 400);
  ck_assert_uint_eq(m.MinSize, 0);
  ck_assert_uint_eq(m.MaxSize, 300);
  ck_assert_uint_eq(m.AllocTimestamp, 40);
  ck_assert_uint_eq(m.DeallocTimestamp, 40);
  ck_assert_uint_eq(m.TotalLifetime, 21);
  ck_assert_uint_eq(m.MinLifetime, 0);
  ck_assert_uint_eq(m.MaxLifetime, 20);
  ck_assert_uint_eq(m.AllocCpuId, 3);
  ck_assert_uint_eq(m.DeallocCpuId, 3);
  ck_assert_uint_eq(m.NumMigratedCpu, 1);
  ck_assert_uint_eq(m.NumLifetimeOverlaps, 1); /* b: 25 < 30; c: 40 >= 26 */
  ck_assert_uint_eq(m.NumSameAllocCpu, 0);     /* 1→2, 2→3 */
  ck_assert_uint_eq(m.NumSameDeallocCpu, 1);   /* 1→3, 3→3 */
  ck_assert_uint_eq(m.TotalAccessDensity, 453);
  ck_assert_uint_eq(m.MinAccessDensity, 3);
  ck_assert_uint_eq(m.MaxAccessDensity, 400);
  ck_assert_uint_eq(m.TotalLifetimeAccessDensity, 405500);
  ck_assert_uint_eq(m.MinLifetimeAccessDensity, 2500);
  ck_assert_uint_eq(m.MaxLifetimeAccessDensity, 400000);
  ck_assert_uint_eq(m.LiveAtExitCount, 0);
  ck_assert_uint_eq(m.PeakLiveSize, 0);

  /* The same blocks added without their own MemInfoBlocks. */
  struct mip_rt_mib n = {0};
  mip_rt_heap_mib_add(&n, 100, 50, 10, 30, 1, 1, 0);
  mip_rt_heap_mib_add(&n, 300, 9, 25, 26, 2, 3, 0);
  mip_rt_heap_mib_add(&n, 0, 4, 40, 40, 3, 3, 0);
  ck_assert_mem_eq(&n, &m, sizeof m);
  struct mip_rt_mib big = m;
  mip_rt_heap_mib_add(&n, 1ull << 62, ~0ull, 0, 0xffffffff, UINT32_MAX, 0, 1);
  mip_rt_heap_mib_block(&a, 1ull << 62, ~0ull, 0, 0xffffffff, UINT32_MAX, 0);
  a.ReallocCount = 1;
  mip_rt_heap_mib_merge(&big, &a);
  ck_assert_mem_eq(&n, &big, sizeof big);

  /* Encoded at the widths of mib.inc, u32 fields saturating. */
  uint8_t out[MIP_RT_HEAP_MIB_BYTES];
  m.AllocCount = 1ull << 40;
  mip_rt_heap_mib_encode(&m, out);
  ck_assert_uint_eq(mip_get_le32(out), UINT32_MAX);
  ck_assert_uint_eq(mip_get_le64(out + 4), 63);
  ck_assert_uint_eq(MIP_RT_HEAP_MIB_FIELDS, 33);
  ck_assert_uint_eq(MIP_RT_HEAP_MIB_BYTES, 188);
}
END_TEST

/* Densities are exact quotients whatever the divisor: every size and
 * lifetime up to past the runtime's table of reciprocals (1024), each with
 * dividends around multiples of it, up to the largest 32-bit ones and
 * beyond. */
START_TEST(mib_densities_divide_exactly) {
  static const uint64_t quotients[] = {0, 1, 2, 3, 7, 100, 4095, 65537,
                                       1000003, 4194303, 42949672, 429496729,
                                       4294967295u, 4294967296u};
  struct mip_rt_mib m;
  for (uint64_t d = 2; d < 1100; d++) {
    for (size_t i = 0; i < sizeof quotients / sizeof quotients[0]; i++) {
      /* count * 100 / size, the size d */
      for (uint64_t c = quotients[i] * d / 100, k = 0; k < 5; k++, c++) {
        mip_rt_heap_mib_block(&m, d, c + 1, 0, 0, 0, 0);
        ck_assert_uint_eq(m.TotalAccessDensity, (c + 1) * 100 / d);
      }
      /* density * 1000 / lifetime, the density count (100 bytes) and the
       * lifetime d ms */
      for (uint64_t c = quotients[i] * d / 1000, k = 0; k < 5; k++, c++) {
        mip_rt_heap_mib_block(&m, 100, c + 1, 7, (uint32_t)(7 + d), 0, 0);
        ck_assert_uint_eq(m.TotalLifetimeAccessDensity, (c + 1) * 1000 / d);
      }
    }
  }
}
END_TEST

/* Blocks against a state: births clear their granules, deaths sum them,
 * a block whose address comes back is closed as freed unseen. */
START_TEST(state_counts_accesses_and_lifetimes) {
  uint64_t *shadow = new_shadow();
  struct mip_rt_heap *h = new_heap(shadow, 16);
  uintptr_t frames[1] = {0x400100};
  uint32_t c = mip_rt_heap_context_of(h, frames, 1, 0, 0x77);
  shadow[2] = shadow[3] = shadow[4] = 99; /* stale counts */
  /* 130 bytes at 128: granules 2, 3 and 4 (bytes 128..257). */
  mip_rt_heap_born(h, 128, 130, c, 0, 5, 1);
  ck_assert_uint_eq(shadow[2] + shadow[3] + shadow[4], 0);
  shadow[2] += 3, shadow[4] += 7, shadow[5] += 100;
  ck_assert_int_eq(mip_rt_heap_free(h, 128, 25, 2), 1);
  ck_assert_int_eq(mip_rt_heap_free(h, 128, 25, 2), 0);
  const struct mip_rt_mib *m = &h->contexts[c].mib;
  ck_assert_uint_eq(m->AllocCount, 1);
  ck_assert_uint_eq(m->TotalAccessCount, 10);
  ck_assert_uint_eq(m->TotalLifetime, 20);
  ck_assert_uint_eq(m->TotalAccessDensity, 10 * 100 / 130);
  ck_assert_uint_eq(m->NumMigratedCpu, 1);
  ck_assert_uint_eq(h->contexts[c].peak, 130);
  ck_assert_uint_eq(h->contexts[c].live, 0);

  /* Born twice at 1024 without a free between: the first dies unseen. */
  mip_rt_heap_born(h, 1024, 8, c, 0, 30, 1);
  shadow[16] = 4;
  mip_rt_heap_born(h, 1024, 16, c, MIP_RT_HEAP_REALLOC, 40, 1);
  ck_assert_uint_eq(h->stats[MIP_RT_HEAP_STAT_FREED_UNSEEN], 1);
  ck_assert_uint_eq(m->AllocCount, 2);
  ck_assert_uint_eq(m->TotalAccessCount, 14);
  ck_assert_uint_eq(shadow[16], 0);
  ck_assert_uint_eq(h->contexts[c].live, 16);
  ck_assert_uint_eq(h->contexts[c].peak, 130);
  ck_assert_int_eq(mip_rt_heap_free(h, 1024, 50, 1), 1);
  ck_assert_uint_eq(m->ReallocCount, 1);
  ck_assert_uint_eq(m->AllocCount, 3);

  /* A realloc that fails puts its block back as it was. */
  mip_rt_heap_born(h, 2048, 8, c, 0, 60, 1);
  struct mip_rt_heap_taken t;
  ck_assert_int_eq(mip_rt_heap_take(h, 2048, &t, 61, 1), 1);
  mip_rt_heap_settle(h, &t, 0);
  ck_assert_uint_eq(m->AllocCount, 3);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 1);

  /* After a fork, the parent's live blocks die silently in the child. */
  mip_rt_heap_lock_all(h);
  mip_rt_heap_forget(h);
  ck_assert_uint_eq(m->AllocCount, 0);
  ck_assert_int_eq(mip_rt_heap_free(h, 2048, 70, 1), 1);
  ck_assert_uint_eq(m->AllocCount, 0);
  mip_rt_heap_born(h, 2048, 8, c, 0, 80, 1);
  ck_assert_int_eq(mip_rt_heap_free(h, 2048, 90, 1), 1);
  ck_assert_uint_eq(m->AllocCount, 1);
  ck_assert_uint_eq(h->stats[MIP_RT_HEAP_STAT_FREED_UNSEEN], 0);
  free_heap(h);
  munmap(shadow, SHADOW_GRANULES * 8);
}
END_TEST

START_TEST(shadow_clears_sums_and_touches) {
  uint64_t *shadow = new_shadow();
  uintptr_t base = (uintptr_t)shadow;
  mip_rt_heap_shadow_touch(base, 60, 10); /* granules 0 and 1 */
  mip_rt_heap_shadow_touch(base, 64, 64); /* granule 1 */
  mip_rt_heap_shadow_touch(base, 64, 0);  /* nothing */
  ck_assert_uint_eq(shadow[0], 1);
  ck_assert_uint_eq(shadow[1], 2);
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(base, 0, 128), 3);
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(base, 64, 0), 2); /* size 0 */
  /* Large: whole pages of counters are dropped, the ends written. */
  uint64_t from = 100, to = SHADOW_GRANULES - 100;
  for (uint64_t i = 0; i < SHADOW_GRANULES; i++)
    shadow[i] = 1;
  mip_rt_heap_shadow_zero(base, from * 64, (to - from) * 64);
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(base, 0, SHADOW_GRANULES * 64ull),
                    200);
  ck_assert_uint_eq(shadow[from - 1], 1);
  ck_assert_uint_eq(shadow[from], 0);
  ck_assert_uint_eq(shadow[to - 1], 0);
  ck_assert_uint_eq(shadow[to], 1);
  /* Addresses outside user space count nowhere. */
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(base, 1ull << 47, 64), 0);
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(0, 0, 64), 0);
  munmap(shadow, SHADOW_GRANULES * 8);
}
END_TEST

/* A big block's counters go back to the system when it dies, all but
 * those of its end granules; a block that lives on after all gets their
 * sum back. */
START_TEST(shadow_releases_big_blocks) {
  uint64_t *shadow = new_shadow();
  uintptr_t base = (uintptr_t)shadow;
  for (uint64_t i = 0; i < SHADOW_GRANULES; i++)
    shadow[i] = 1;
  /* Granules 100 to 3100: counters 512 to 3071 are five whole pages. */
  uintptr_t p = 100 * 64 + 8;
  uint64_t size = 3000 * 64;
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(base, p, size), 3001);
  ck_assert_int_eq(mip_rt_heap_shadow_release(base, p, size), 1);
  ck_assert_uint_eq(shadow[100], 1);
  ck_assert_uint_eq(shadow[511], 1);
  ck_assert_uint_eq(shadow[512], 0);
  ck_assert_uint_eq(shadow[3071], 0);
  ck_assert_uint_eq(shadow[3072], 1);
  ck_assert_uint_eq(shadow[3100], 1);
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(base, p, size), 3001 - 2560);
  mip_rt_heap_shadow_restore(base, p, size, 3001);
  ck_assert_uint_eq(mip_rt_heap_shadow_sum(base, p, size), 3001);
  ck_assert_uint_eq(shadow[100], 1); /* maybe a neighbour's too */
  /* One whole page is not worth a call; nor is a range out of reach. */
  ck_assert_int_eq(mip_rt_heap_shadow_release(base, 5000 * 64, 1000 * 64), 0);
  ck_assert_uint_eq(shadow[5120], 1);
  ck_assert_int_eq(mip_rt_heap_shadow_release(base, 1ull << 47, 1 << 20), 0);
  ck_assert_int_eq(mip_rt_heap_shadow_release(0, 0, 1 << 20), 0);

  /* Through a state: taken (a realloc about to run), it lives on when the
   * realloc fails, with its accesses; freed, it takes them along. */
  struct mip_rt_heap *h = new_heap(shadow, 16);
  uintptr_t frames[1] = {0x400100};
  uint32_t c = mip_rt_heap_context_of(h, frames, 1, 0, 0x77);
  mip_rt_heap_born(h, p, size, c, 0, 5, 1);
  mip_rt_heap_shadow_touch(base, p, size);
  mip_rt_heap_shadow_touch(base, p, size);
  struct mip_rt_heap_taken t;
  ck_assert_int_eq(mip_rt_heap_take(h, p, &t, 6, 1), 1);
  ck_assert_uint_eq(t.count, 2 * 3001);
  ck_assert_uint_eq(t.block.flags & MIP_RT_HEAP_RELEASED,
                    MIP_RT_HEAP_RELEASED);
  ck_assert_uint_eq(shadow[1000], 0);
  mip_rt_heap_settle(h, &t, 0);
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 1);
  ck_assert_int_eq(mip_rt_heap_take(h, p, &t, 7, 1), 1);
  ck_assert_uint_eq(t.count, 2 * 3001);
  mip_rt_heap_settle(h, &t, 1);
  ck_assert_uint_eq(h->contexts[c].mib.TotalAccessCount, 2 * 3001);
  ck_assert_uint_eq(h->contexts[c].mib.ReallocCount, 0);
  free_heap(h);
  munmap(shadow, SHADOW_GRANULES * 8);
}
END_TEST

/* ---- payloads --------------------------------------------------------- */

struct decoded {
  uint8_t *data[8];
  uint64_t size[8];
  uint32_t kind[8];
  size_t count;
};

/* Writes each payload to a file through its writer and reads it back. */
static void write_and_read(const struct mip_rt_payload *all, size_t count,
                           struct decoded *d) {
  const char *path = test_path("payload");
  d->count = count;
  for (size_t i = 0; i < count; i++) {
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    if (all[i].write)
      ck_assert_int_eq(all[i].write(fd, &all[i]), 0);
    else
      ck_assert_int_eq(write(fd, all[i].data, all[i].size),
                       (ssize_t)all[i].size);
    struct stat st;
    fstat(fd, &st);
    ck_assert_uint_eq((uint64_t)st.st_size, all[i].size);
    ck_assert_uint_eq(all[i].size % all[i].elem_size, 0);
    d->data[i] = malloc(all[i].size + 1);
    ck_assert_int_eq(pread(fd, d->data[i], all[i].size, 0),
                     (ssize_t)all[i].size);
    d->size[i] = all[i].size;
    d->kind[i] = all[i].kind;
    close(fd);
  }
}

static const uint8_t *find(const struct decoded *d, uint32_t kind,
                           uint64_t *size) {
  for (size_t i = 0; i < d->count; i++)
    if (d->kind[i] == kind) {
      *size = d->size[i];
      return d->data[i];
    }
  return NULL;
}

static uint64_t stat_of(const uint8_t *p, uint64_t size, uint32_t key,
                        int *at) {
  for (uint64_t i = 0; i < size / mip_rec_raw_stat_size; i++) {
    struct mip_rec_raw_stat s;
    mip_rec_raw_stat_decode(&s, p + i * mip_rec_raw_stat_size);
    if (s.key == key) {
      *at = (int)i;
      return s.value;
    }
  }
  *at = -1;
  return 0;
}

/* A field of an encoded MemInfoBlock, found by name through mib.inc. */
static uint64_t field(const uint8_t *f, const char *name) {
  size_t at = 0;
#define MIP_MIB_FIELD(id, Name, type)                                          \
  if (strcmp(name, #Name) == 0)                                                \
    return MIP_RT_HEAP_WIDTH_##type == 4 ? mip_get_le32(f + at)                \
                                         : mip_get_le64(f + at);               \
  at += MIP_RT_HEAP_WIDTH_##type;
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  ck_abort_msg("no MemInfoBlock field %s", name);
  return 0;
}

static int first_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  *(uintptr_t *)arg = info->dlpi_addr;
  return 1;
}

START_TEST(payloads_decode) {
  uint64_t *shadow = new_shadow();
  struct mip_rt_heap *h = new_heap(shadow, 16);
  uintptr_t fa[3] = {0x401234, 0x402345, 0x403456};
  uintptr_t fb[1] = {0x409999};
  uint32_t ca = mip_rt_heap_context_of(h, fa, 3, 0, 0x5000);
  uint32_t cb = mip_rt_heap_context_of(h, fb, 1, MIP_RT_HEAP_TRUNCATED, 0);
  uintptr_t unused[1] = {0x40aaaa};
  mip_rt_heap_context_of(h, unused, 1, 0, 0x6000); /* no blocks: no record */
  /* a: one block dead (10 accesses), one live (64 bytes, 6 accesses). */
  mip_rt_heap_born(h, 64, 32, ca, 0, 10, 0);
  shadow[1] = 10;
  mip_rt_heap_free(h, 64, 20, 0);
  mip_rt_heap_born(h, 640, 64, ca, 0, 30, 0);
  shadow[10] = 6;
  /* b: one live block born of a realloc. */
  mip_rt_heap_born(h, 6400, 100, cb, MIP_RT_HEAP_REALLOC, 35, 1);
  h->stats[MIP_RT_HEAP_STAT_TRUNCATED] = 1;
  h->stats[MIP_RT_HEAP_STAT_UNINTERPOSED] = 1;
  h->stats[MIP_RT_HEAP_STAT_LIVE_UNINTERPOSED] = 2;

  /* An image with call edges has a STATS payload already. */
  uint8_t edge_stats[2 * mip_rec_raw_stat_size];
  struct mip_rec_raw_stat es = {MIP_STAT_EDGE_PERIOD, 0, MIP_EDGE_PERIOD};
  mip_rec_raw_stat_encode(&es, edge_stats);
  es = (struct mip_rec_raw_stat){MIP_STAT_EDGE_SAMPLES_DROPPED, 0, 5};
  mip_rec_raw_stat_encode(&es, edge_stats + mip_rec_raw_stat_size);
  struct mip_rt_payload all[8] = {
      {.kind = MIP_RAW_STATS, .elem_size = mip_rec_raw_stat_size,
       .size = sizeof edge_stats, .data = edge_stats},
  };
  size_t count = mip_rt_heap_payloads_of(h, 7, 50, 2, all, 1, 8);
  ck_assert_uint_eq(count, 5);
  struct decoded d;
  write_and_read(all, count, &d);
  mip_rt_heap_payloads_release(all, count);
  /* The blocks are still live: a dump closes nothing. */
  ck_assert_uint_eq(mip_rt_heap_table_count(h), 2);
  ck_assert_uint_eq(h->contexts[ca].mib.AllocCount, 1);

  uint64_t size;
  const uint8_t *p = find(&d, MIP_RAW_STATS, &size);
  ck_assert_ptr_nonnull(p);
  int at;
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_EDGE_PERIOD, &at),
                    MIP_EDGE_PERIOD);
  ck_assert_int_eq(at, 0);
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_EDGE_SAMPLES_DROPPED, &at), 5);
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_HEAP_UNSEEN_FREES, &at), 7);
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_HEAP_TRUNCATED_STACKS, &at), 1);
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_HEAP_FREED_UNSEEN, &at), 0);
  ck_assert_int_ge(at, 0);
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_HEAP_STACK_DEPTH, &at), 8);
  /* Set by heap_loss.c before a real write; written whatever they are. */
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_HEAP_UNINTERPOSED, &at), 1);
  ck_assert_int_ge(at, 0);
  ck_assert_uint_eq(stat_of(p, size, MIP_STAT_HEAP_LIVE_UNINTERPOSED, &at),
                    2);
  ck_assert_int_ge(at, 0);

  /* MIBS: header, schema, two records. */
  p = find(&d, MIP_RAW_HEAP_MIBS, &size);
  ck_assert_ptr_nonnull(p);
  struct mip_rec_raw_heap_mibs head;
  mip_rec_raw_heap_mibs_decode(&head, p);
  ck_assert_uint_eq(head.field_count, MIP_RT_HEAP_MIB_FIELDS);
  ck_assert_uint_eq(head.record_count, 2);
  ck_assert_uint_eq(head.record_size, 208);
  uint32_t i = 0;
#define MIP_MIB_FIELD(id, Name, type)                                          \
  ck_assert_uint_eq(mip_get_le32(p + mip_rec_raw_heap_mibs_size + 4 * i++), id);
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  uint64_t schema = (4 * head.field_count + 7) & ~7u;
  ck_assert_uint_eq(size, mip_rec_raw_heap_mibs_size + schema +
                              head.record_count * head.record_size);
  const uint8_t *r = p + mip_rec_raw_heap_mibs_size + schema;
  struct mip_rec_raw_heap_context rc;
  mip_rec_raw_heap_context_decode(&rc, r);
  ck_assert_uint_eq(rc.stack, ca);
  ck_assert_uint_eq(rc.site, 0x5000);
  /* Fields at their schema offsets: a's dead block then its live one,
   * dying "now" (50 ms) on CPU 2. */
  const uint8_t *f = r + mip_rec_raw_heap_context_size;
  ck_assert_uint_eq(field(f, "AllocCount"), 2);
  ck_assert_uint_eq(field(f, "TotalAccessCount"), 10 + 6);
  ck_assert_uint_eq(field(f, "TotalSize"), 32 + 64);
  ck_assert_uint_eq(field(f, "MinSize"), 32);
  ck_assert_uint_eq(field(f, "AllocTimestamp"), 30);
  ck_assert_uint_eq(field(f, "DeallocTimestamp"), 50);
  ck_assert_uint_eq(field(f, "TotalLifetime"), 10 + 20);
  ck_assert_uint_eq(field(f, "AllocCpuId"), 0);
  ck_assert_uint_eq(field(f, "DeallocCpuId"), 2);
  ck_assert_uint_eq(field(f, "NumMigratedCpu"), 1);
  ck_assert_uint_eq(field(f, "NumLifetimeOverlaps"), 0); /* 30 >= 20 */
  ck_assert_uint_eq(field(f, "NumSameAllocCpu"), 1);
  /* 10 * 100 / 32 = 31 and 6 * 100 / 64 = 9; per second 31 * 1000 / 10
   * and 9 * 1000 / 20. */
  ck_assert_uint_eq(field(f, "TotalAccessDensity"), 31 + 9);
  ck_assert_uint_eq(field(f, "TotalLifetimeAccessDensity"), 3100 + 450);
  ck_assert_uint_eq(field(f, "LiveAtExitCount"), 1);
  ck_assert_uint_eq(field(f, "LiveAtExitSize"), 64);
  ck_assert_uint_eq(field(f, "PeakLiveSize"), 64);
  ck_assert_uint_eq(field(f, "ReallocCount"), 0);
  /* The peak is the last moment (164 bytes, a's 64 and b's 100), not yet
   * left when the profile is written. */
  ck_assert_uint_eq(field(f, "AtPeakSize"), 64);
  ck_assert_uint_eq(field(f, "AtPeakCount"), 1);
  ck_assert_uint_eq(field(f, "GhostFreeCount"), 0);
  ck_assert_uint_eq(mip_get_le32(f + MIP_RT_HEAP_MIB_BYTES), 0); /* pad */
  r += head.record_size;
  mip_rec_raw_heap_context_decode(&rc, r);
  ck_assert_uint_eq(rc.stack, cb);
  ck_assert_uint_eq(rc.site, 0);
  f = r + mip_rec_raw_heap_context_size;
  ck_assert_uint_eq(field(f, "AllocCount"), 1);
  ck_assert_uint_eq(field(f, "LiveAtExitCount"), 1);
  ck_assert_uint_eq(field(f, "LiveAtExitSize"), 100);
  ck_assert_uint_eq(field(f, "ReallocCount"), 1);
  ck_assert_uint_eq(field(f, "AllocCpuId"), 1);
  ck_assert_uint_eq(field(f, "AtPeakSize"), 100);
  ck_assert_uint_eq(field(f, "AtPeakCount"), 1);

  /* TIMELINE: the peak, then one point per birth or death. */
  p = find(&d, MIP_RAW_HEAP_TIMELINE, &size);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(size, mip_rec_heap_peak_size +
                              mip_rec_raw_heap_timeline_size +
                              4 * mip_rec_heap_point_size);
  struct mip_rec_heap_peak pk;
  mip_rec_heap_peak_decode(&pk, p);
  ck_assert_uint_eq(pk.bytes, 164);
  ck_assert_uint_eq(pk.blocks, 2);
  ck_assert_uint_eq(pk.event, 4);
  ck_assert_uint_eq(pk.events, 4);
  ck_assert_uint_eq(pk.interval, 1);
  ck_assert_uint_eq(pk.ms, 35);
  struct mip_rec_raw_heap_timeline th;
  mip_rec_raw_heap_timeline_decode(&th, p + mip_rec_heap_peak_size);
  ck_assert_uint_eq(th.point_count, 4);
  ck_assert_uint_eq(th.point_size, mip_rec_heap_point_size);
  static const uint64_t points[4][4] = {
      {1, 10, 32, 1}, {2, 20, 0, 0}, {3, 30, 64, 1}, {4, 35, 164, 2}};
  for (int k = 0; k < 4; k++) {
    struct mip_rec_heap_point pt;
    mip_rec_heap_point_decode(&pt, p + mip_rec_heap_peak_size +
                                       mip_rec_raw_heap_timeline_size +
                                       k * mip_rec_heap_point_size);
    ck_assert_uint_eq(pt.event, points[k][0]);
    ck_assert_uint_eq(pt.ms, points[k][1]);
    ck_assert_uint_eq(pt.bytes, points[k][2]);
    ck_assert_uint_eq(pt.blocks, points[k][3]);
  }

  /* STACKS: the two contexts' stacks, by id. */
  p = find(&d, MIP_RAW_HEAP_STACKS, &size);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq(size, 2 * mip_rec_raw_heap_stack_size + 4 * 8);
  struct mip_rec_raw_heap_stack st;
  mip_rec_raw_heap_stack_decode(&st, p);
  ck_assert_uint_eq(st.id, ca);
  ck_assert_uint_eq(st.depth, 3);
  ck_assert_uint_eq(st.flags, 0);
  ck_assert_uint_eq(mip_get_le64(p + mip_rec_raw_heap_stack_size + 16),
                    0x403456);
  mip_rec_raw_heap_stack_decode(&st, p + mip_rec_raw_heap_stack_size + 24);
  ck_assert_uint_eq(st.id, cb);
  ck_assert_uint_eq(st.flags, MIP_RT_HEAP_TRUNCATED);

  /* SEGMENTS: the executable's first, named "", with its build-id. */
  p = find(&d, MIP_RAW_HEAP_SEGMENTS, &size);
  ck_assert_ptr_nonnull(p);
  struct mip_rec_raw_heap_segment sg;
  mip_rec_raw_heap_segment_decode(&sg, p);
  uintptr_t bias = 1;
  dl_iterate_phdr(first_object, &bias);
  struct mip_rt_image image;
  mip_rt_image_init(&image);
  ck_assert_uint_eq(sg.load_bias, bias);
  ck_assert_uint_lt(sg.start, sg.end);
  ck_assert_uint_le(sg.start, (uintptr_t)&free_heap);
  ck_assert_uint_eq(sg.name_size, 0);
  ck_assert_uint_eq(sg.build_id_size, image.build_id_size);
  ck_assert_mem_eq(sg.build_id, image.build_id, image.build_id_size);
  ck_assert_uint_eq(p[mip_rec_raw_heap_segment_size], 0);
  /* Then every other object, each entry padded to 8. */
  uint64_t off = 0, segments = 0;
  while (off < size) {
    mip_rec_raw_heap_segment_decode(&sg, p + off);
    ck_assert_uint_eq(p[off + mip_rec_raw_heap_segment_size + sg.name_size],
                      0);
    off += (mip_rec_raw_heap_segment_size + sg.name_size + 1 + 7) & ~7u;
    segments++;
  }
  ck_assert_uint_eq(off, size);
  ck_assert_uint_ge(segments, 3); /* the test, libc, ld.so at least */
  for (size_t k = 0; k < d.count; k++)
    free(d.data[k]);

  /* Not the owner: STATS alone. */
  all[0] = (struct mip_rt_payload){0};
  count = mip_rt_heap_payloads_of(NULL, 3, 0, 0, all, 0, 8);
  ck_assert_uint_eq(count, 1);
  write_and_read(all, count, &d);
  mip_rt_heap_payloads_release(all, count);
  ck_assert_uint_eq(d.kind[0], MIP_RAW_STATS);
  ck_assert_uint_eq(d.size[0], mip_rec_raw_stat_size);
  ck_assert_uint_eq(stat_of(d.data[0], d.size[0], MIP_STAT_HEAP_UNSEEN_FREES,
                            &at),
                    3);
  free(d.data[0]);
  free_heap(h);
  munmap(shadow, SHADOW_GRANULES * 8);
}
END_TEST

/* The stack ids of the records of a MIBS payload, in order. */
static size_t record_stacks(const uint8_t *p, uint64_t *stacks, size_t max) {
  struct mip_rec_raw_heap_mibs head;
  mip_rec_raw_heap_mibs_decode(&head, p);
  const uint8_t *r =
      p + mip_rec_raw_heap_mibs_size + ((4 * head.field_count + 7) & ~7u);
  for (uint64_t i = 0; i < head.record_count && i < max; i++) {
    struct mip_rec_raw_heap_context rc;
    mip_rec_raw_heap_context_decode(&rc, r + i * head.record_size);
    stacks[i] = rc.stack;
  }
  return head.record_count;
}

/* Each heap image's profile: the contexts whose site is in its own site
 * bytes, with their stacks; the owner's also those without a site. */
START_TEST(payloads_of_one_image) {
  uint64_t *shadow = new_shadow();
  struct mip_rt_heap *h = new_heap(shadow, 16);
  uintptr_t fa[2] = {0x401234, 0x7f0000001000}, fb[1] = {0x409999};
  uintptr_t fc[1] = {0x7f0000002000};
  uint32_t ca = mip_rt_heap_context_of(h, fa, 2, 0, 0x5000);  /* library */
  uint32_t cb = mip_rt_heap_context_of(h, fb, 1, 0, 0);       /* no site */
  uint32_t cc = mip_rt_heap_context_of(h, fc, 1, 0, 0x9000);  /* program */
  mip_rt_heap_born(h, 64, 32, ca, 0, 10, 0);
  mip_rt_heap_free(h, 64, 20, 0);
  mip_rt_heap_born(h, 640, 8, cb, 0, 10, 0);
  mip_rt_heap_born(h, 6400, 16, cc, 0, 10, 0); /* live */
  struct mip_rt_payload all[8];
  uint64_t stacks[4], size;
  struct decoded d;

  size_t count = mip_rt_heap_contexts_of(h, 0x5000, 0x5010, 0, 50, 0, all, 0,
                                         8);
  ck_assert_uint_eq(count, 3);
  write_and_read(all, count, &d);
  mip_rt_heap_contexts_release(all, count);
  ck_assert_uint_eq(record_stacks(find(&d, MIP_RAW_HEAP_MIBS, &size), stacks,
                                  4),
                    1);
  ck_assert_uint_eq(stacks[0], ca);
  const uint8_t *p = find(&d, MIP_RAW_HEAP_STACKS, &size);
  ck_assert_uint_eq(size, mip_rec_raw_heap_stack_size + 2 * 8); /* whole */
  ck_assert_uint_eq(mip_get_le64(p + mip_rec_raw_heap_stack_size + 8),
                    0x7f0000001000);
  ck_assert_ptr_nonnull(find(&d, MIP_RAW_HEAP_SEGMENTS, &size));
  for (size_t k = 0; k < d.count; k++)
    free(d.data[k]);

  /* The owner: its own site (a live block) and the one without a site. */
  count = mip_rt_heap_contexts_of(h, 0x9000, 0x9010, 1, 50, 0, all, 0, 8);
  write_and_read(all, count, &d);
  mip_rt_heap_contexts_release(all, count);
  ck_assert_uint_eq(record_stacks(find(&d, MIP_RAW_HEAP_MIBS, &size), stacks,
                                  4),
                    2);
  ck_assert_uint_eq(stacks[0], cb);
  ck_assert_uint_eq(stacks[1], cc);
  for (size_t k = 0; k < d.count; k++)
    free(d.data[k]);

  /* No room for all three payloads: none. */
  ck_assert_uint_eq(
      mip_rt_heap_contexts_of(h, 0x5000, 0x5010, 0, 50, 0, all, 6, 8), 6);
  free_heap(h);
  munmap(shadow, SHADOW_GRANULES * 8);
}
END_TEST

/* ---- timeline and global peak ------------------------------------------ */

/* An independent model of the heap over time: every event's totals, and
 * DHAT's rule for the bytes at the global peak (dh_main.c's
 * check_for_peak: before a block dies, when the heap is at its maximum
 * and that maximum is above the last one recorded, every context's live
 * bytes and blocks are recorded; once more at the end). */
#define MODEL_CONTEXTS 8
struct model {
  uint64_t bytes, blocks, max, max_blocks, last_check;
  uint64_t live[MODEL_CONTEXTS], live_blocks[MODEL_CONTEXTS];
  uint64_t at[MODEL_CONTEXTS], at_blocks[MODEL_CONTEXTS];
  uint64_t *after, *after_blocks; /* totals after event i (from 0) */
  uint64_t events;
};

static void model_check_for_peak(struct model *m) {
  if (m->bytes == m->max && m->bytes > m->last_check) {
    memcpy(m->at, m->live, sizeof m->at);
    memcpy(m->at_blocks, m->live_blocks, sizeof m->at_blocks);
    m->last_check = m->bytes;
  }
}

static void model_event(struct model *m, int context, uint64_t size,
                        int born) {
  if (born) {
    m->bytes += size, m->blocks++;
    m->live[context] += size, m->live_blocks[context]++;
    if (m->bytes > m->max)
      m->max = m->bytes, m->max_blocks = m->blocks;
  } else {
    model_check_for_peak(m);
    m->bytes -= size, m->blocks--;
    m->live[context] -= size, m->live_blocks[context]--;
  }
  m->after[m->events] = m->bytes;
  m->after_blocks[m->events++] = m->blocks;
}

/* The points the model's events make at a given interval: for each run of
 * interval events, the most bytes after any of them and the blocks at the
 * first such moment; its last event. */
static void check_points(const struct model *m,
                         const struct mip_rt_heap_timeline *t) {
  uint64_t interval = 1;
  while ((m->events + interval - 1) / interval > MIP_RT_HEAP_POINTS)
    interval *= 2;
  ck_assert_uint_eq(t->interval, interval);
  ck_assert_uint_eq(t->count, (m->events + interval - 1) / interval);
  mip_rt_heap_timeline_settle(t, t->points); /* the point under way too */
  for (uint32_t j = 0; j < t->count; j++) {
    uint64_t first = j * interval, end = first + interval;
    end = end < m->events ? end : m->events;
    uint64_t most = first;
    for (uint64_t e = first; e < end; e++)
      if (m->after[e] > m->after[most])
        most = e;
    ck_assert_uint_eq(t->points[j].event, end);
    ck_assert_uint_eq(t->points[j].ms, (uint32_t)((end - 1) / 7));
    ck_assert_uint_eq(t->points[j].bytes, m->after[most]);
    ck_assert_uint_eq(t->points[j].blocks, m->after_blocks[most]);
  }
}

/* Random births and deaths (sizes 0 to 99, several peaks) in 8 contexts:
 * the peak, each context's bytes and blocks at it, and every point of the
 * timeline are the model's, at each of several lengths (the last ones
 * past MIP_RT_HEAP_POINTS events, so halved). */
START_TEST(timeline_and_peak_follow_the_model) {
  static const uint64_t lengths[] = {1, 2, 31, 4096, 4097, 9000, 100000};
  for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
    struct mip_rt_heap *h = new_heap(NULL, 16);
    uint32_t ctx[MODEL_CONTEXTS];
    for (uintptr_t k = 0; k < MODEL_CONTEXTS; k++) {
      uintptr_t frames[1] = {0x400000 + k};
      ctx[k] = mip_rt_heap_context_of(h, frames, 1, 0, 0x1000 + k);
    }
    struct model m = {0};
    m.after = calloc(lengths[l], sizeof *m.after);
    m.after_blocks = calloc(lengths[l], sizeof *m.after_blocks);
    enum { SLOTS = 256 };
    uint64_t size[SLOTS] = {0};
    int where[SLOTS], live[SLOTS] = {0};
    srand(17 + (unsigned)l);
    for (uint64_t e = 0; e < lengths[l]; e++) {
      int i = rand() % SLOTS;
      uint64_t addr = 0x10000 + 0x100 * (uint64_t)i;
      uint32_t now = (uint32_t)(e / 7);
      if (live[i]) {
        ck_assert_int_eq(mip_rt_heap_free(h, addr, now, 0), 1);
        model_event(&m, where[i], size[i], 0);
      } else {
        /* Grows for a while, then shrinks: several peaks. */
        size[i] = (uint64_t)(rand() % 100) * ((e / 3000) % 3 + 1);
        where[i] = rand() % MODEL_CONTEXTS;
        mip_rt_heap_born(h, addr, size[i], ctx[where[i]], 0, now, 0);
        model_event(&m, where[i], size[i], 1);
      }
      live[i] = !live[i];
    }
    model_check_for_peak(&m); /* at the end, as DHAT's */
    const struct mip_rt_heap_timeline *t = &h->timeline;
    ck_assert_uint_eq(t->peak_bytes, m.max);
    ck_assert_uint_eq(t->peak_blocks, m.max_blocks);
    ck_assert_uint_eq(mip_rt_heap_timeline_events(t), lengths[l]);
    uint64_t epoch = mip_rt_heap_timeline_epoch(t), sum = 0, blocks = 0;
    for (int k = 0; k < MODEL_CONTEXTS; k++) {
      uint64_t at, at_blocks;
      mip_rt_heap_at_peak(&h->contexts[ctx[k]], epoch, &at, &at_blocks);
      ck_assert_uint_eq(at, m.at[k]);
      ck_assert_uint_eq(at_blocks, m.at_blocks[k]);
      sum += at, blocks += at_blocks;
    }
    ck_assert_uint_eq(sum, m.max);
    check_points(&m, t);
    free(m.after);
    free(m.after_blocks);
    free_heap(h);
  }
}
END_TEST

/* Steps known in advance: 10 blocks of 1000 bytes, 5 freed, 4 of 3000,
 * all freed: 28 points, one per event, the peak at the 19th (17000 bytes
 * in 9 blocks), 5 blocks of the first context and 4 of the second then. */
START_TEST(timeline_of_known_steps) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  uintptr_t f1[1] = {0x400001}, f2[1] = {0x400002};
  uint32_t a = mip_rt_heap_context_of(h, f1, 1, 0, 0x1001);
  uint32_t b = mip_rt_heap_context_of(h, f2, 1, 0, 0x1002);
  for (uint64_t i = 0; i < 10; i++)
    mip_rt_heap_born(h, 0x10000 + 0x1000 * i, 1000, a, 0, 0, 0);
  for (uint64_t i = 0; i < 5; i++)
    mip_rt_heap_free(h, 0x10000 + 0x1000 * i, 0, 0);
  for (uint64_t i = 10; i < 14; i++)
    mip_rt_heap_born(h, 0x10000 + 0x1000 * i, 3000, b, 0, 0, 0);
  for (uint64_t i = 5; i < 14; i++)
    mip_rt_heap_free(h, 0x10000 + 0x1000 * i, 0, 0);
  const struct mip_rt_heap_timeline *t = &h->timeline;
  mip_rt_heap_timeline_settle(t, t->points);
  static const uint64_t bytes[28] = {
      1000,  2000,  3000,  4000,  5000,  6000,  7000,  8000,  9000, 10000,
      9000,  8000,  7000,  6000,  5000,  8000,  11000, 14000, 17000, 16000,
      15000, 14000, 13000, 12000, 9000,  6000,  3000,  0};
  ck_assert_uint_eq(t->count, 28);
  for (uint32_t i = 0; i < 28; i++) {
    ck_assert_uint_eq(t->points[i].event, i + 1);
    ck_assert_uint_eq(t->points[i].bytes, bytes[i]);
  }
  ck_assert_uint_eq(t->peak_bytes, 17000);
  ck_assert_uint_eq(t->peak_blocks, 9);
  ck_assert_uint_eq(t->peak_event, 19);
  uint64_t epoch = mip_rt_heap_timeline_epoch(t), at, at_blocks;
  mip_rt_heap_at_peak(&h->contexts[a], epoch, &at, &at_blocks);
  ck_assert_uint_eq(at, 5000);
  ck_assert_uint_eq(at_blocks, 5);
  mip_rt_heap_at_peak(&h->contexts[b], epoch, &at, &at_blocks);
  ck_assert_uint_eq(at, 12000);
  ck_assert_uint_eq(at_blocks, 4);
  free_heap(h);
}
END_TEST

/* 10^8 births and deaths keep MIP_RT_HEAP_POINTS points: the interval
 * grows to 2^15 (10^8 / 4096 rounded up to a power of two), the points
 * span the whole run, and the peak is exact. */
START_TEST(timeline_keeps_its_bound) {
  struct mip_rt_heap_timeline t = {0};
  t.points = calloc(MIP_RT_HEAP_POINTS, sizeof *t.points);
  mip_rt_heap_timeline_clear(&t);
  const uint64_t n = 100000000;
  for (uint64_t e = 0; e < n; e += 2) {
    /* A saw whose teeth grow: its highest at the middle of the run. */
    uint64_t size = 1 + (e < n / 2 ? e : n - e) / 1000;
    mip_rt_heap_timeline_change(&t, size, 1, (uint32_t)(e >> 20));
    if (e % 4 == 0)
      mip_rt_heap_timeline_change(&t, size, 0, (uint32_t)(e >> 20));
    else
      mip_rt_heap_timeline_change(&t, 0, 1, (uint32_t)(e >> 20));
  }
  mip_rt_heap_timeline_settle(&t, t.points);
  ck_assert_uint_eq(mip_rt_heap_timeline_events(&t), n);
  ck_assert_uint_le(t.count, MIP_RT_HEAP_POINTS);
  ck_assert_uint_eq(t.interval, 1u << 15);
  ck_assert_uint_eq(t.count, (n + t.interval - 1) / t.interval);
  ck_assert_uint_eq(t.points[t.count - 1].event, n);
  for (uint32_t i = 1; i + 1 < t.count; i++) /* the last one is partial */
    ck_assert_uint_eq(t.points[i].event - t.points[i - 1].event, t.interval);
  uint64_t top = 0;
  for (uint32_t i = 0; i < t.count; i++)
    top = t.points[i].bytes > top ? t.points[i].bytes : top;
  ck_assert_uint_eq(top, t.peak_bytes);
  free(t.points);
}
END_TEST

/* 8 threads allocate and free in 4 contexts at once: whatever the order,
 * the bytes and blocks each context had at the peak add up to the peak. */
START_TEST(peak_adds_up_under_threads) {
  struct mip_rt_heap *h = new_heap(NULL, 16);
  uint32_t contexts[4];
  for (uintptr_t k = 0; k < 4; k++) {
    uintptr_t frames[2] = {0x400000 + k, 0x500000};
    contexts[k] = mip_rt_heap_context_of(h, frames, 2, 0, 0x1000 + k);
  }
  pthread_t t[THREADS];
  struct worker w[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (struct worker){h, {contexts[0], contexts[1], contexts[2],
                               contexts[3]},
                           i + 1};
    ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
  }
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  const struct mip_rt_heap_timeline *tl = &h->timeline;
  uint64_t epoch = mip_rt_heap_timeline_epoch(tl), bytes = 0, blocks = 0;
  for (int k = 0; k < 4; k++) {
    uint64_t at, at_blocks;
    mip_rt_heap_at_peak(&h->contexts[k], epoch, &at, &at_blocks);
    bytes += at, blocks += at_blocks;
  }
  ck_assert_uint_gt(tl->peak_bytes, 0);
  ck_assert_uint_eq(bytes, tl->peak_bytes);
  ck_assert_uint_eq(blocks, tl->peak_blocks);
  ck_assert_uint_eq(mip_rt_heap_timeline_events(tl),
                   2 * (uint64_t)THREADS * PER_THREAD);
  ck_assert_uint_eq(tl->bytes, 0);
  free_heap(h);
}
END_TEST

Suite *heap_runtime_suite(void) {
  Suite *s = suite_create("heap-runtime");
  /* Six million table operations, and a table of many regions: seconds
   * alone, but minutes under the sanitizers on a loaded machine; the
   * timeout is for hangs only. */
  TCase *stress = tcase_create("heap-table-random");
  tcase_set_timeout(stress, 600);
  tcase_add_test(stress, table_agrees_with_a_map_under_random_operations);
  tcase_add_test(stress, table_stays_near_home_with_many_regions);
  suite_add_tcase(s, stress);
  TCase *tc = tcase_create("heap-runtime");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, table_puts_takes_and_replaces);
  tcase_add_test(tc, table_grows_and_deletes);
  tcase_add_test(tc, table_walk_skips_empty_shards);
  tcase_add_loop_test(tc, tail_keeps_small_blocks_beside_them, 0, 2);
  tcase_add_test(tc, tail_survives_unseen_deaths_and_lost_memory);
  tcase_add_test(tc, table_retires_replaced_tables);
  tcase_add_test(tc, table_keeps_fields_and_generations);
  tcase_add_test(tc, table_counts_exactly_under_threads);
  tcase_add_test(tc, table_holds_dense_regions);
  tcase_add_test(tc, table_disowns_large_tables);
  tcase_add_test(tc, depot_deduplicates_stacks);
  tcase_add_test(tc, depot_keeps_sites_apart);
  tcase_add_test(tc, depot_agrees_under_threads);
  tcase_add_test(tc, unwind_follows_checks_and_truncates);
  tcase_add_test(tc, mib_follows_memprof);
  tcase_add_test(tc, mib_densities_divide_exactly);
  tcase_add_test(tc, sampling_chance_weights_and_rate);
  tcase_add_test(tc, state_counts_accesses_and_lifetimes);
  tcase_add_test(tc, shadow_clears_sums_and_touches);
  tcase_add_test(tc, shadow_releases_big_blocks);
  tcase_add_test(tc, payloads_decode);
  tcase_add_test(tc, payloads_of_one_image);
  tcase_add_test(tc, timeline_and_peak_follow_the_model);
  tcase_add_test(tc, timeline_of_known_steps);
  tcase_add_test(tc, peak_adds_up_under_threads);
  suite_add_tcase(s, tc);
  /* 10^8 events: a second alone, more under the sanitizers. */
  TCase *bound = tcase_create("heap-timeline-bound");
  tcase_set_timeout(bound, 600);
  tcase_add_test(bound, timeline_keeps_its_bound);
  suite_add_tcase(s, bound);
  return s;
}
