/*
 * The shadow: one u64 counter per 64-byte granule of the address space,
 * at ((a >> 6) << 3) + an offset per architecture (mip/arch.h:
 * 0x7fff8000 on x86-64), which instrumented code increments on every
 * access (a plain increment, no call). It is one reservation of 16 TiB
 * (MAP_NORESERVE: only the pages counters land on take memory), made once
 * per process by the first image whose heap runtime starts; the others
 * find it there. A range already mapped is accepted only if it is MIP's
 * (its header says so), since counting into someone else's memory (an
 * AddressSanitizer or MemProf shadow at the same place) would corrupt it
 * silently: then the process stops with one line saying why.
 *
 * Armv7 (MIP_RT_HEAP_SHADOW_BASE): a u32 counter per granule at
 * ((a >> 6) << 2) + 512 MiB, 256 MiB for the whole 32-bit address space,
 * which a program's own mappings (or a small ulimit -v) are far likelier
 * to stand in the way of. So instrumented code does not add to the
 * counters at their fixed place but at __mip_heap_shadow's base +
 * (((a >> 6) & mask) << 2), {base, mask} loaded once at each function's
 * entry, and this image's runtime sets them when it finds the shadow in
 * place: until then, and for good when it cannot be had, every counter is
 * one word of the image's own (mask 0), and the program runs on, its
 * heap unprofiled, after one line saying why. The base is set before the
 * mask: a function that loaded the pair across the change counts into
 * the word or into the shadow's first counter, never elsewhere (and the
 * change happens once, when the image starts: at the preinit entry or
 * its first constructor, before its code runs).
 *
 * Valgrind cannot reserve 16 TiB, and gives the program it runs addresses
 * below 128 GiB only: under valgrind (when its header was there to build
 * with) the shadow is the largest reservation it grants that covers the
 * program's stack, the top of its address space, and the header says
 * what it covers, so that the runtime never looks past it. The images
 * that start later find the header there before they try to map
 * anything (valgrind takes MAP_FIXED_NOREPLACE for a hint: it would not
 * say EEXIST). Heap builds then run under callgrind, DHAT or memcheck
 * like any other program, with any number of heap images.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "heap.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND() 0
#endif

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static uint32_t mapped; /* this image has seen the shadow in place */
uintptr_t mip_rt_heap_touch_last; /* and then the last address it covers */

#if MIP_RT_HEAP_SHADOW_BASE
/* The counters instrumented code adds to (plugin/HeapAccesses.cpp):
 * {base, mask}, every one of them the sink until the shadow is in
 * place. */
static uint32_t sink;
MIP_RT_HIDDEN uintptr_t __mip_heap_shadow[2] = {(uintptr_t)&sink, 0};

static void use_shadow(void) {
  __atomic_store_n(&__mip_heap_shadow[0], (uintptr_t)MIP_RT_HEAP_SHADOW_OFFSET,
                   __ATOMIC_RELEASE);
  __atomic_store_n(&__mip_heap_shadow[1], ~(uintptr_t)0, __ATOMIC_RELEASE);
}
#else
static void use_shadow(void) {}
#endif
/* The addresses the shadow covers, as its header says (heap.h: the
 * sampled free's marks are read below it only). */
uint64_t mip_rt_heap_shadow_covered = MIP_RT_HEAP_ADDR_LIMIT;

static void cover(uint32_t addr_bits) {
  if (addr_bits && addr_bits < MIP_RT_ADDR_BITS)
    mip_rt_heap_shadow_covered = (uint64_t)1 << addr_bits;
}

/* v as 0x and its hex digits, no leading zeros. */
static void hex(char *out, size_t size, uint64_t v) {
  char digits[17];
  mip_rt_append_hex(digits, 0, sizeof digits, v, 8);
  const char *d = digits;
  while (d[0] == '0' && d[1])
    d++;
  mip_rt_append(out, mip_rt_append(out, 0, size, "0x"), size, d);
}

/* One line, then the process stops; or, where instrumented code can do
 * without the shadow, heap profiling is off: 0. */
static int give_up(const char *why) {
  char from[24], to[24];
  hex(from, sizeof from, MIP_RT_HEAP_SHADOW_OFFSET);
  hex(to, sizeof to, MIP_RT_HEAP_SHADOW_OFFSET + MIP_RT_HEAP_SHADOW_SIZE);
  mip_rt_report(MIP_RT_HEAP_SHADOW_BASE ? "heap profiling off: it needs "
                                        : "heap profiling needs ",
                "the address range ", from, "-", to,
                " for its shadow memory, ", why);
  if (!MIP_RT_HEAP_SHADOW_BASE)
    abort();
  return 0;
}

/* Whether the header page is mapped (mincore fails on unmapped pages). */
static int header_mapped(void) {
  unsigned char vec;
  uintptr_t page = (uintptr_t)MIP_RT_HEAP_HEADER & ~(uintptr_t)4095;
  int saved = errno;
  int rc = mincore((void *)page, 4096, &vec);
  errno = saved;
  return rc == 0;
}

/* Another image mapped it: its header must say MIP. The image that maps
 * writes the magic right after mmap returns, so a zero may be a moment
 * old; anything else is not ours. */
static int ours(void) {
  if (!header_mapped())
    return 0;
  struct mip_rt_heap_header *hd = MIP_RT_HEAP_HEADER;
  for (int i = 0; i < 10000; i++) {
    uint64_t magic = __atomic_load_n(&hd->magic, __ATOMIC_ACQUIRE);
    if (magic == MIP_RT_HEAP_MAGIC) {
      cover(hd->addr_bits);
      return 1;
    }
    if (magic != 0)
      return 0;
    sched_yield();
  }
  return 0;
}

int mip_rt_heap_shadow_present(void) {
  if (__atomic_load_n(&mapped, __ATOMIC_ACQUIRE))
    return 1;
  if (!header_mapped() || __atomic_load_n(&MIP_RT_HEAP_HEADER->magic,
                                          __ATOMIC_ACQUIRE) !=
                              MIP_RT_HEAP_MAGIC)
    return 0;
  cover(MIP_RT_HEAP_HEADER->addr_bits);
  use_shadow();
  __atomic_store_n(&mip_rt_heap_touch_last, (uintptr_t)(mip_rt_heap_shadow_covered - 1),
                   __ATOMIC_RELEASE);
  __atomic_store_n(&mapped, 1, __ATOMIC_RELEASE);
  return 1;
}

static void *reserve(uint64_t bytes) {
  return mmap((void *)(uintptr_t)MIP_RT_HEAP_SHADOW_OFFSET, bytes,
              PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
              -1, 0);
}

/* Under valgrind: the largest shadow it grants that covers this stack
 * (addresses below 2^bits); 0 when none does. */
static uint32_t reserve_under_valgrind(void) {
  if (MIP_RT_ADDR_BITS <= 32) /* a 32-bit shadow is small enough */
    return 0;
  uint64_t stack = (uintptr_t)__builtin_frame_address(0);
  for (uint32_t bits = 46; bits >= 36 && !(stack >> bits); bits--) {
    void *got = reserve((uint64_t)1 << (bits - 3));
    if (got == (void *)(uintptr_t)MIP_RT_HEAP_SHADOW_OFFSET)
      return bits;
    if (got != MAP_FAILED)
      munmap(got, (uint64_t)1 << (bits - 3));
  }
  return 0;
}

/* The bits of the addresses below this stack, when fewer than the
 * architecture's user space has (an AArch64 kernel with 39-bit addresses,
 * qemu-user, which keeps a guest below 2^39), else 0: a shadow for all
 * of it would reserve 2^45 bytes for nothing, which qemu-user cannot
 * even track. The shadow then covers what the stack's bits do, and the
 * header says so. */
static uint32_t stack_bits(void) {
  uint64_t stack = (uintptr_t)__builtin_frame_address(0);
  uint32_t bits = 36;
  while (bits < MIP_RT_ADDR_BITS && stack >> bits)
    bits++;
  return bits < MIP_RT_ADDR_BITS ? bits : 0;
}

#define HELD                                                                   \
  (MIP_RT_HEAP_SHADOW_BASE ? "which something else holds"                     \
                           : "which something else holds (AddressSanitizer "  \
                             "or MemProf?)")

int mip_rt_heap_shadow_map(void) {
  if (__atomic_load_n(&mapped, __ATOMIC_ACQUIRE))
    return 1;
  /* Another image mapped it already: the answer to reserving it again
   * would say so natively (EEXIST), but valgrind takes
   * MAP_FIXED_NOREPLACE for a hint and maps the range elsewhere, or
   * fails for want of room, so the header is looked at first. */
  if (mip_rt_heap_shadow_present())
    return 1;
  void *want = (void *)(uintptr_t)MIP_RT_HEAP_SHADOW_OFFSET;
  uint32_t bits = UNDER_VALGRIND() ? 0 : stack_bits();
  uint64_t size = bits ? ((uint64_t)1 << (bits - MIP_RT_HEAP_GRANULE_SHIFT))
                                << MIP_RT_HEAP_COUNTER_SHIFT
                       : MIP_RT_HEAP_SHADOW_SIZE;
  void *got = reserve(size);
  if (got == MAP_FAILED && errno != EEXIST && UNDER_VALGRIND() &&
      (bits = reserve_under_valgrind()) != 0)
    got = want;
  if (got == want) {
    struct mip_rt_heap_header *hd = MIP_RT_HEAP_HEADER;
    hd->version = MIP_RT_HEAP_HEADER_VERSION;
    hd->addr_bits = bits;
    cover(bits);
    __atomic_store_n(&hd->magic, MIP_RT_HEAP_MAGIC, __ATOMIC_RELEASE);
  } else if (got != MAP_FAILED) {
    /* A kernel without MAP_FIXED_NOREPLACE (before 4.17) took it as a
     * hint: the range was taken. */
    munmap(got, size);
    if (!ours())
      return give_up(HELD);
  } else if (errno == EEXIST) {
    if (!ours())
      return give_up(HELD);
  } else {
    return give_up(errno == ENOMEM ? "which cannot be reserved (overcommit "
                                     "or ulimit -v?)"
                                   : "which cannot be reserved");
  }
  use_shadow();
  __atomic_store_n(&mip_rt_heap_touch_last, (uintptr_t)(mip_rt_heap_shadow_covered - 1),
                   __ATOMIC_RELEASE);
  __atomic_store_n(&mapped, 1, __ATOMIC_RELEASE);
  return 1;
}

uint64_t mip_rt_heap_shadow_limit(uintptr_t base) {
  if (!base)
    return 0;
  return base == MIP_RT_HEAP_SHADOW_OFFSET ? mip_rt_heap_shadow_covered
                                         : MIP_RT_HEAP_ADDR_LIMIT;
}

/* The counters of the granules [p, p + size) overlaps, as [*first,
 * *last]; 0 when the range lies outside user space. */
static int granules(uintptr_t base, uintptr_t p, uint64_t size,
                    mip_rt_heap_counter **first, mip_rt_heap_counter **last) {
  uint64_t limit = mip_rt_heap_shadow_limit(base);
  if (p >= limit)
    return 0;
  uint64_t end = size ? size : 1;
  end = end > limit - p ? limit : p + end;
  *first = (mip_rt_heap_counter *)(base + ((p >> MIP_RT_HEAP_GRANULE_SHIFT)
                                            << MIP_RT_HEAP_COUNTER_SHIFT));
  *last = (mip_rt_heap_counter *)(base + (((end - 1) >> MIP_RT_HEAP_GRANULE_SHIFT)
                                          << MIP_RT_HEAP_COUNTER_SHIFT));
  return 1;
}

/* Counters of blocks beyond 512 KiB: whole pages of them are dropped
 * (they read as zero again) rather than written over. */
#define BIG_BYTES (64u << 10)

/* Clears the counters [from, to), writing only those that are not 0: a
 * page of counters nothing has touched stays the zero page, without
 * memory (the counters of blocks only uninstrumented code uses). */
static void clear(mip_rt_heap_counter *from, mip_rt_heap_counter *to) {
  for (mip_rt_heap_counter *c = from; c < to; c++)
    if (*c)
      *c = 0;
}

void mip_rt_heap_shadow_zero(uintptr_t base, uintptr_t p, uint64_t size) {
  mip_rt_heap_counter *c, *last;
  if (!granules(base, p, size, &c, &last))
    return;
  uintptr_t from = (uintptr_t)c, to = (uintptr_t)(last + 1);
  if (to - from >= BIG_BYTES) {
    uintptr_t in = (from + 4095) & ~(uintptr_t)4095;
    uintptr_t out = to & ~(uintptr_t)4095;
    int saved = errno;
    int rc = madvise((void *)in, out - in, MADV_DONTNEED);
    errno = saved;
    if (rc == 0) {
      clear((mip_rt_heap_counter *)from, (mip_rt_heap_counter *)in);
      clear((mip_rt_heap_counter *)out, (mip_rt_heap_counter *)to);
      return;
    }
  }
  clear((mip_rt_heap_counter *)from, (mip_rt_heap_counter *)to);
}

uint64_t mip_rt_heap_shadow_sum(uintptr_t base, uintptr_t p, uint64_t size) {
  mip_rt_heap_counter *c, *last;
  uint64_t sum = 0;
  if (!granules(base, p, size, &c, &last))
    return 0;
  for (; c <= last; c++)
    sum += *c;
  return sum;
}

/* Blocks whose counters span at least this many whole pages give them
 * back when they die: 64 KiB blocks and larger. */
#define RELEASE_PAGES 2

int mip_rt_heap_shadow_release(uintptr_t base, uintptr_t p, uint64_t size) {
  mip_rt_heap_counter *c, *last;
  /* Every death asks: most blocks are far too small. */
  if (size >> MIP_RT_HEAP_GRANULE_SHIFT <
          RELEASE_PAGES * 4096 / sizeof(mip_rt_heap_counter) ||
      !granules(base, p, size, &c, &last))
    return 0;
  /* Not the counters of the end granules, which a neighbour may share. */
  uintptr_t in = ((uintptr_t)(c + 1) + 4095) & ~(uintptr_t)4095;
  uintptr_t out = (uintptr_t)last & ~(uintptr_t)4095;
  if (out < in + RELEASE_PAGES * 4096)
    return 0;
  int saved = errno;
  int rc = madvise((void *)in, out - in, MADV_DONTNEED);
  errno = saved;
  return rc == 0;
}

void mip_rt_heap_shadow_restore(uintptr_t base, uintptr_t p, uint64_t size,
                                uint64_t sum) {
  mip_rt_heap_counter *c, *last;
  if (!granules(base, p, size, &c, &last) || last == c)
    return;
  uint64_t now = mip_rt_heap_shadow_sum(base, p, size);
  if (sum > now) {
    uint64_t room = MIP_RT_HEAP_COUNTER_MAX - c[1];
    c[1] += (mip_rt_heap_counter)(sum - now < room ? sum - now : room);
  }
}

void mip_rt_heap_shadow_touch(uintptr_t base, uintptr_t p, uint64_t size) {
  mip_rt_heap_counter *c, *last;
  if (!size || !granules(base, p, size, &c, &last))
    return;
  for (; c <= last; c++)
    if (*c != MIP_RT_HEAP_COUNTER_MAX) /* saturates, as instrumented code */
      ++*c;
}
