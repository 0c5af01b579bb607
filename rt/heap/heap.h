/*
 * Internal interface of the heap-profiling runtime (the files of rt/heap/, mode
 * `heap`, docs/heap.md). These members are pulled from libmip_rt.a only
 * by images whose code refers to a __mip_heap_* symbol, so a
 * coverage-only image links none of them; the rest of the runtime reaches
 * them through a pointer the heap runtime sets when it starts
 * (mip_rt_heap_payloads, write.c).
 *
 * The pieces, one file each:
 *   heap_shadow.c     the shadow counters and the process-wide rendezvous
 *   heap_table.c      live blocks by address, in 256 locked shards
 *   heap_tail.c       small blocks' records beside them, not in a table
 *   heap_block.h      a live block packed, as the table and records keep it
 *   heap_depot.c      call stacks, deduplicated; one context per stack
 *   heap_context.c    MemInfoBlocks: per block, merged per context
 *   heap_unwind.c     frame-pointer walks within the thread's stack
 *   heap_recent.c     each thread's recent walks and their contexts
 *   heap_state.c      births and deaths against one heap state
 *   heap_timeline.c   the bytes live over time and their peak
 *   heap_barrier.c    a memory barrier on every thread (membarrier)
 *   heap_region.c     recording on and off, resets, ghost frees
 *   heap_sample.c     which blocks a sampled run records
 *   heap_loss.c       blocks whose death went unseen, said out loud
 *   heap_write.c      the raw payloads, from a snapshot of the tables
 *   heap_owner.c      start-up, the owner of the process's heap state
 *   heap_hooks.c      the __mip_heap_* entry points of instrumented code
 *                     (declared in heap_hooks.h, which tests share)
 *   heap_interpose.c  the malloc family of the whole process
 *   heap_got.c        the same where the process's free is not MIP's
 *
 * Nothing here calls malloc: tables live in mmap'd memory. Nothing on
 * the way of a birth or a death changes errno: the few calls that could
 * (mmap, madvise, pthread_getattr_np, dlsym, a report) keep it
 * themselves.
 */
#ifndef MIP_RT_HEAP_H
#define MIP_RT_HEAP_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "arch.h"
#include "mip_rt.h"

/* ---- Shadow (heap_shadow.c) ----------------------------------------- */

/* The counter of address a is at ((a >> 6) << MIP_RT_HEAP_COUNTER_SHIFT)
 * + offset, for every user-space address: AddressSanitizer's layout,
 * offset and extent per architecture (mip/arch.h), with a u64 counter on
 * 64-bit targets and a u32 that saturates at 2^31 - 1 on Armv7. */
#define MIP_RT_HEAP_SHADOW_OFFSET MIP_RT_SHADOW_OFFSET
#define MIP_RT_HEAP_ADDR_LIMIT (1ULL << MIP_RT_ADDR_BITS)
#define MIP_RT_HEAP_GRANULE_SHIFT 6
#define MIP_RT_HEAP_COUNTER_SHIFT MIP_RT_COUNTER_SHIFT
#define MIP_RT_HEAP_SHADOW_SIZE                                                \
  ((MIP_RT_HEAP_ADDR_LIMIT >> MIP_RT_HEAP_GRANULE_SHIFT)                       \
   << MIP_RT_HEAP_COUNTER_SHIFT)
#if MIP_RT_HEAP_COUNTER_SHIFT == 3
typedef uint64_t mip_rt_heap_counter;
#define MIP_RT_HEAP_COUNTER_MAX UINT64_MAX
/* Instrumented code adds to the counters at their fixed place, which the
 * runtime must then have: it stops the process when it cannot. */
#define MIP_RT_HEAP_SHADOW_BASE 0
#else
typedef uint32_t mip_rt_heap_counter;
#define MIP_RT_HEAP_COUNTER_MAX 0x7fffffffu /* qadd's saturation */
/* Instrumented code finds the counters through the image's
 * __mip_heap_shadow (heap_shadow.c), which lets the runtime do without
 * them: the process runs on, unprofiled, when they cannot be mapped. */
#define MIP_RT_HEAP_SHADOW_BASE 1
#endif

/* Maps the process's shadow if no image has yet, and checks that a
 * mapping already there is MIP's; 1 when the shadow is in place. When
 * the range is taken by something else or cannot be reserved it prints
 * one line and aborts, or, where instrumented code reaches the shadow
 * through a base (MIP_RT_HEAP_SHADOW_BASE), returns 0: heap profiling is
 * then off in the process. */
MIP_RT_HIDDEN int mip_rt_heap_shadow_map(void);
/* Whether the process's shadow is in place, without mapping it. */
MIP_RT_HIDDEN int mip_rt_heap_shadow_present(void);
/* On the shadow at base (0: none, nothing is counted): clears the
 * counters of the granules that [p, p + size) overlaps (a block of size 0
 * has the granule at p), sums them, or adds one to each. */
MIP_RT_HIDDEN void mip_rt_heap_shadow_zero(uintptr_t base, uintptr_t p,
                                           uint64_t size);
MIP_RT_HIDDEN uint64_t mip_rt_heap_shadow_sum(uintptr_t base, uintptr_t p,
                                              uint64_t size);
MIP_RT_HIDDEN void mip_rt_heap_shadow_touch(uintptr_t base, uintptr_t p,
                                            uint64_t size);
/* 0 until this image has seen the process's shadow in place, then the
 * last address it covers (mip_rt_heap_shadow_limit's, less one). */
MIP_RT_HIDDEN extern uintptr_t mip_rt_heap_touch_last;
/* mip_rt_heap_shadow_touch of a range of size (at least 1) bytes at p on
 * the process's shadow, inline, when this image has it and it covers the
 * range: what nearly every memcpy, memmove and memset hook does, without
 * a call or a check of the runtime's start (the shadow is all it needs);
 * 0, nothing done, otherwise. */
static inline int mip_rt_heap_touch_fast(uintptr_t p, uint64_t size) {
  uintptr_t last = __atomic_load_n(&mip_rt_heap_touch_last, __ATOMIC_ACQUIRE);
  if (p > last || size - 1 > last - p)
    return 0;
  /* The shadow's place in a register, as the runtime's other shadow code
   * has it, not in the instructions: code that names it there is
   * instrumented code (test/e2e/heap_allocs.sh tells builds apart so). */
  uintptr_t base = MIP_RT_HEAP_SHADOW_OFFSET;
  __asm__("" : "+r"(base));
  mip_rt_heap_counter *c =
      (mip_rt_heap_counter *)(base + ((p >> MIP_RT_HEAP_GRANULE_SHIFT)
                                      << MIP_RT_HEAP_COUNTER_SHIFT));
  mip_rt_heap_counter *end =
      (mip_rt_heap_counter *)(base + (((p + (uintptr_t)(size - 1)) >>
                                       MIP_RT_HEAP_GRANULE_SHIFT)
                                      << MIP_RT_HEAP_COUNTER_SHIFT));
  for (; c <= end; c++)
    if (*c != MIP_RT_HEAP_COUNTER_MAX) /* saturates, as instrumented code */
      ++*c;
  return 1;
}
/* The addresses whose counters the shadow at base holds: those below the
 * limit this returns (0: none, base 0). */
MIP_RT_HIDDEN uint64_t mip_rt_heap_shadow_limit(uintptr_t base);
/* A dying block's counters, summed already: the whole pages of them
 * that only [p, p + size) uses go back to the system (they read as zero
 * again), when there are enough to be worth a call; 1 when they did.
 * restore: a block released so that lives on after all (its realloc
 * failed) gets back the accesses they held, as sum, its total before,
 * says, in its second granule's counter (its own: it spans pages). */
MIP_RT_HIDDEN int mip_rt_heap_shadow_release(uintptr_t base, uintptr_t p,
                                             uint64_t size);
MIP_RT_HIDDEN void mip_rt_heap_shadow_restore(uintptr_t base, uintptr_t p,
                                              uint64_t size, uint64_t sum);

struct mip_rt_heap_ops;

/* The rendezvous of the heap runtimes of one process: in the shadow of
 * addresses no program can map (48 KiB, below mmap_min_addr; 2 KiB on
 * Armv7, whose executables may start at 64 KiB), so it
 * exists exactly when the shadow does, at the same place for every
 * image. Fields are only ever appended (the shadow reads as zeros where
 * an older runtime wrote none); the ops it points to are versioned. */
struct mip_rt_heap_header {
  uint64_t magic;     /* MIP_RT_HEAP_MAGIC: the shadow is MIP's */
  uint32_t version;   /* MIP_RT_HEAP_HEADER_VERSION */
  uint32_t addr_bits; /* it covers addresses below 2^addr_bits; 0: all
                         of user space (2^MIP_RT_ADDR_BITS), as
                         everywhere but under valgrind and in smaller
                         address spaces (heap_shadow.c) */
  const struct mip_rt_heap_ops *owner; /* the owner's ops, or NULL */
  /* Version 2: the process's redirection trampolines (heap_got.c), made
   * once and never unmapped, or 0: MIP_RT_HEAP_TRAMPOLINES entries of 16
   * bytes of code, entry i a jump (rt/arch/) through the u64 at trampolines +
   * 4096 + 8 * i (0 free, 1 realloc, 2 reallocarray, 3 dlopen, 4 dlsym). */
  uint64_t trampolines;
};
#define MIP_RT_HEAP_MAGIC 0x574f444148504d49ULL /* "IMPHADOW" */
#define MIP_RT_HEAP_HEADER_VERSION 2u
#define MIP_RT_HEAP_TRAMPOLINES 5
/* Which free is an interposed free (heap_interpose.c): called on NULL
 * with errno MIP_RT_HEAP_PROBE, an interposed free of any image sets it
 * to MIP_RT_HEAP_PROBED. */
#define MIP_RT_HEAP_PROBE 0x4d495001
#define MIP_RT_HEAP_PROBED 0x4d495002
#define MIP_RT_HEAP_HEADER_AT                                                  \
  (((uintptr_t)(MIP_RT_HEAP_SHADOW_BASE ? 0x800 : 0xc000) >>                   \
    MIP_RT_HEAP_GRANULE_SHIFT) << MIP_RT_HEAP_COUNTER_SHIFT)
#define MIP_RT_HEAP_HEADER                                                     \
  ((struct mip_rt_heap_header *)(uintptr_t)(MIP_RT_HEAP_SHADOW_OFFSET +        \
                                            MIP_RT_HEAP_HEADER_AT))

/* ---- MemInfoBlock (heap_context.c) ------------------------------------ */

/* Every field of mip/layout/mib.inc, held as u64; the file widths apply
 * (saturating) when it is encoded. */
struct mip_rt_mib {
#define MIP_MIB_FIELD(id, Name, type) uint64_t Name;
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};

/* One block's MemInfoBlock, as MemProf's constructor makes it: size in
 * bytes, count accesses, times in ms, CPUs as sched_getcpu says. */
MIP_RT_HIDDEN void mip_rt_heap_mib_block(struct mip_rt_mib *m, uint64_t size,
                                         uint64_t count, uint32_t alloc_ms,
                                         uint32_t dealloc_ms,
                                         uint32_t alloc_cpu,
                                         uint32_t dealloc_cpu);
/* MemProf's Merge of a block that died after those already in into (an
 * empty into, AllocCount 0, takes b as it is), plus MIP's fields. */
MIP_RT_HIDDEN void mip_rt_heap_mib_merge(struct mip_rt_mib *into,
                                         const struct mip_rt_mib *b);
/* mip_rt_heap_mib_block and mip_rt_heap_mib_merge of that block at once
 * (ReallocCount realloc), without building the block's MemInfoBlock: what
 * every death does. */
MIP_RT_HIDDEN void mip_rt_heap_mib_add(struct mip_rt_mib *into, uint64_t size,
                                       uint64_t count, uint32_t alloc_ms,
                                       uint32_t dealloc_ms, uint32_t alloc_cpu,
                                       uint32_t dealloc_cpu, uint32_t realloc);

/* Field ids in record order, their number, and the encoded record size
 * (raw_heap_context head and the fields, padded to 8). */
MIP_RT_HIDDEN extern const uint32_t mip_rt_heap_mib_ids[];
enum {
  MIP_RT_HEAP_MIB_FIELDS = 0
#define MIP_MIB_FIELD(id, Name, type) +1
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};
#define MIP_RT_HEAP_WIDTH_u32 4
#define MIP_RT_HEAP_WIDTH_u64 8
enum {
  MIP_RT_HEAP_MIB_BYTES = 0
#define MIP_MIB_FIELD(id, Name, type) +MIP_RT_HEAP_WIDTH_##type
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};
/* A recorded block of a sampled run (rate: its heap_sample) in m: what
 * it stands for added to SampleWeight and SampleBytes (heap_sample.c). */
MIP_RT_HIDDEN void mip_rt_heap_mib_weigh(struct mip_rt_mib *m, uint64_t rate,
                                         uint64_t size);
/* Encodes m's fields (not the head) at out; MIP_RT_HEAP_MIB_BYTES. */
MIP_RT_HIDDEN void mip_rt_heap_mib_encode(const struct mip_rt_mib *m,
                                          uint8_t *out);

/* ---- Live blocks (heap_table.c) --------------------------------------- */

#define MIP_RT_HEAP_NO_CONTEXT UINT32_MAX
/* Born while recording was off (heap_region.c): tracked so that its free
 * is known, never counted; no context has this number. */
#define MIP_RT_HEAP_UNRECORDED 0x3fffeu
#define MIP_RT_HEAP_NO_CPU 0x7ffu /* sched_getcpu failed, or a CPU from
                                   2047 up (11 bits in the table) */
/* Block flags. */
#define MIP_RT_HEAP_REALLOC 1u /* born of a realloc */
#define MIP_RT_HEAP_RELEASED 2u /* taken, its counters given back (never in
                                   the table) */
#define MIP_RT_HEAP_CHOSEN 4u /* a sampled run's, chosen by the hook (never
                                 in the table) */

/* A live block, as the table operations take and give it; the table
 * keeps it packed in 20 bytes (heap_table.c). */
struct mip_rt_heap_block {
  uint64_t addr; /* 0: a free slot; below 2^47, else not tracked */
  uint64_t size; /* below 2^44, else clamped */
  uint32_t alloc_ms;
  uint32_t context; /* MIP_RT_HEAP_NO_CONTEXT: tracked, never counted */
  uint16_t cpu;
  uint16_t flags;
  uint32_t generation; /* the state's when born (0 to 126): another came
                          through a fork and belongs to the parent */
};
/* The generation of no state: blocks the parent of a fork left. */
#define MIP_RT_HEAP_FOREIGN 127u
#define MIP_RT_HEAP_SLOT_BYTES 20u

/* One shard: its table of slots (open addressing, linear probing in
 * panels of 4096 slots, Robin Hood placement, at most three quarters
 * full: heap_table.c), replaced by one twice as large when it fills.
 * table is the slots' address (64-byte aligned) with log2 of their number
 * in the low bits, so that one load gives a reader that did not take the
 * lock (a dump that could not get it) a table and its size that belong
 * together. */
struct mip_rt_heap_shard {
  uint32_t lock;
  uint32_t reserved;
  uint64_t count;
  uint64_t table; /* 0 until the first block */
  uint64_t pad[5];
} __attribute__((aligned(64)));

#define MIP_RT_HEAP_SHARDS 256
/* A shard holds the blocks of whole regions of this many bytes of
 * address space (log2), so that memory a region's blocks share (their
 * bits beside them, heap_tail.c) changes only under one shard's lock. */
#define MIP_RT_HEAP_REGION_LOG2 16
#define MIP_RT_HEAP_SHARD_MIN_LOG2 4 /* a shard's first table: 16 slots,
                                         from the state's pool */
#define MIP_RT_HEAP_FIRST_TABLES_BYTES                                         \
  (MIP_RT_HEAP_SHARDS * (MIP_RT_HEAP_SLOT_BYTES << MIP_RT_HEAP_SHARD_MIN_LOG2))

/* ---- Contexts and the stack depot (heap_depot.c) ---------------------- */

/* Stack flags (raw_heap_stack flags). */
#define MIP_RT_HEAP_TRUNCATED 1u /* cut at the depth limit */

#define MIP_RT_HEAP_DEPTH_DEFAULT 64u
#define MIP_RT_HEAP_DEPTH_MAX 128u

/* Under its lock (or by the state's only thread, mip_rt_heap_solo):
 * live, peak and mib, all changed together, so that one locked
 * instruction per birth and one per death keeps them exact. */
struct mip_rt_heap_context {
  uint32_t lock;
  uint32_t reserved;
  uint64_t site;  /* runtime address of its site byte, 0: none */
  uint64_t stack; /* its depot entry: word offset in the arena, 0: none */
  uint64_t live;  /* bytes of its blocks live now */
  uint64_t peak;  /* the most of them live at once */
  struct mip_rt_mib mib; /* its dead blocks; AllocCount 0: none yet */
  uint64_t live_blocks; /* its blocks live now */
  /* Its live bytes and blocks when the global peak of epoch at_epoch was
   * confirmed (heap_timeline.c); live ones while at_epoch is older. */
  uint64_t at_bytes, at_blocks, at_epoch;
  uint64_t ghost_frees; /* frees at its stack of pointers never seen */
};

/* A call stack as the hooks take it: frames innermost first, and its
 * hash (mip_rt_heap_stack_hash), computed during the walk; with the site
 * of the allocation it was taken for. */
struct mip_rt_heap_stack {
  uint64_t hash;
  uint32_t depth;
  uint32_t flags;  /* MIP_RT_HEAP_TRUNCATED */
  uint32_t ticket; /* the thread's record of the walk (0: none) */
  uint32_t way;    /* where it is kept */
  uintptr_t site;  /* the allocation's (0: none), set before the walk */
  uintptr_t frames[MIP_RT_HEAP_DEPTH_MAX];
};

/* The stack hash, one frame at a time, in two lanes that take frames in
 * turn (so that the multiplies of successive frames do not wait for each
 * other): start with lane[] = MIP_RT_HEAP_HASH_START, step every frame,
 * end with the depth and flags. */
#define MIP_RT_HEAP_HASH_START {0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL}
static inline void mip_rt_heap_hash_step(uint64_t lane[2], uint64_t frame) {
  uint64_t x = (lane[0] ^ frame) * 0xff51afd7ed558ccdULL;
  lane[0] = lane[1];
  lane[1] = x;
}
static inline uint64_t mip_rt_heap_hash_end(const uint64_t lane[2],
                                            uint32_t depth, uint32_t flags) {
  uint64_t h = (depth | (uint64_t)flags << 32) ^
               lane[0] * 0xc4ceb9fe1a85ec53ULL ^ lane[1] * 0xd6e8feb86659fd93ULL;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

/* ---- Spin locks (heap_table.c) ------------------------------------------ */

/* Spin locks: lock waits; try waits a bounded time and says whether it
 * got the lock. */
MIP_RT_HIDDEN void mip_rt_heap_lock_wait(uint32_t *lock);
static inline void mip_rt_heap_lock(uint32_t *lock) {
  if (__builtin_expect(__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE), 0))
    mip_rt_heap_lock_wait(lock);
}
MIP_RT_HIDDEN int mip_rt_heap_try_lock_for(uint32_t *lock, unsigned tries);
/* A dump's wait, short: the holder may be a thread a signal handler
 * interrupted, this one's or another's, whose handler may itself be
 * dumping; it does not let go until the handler returns, so waiting longer
 * only slows every dump down. The dump then reads without the lock (see
 * the tables' rules in docs/heap.md). */
static inline int mip_rt_heap_try_lock(uint32_t *lock) {
  return mip_rt_heap_try_lock_for(lock, 80);
}
static inline void mip_rt_heap_unlock(uint32_t *lock) {
  __atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}
static inline void mip_rt_heap_lock_unless(int solo, uint32_t *lock) {
  if (!solo)
    mip_rt_heap_lock(lock);
}
static inline void mip_rt_heap_unlock_unless(int solo, uint32_t *lock) {
  if (!solo)
    mip_rt_heap_unlock(lock);
}

/* ---- A barrier on every thread (heap_barrier.c) ----------------------- */

/* Whether mip_rt_heap_barrier can work here (registering for the
 * process's own barrier where the kernel has it). */
MIP_RT_HIDDEN int mip_rt_heap_barrier_works(void);
/* Every thread of the process passes a full memory barrier before this
 * returns 0; -1 when none could be had. */
MIP_RT_HIDDEN int mip_rt_heap_barrier(void);

/* ---- Timeline and global peak (heap_timeline.c) ------------------------ */

/* One point: the births and deaths up to event since the one before
 * (mip/layout/heap_point.inc). */
struct mip_rt_heap_point {
  uint64_t event;
  uint32_t ms;
  uint32_t reserved;
  uint64_t bytes;  /* the most live during the point */
  uint64_t blocks; /* live at that moment */
};
#define MIP_RT_HEAP_POINTS 4096u /* at most; then two become one */

/* The bytes and blocks of the whole heap (every counted block), their
 * peak, and their timeline, behind one lock: every birth and death goes
 * through it in one order, which is what makes the peak and the bytes
 * each context had then exact (DHAT's t-gmax, gb and gbk). A new maximum
 * is pending until the heap first shrinks: then it is confirmed, the
 * epoch goes up, and each context keeps its live bytes and blocks of that
 * moment when it next changes (mip_rt_heap_context_change).
 *
 * What every event changes comes first. The point under way (the last
 * one, count - 1) is kept here, not in points[], and written there when
 * the next one starts (mip_rt_heap_timeline_next) or when it is read
 * (mip_rt_heap_timeline_settle): an event stores its time and, when it
 * raises the point's maximum, that; it counts itself down in left. */
struct mip_rt_heap_timeline {
  uint32_t lock;
  uint32_t pending; /* the maximum was reached since the last shrink */
  uint64_t bytes, blocks; /* live now */
  uint64_t left;          /* events the point under way still takes */
  uint64_t epoch;         /* confirmed peaks so far */
  uint64_t peak_bytes;
  uint64_t point_bytes, point_blocks; /* the point under way's most bytes
                                         live and the blocks then */
  uint32_t ms;    /* the time of the last event */
  /* While one thread alone has changed the heap (owner, its thread
   * pointer), it takes no lock: it marks itself busy and checks multi,
   * which the second thread sets before it waits for busy to clear
   * (heap_timeline.c, mip_rt_heap_timeline_enter). */
  uint32_t busy;  /* the owner is changing the totals without the lock */
  uintptr_t owner;
  uint32_t multi; /* more than one thread: the lock, always
                     (MIP_RT_HEAP_MULTI_*) */
  /* Changed by a new maximum, or a new point, only. */
  uint32_t peak_ms;
  uint64_t peak_blocks, peak_event;
  uint32_t count;     /* points used */
  uint32_t interval_log2;
  uint64_t interval;  /* events per point, a power of two */
  struct mip_rt_heap_point *points; /* MIP_RT_HEAP_POINTS, mmap'd */
};

/* multi: a second thread came and waits for the first to leave the
 * totals (the barrier, then busy 0); then settled: every thread may take
 * the lock. A thread that finds it coming waits for settled too, or it
 * would change the totals beside the first. */
#define MIP_RT_HEAP_MULTI_COMING 1u
#define MIP_RT_HEAP_MULTI_SETTLED 2u

/* The event just counted starts a point: the one before is written to
 * points[] (halving them when they run out) and this one's maximum is
 * the totals after the event (perhaps a new peak). */
MIP_RT_HIDDEN void mip_rt_heap_timeline_next(struct mip_rt_heap_timeline *t,
                                             uint32_t now);

/* One thread or several. While a single thread (the owner) has changed
 * the state, it takes none of its locks (the shards', the contexts', the
 * timeline's): an uncontended locked instruction costs some twenty
 * cycles, and a birth and a death took four. Its changes are marked busy
 * instead, a plain store that a compiler barrier orders before its check
 * that no other thread came (multi 0). A second thread's first change
 * (or a dump, reset or fork on it, mip_rt_heap_share) sets multi and
 * runs membarrier(MEMBARRIER_CMD_GLOBAL), which makes every thread pass
 * a full barrier: after it either the owner's busy mark is seen, and the
 * second thread waits for it to clear, or the owner's check sees multi
 * and it takes the locks from then on. Then, and only then, may the
 * second thread touch anything. Nothing depends on how the second thread
 * came to be (pthread_create, a library's thread started before the heap
 * runtime, a thread that only frees): what counts is that it reaches the
 * state, and every way in goes through here. A signal handler runs on a
 * thread that is here already: on the owner's, it sees the state as a
 * dump that could not take a lock did before (it can only read: nothing
 * it changes is async-signal-safe to change); on another's, it is that
 * thread. A forked child has one thread: it owns the state alone again
 * (mip_rt_heap_solo_again); the fork itself takes every shard lock after
 * switching to multi (mip_rt_heap_lock_all), so that the owner is caught
 * in none of its changes. A kernel without membarrier: multi from the
 * start. */

/* The way in for changes: 1 when the calling thread is the state's only
 * one so far (it is marked busy until mip_rt_heap_solo_end, and takes no
 * lock), 0 when it takes the locks. */
MIP_RT_HIDDEN int mip_rt_heap_solo_slow(struct mip_rt_heap_timeline *t);
static inline int mip_rt_heap_solo(struct mip_rt_heap_timeline *t) {
  if (__builtin_expect(t->owner == mip_rt_thread_pointer(), 1)) {
    __atomic_store_n(&t->busy, 1, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (__builtin_expect(!__atomic_load_n(&t->multi, __ATOMIC_RELAXED), 1))
      return 1;
    __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
  }
  return mip_rt_heap_solo_slow(t);
}
static inline void mip_rt_heap_solo_end(struct mip_rt_heap_timeline *t,
                                        int solo) {
  if (solo)
    __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
}
/* The way in for reading or changing the whole state from any thread (a
 * dump, a reset, a fork): afterwards the locks exclude every thread's
 * changes; 0 when the switch to multi another thread started did not
 * settle within tries turns (0: no limit), then the owner may still be
 * changing the state without them. */
MIP_RT_HIDDEN int mip_rt_heap_share(struct mip_rt_heap_timeline *t,
                                    unsigned tries);
/* A forked child's only thread owns the state alone. */
MIP_RT_HIDDEN void mip_rt_heap_solo_again(struct mip_rt_heap_timeline *t);

/* Entering the totals: 0 when the calling thread is their only one so far
 * (it is marked busy), 1 when it took the lock. */
MIP_RT_HIDDEN int mip_rt_heap_timeline_enter(struct mip_rt_heap_timeline *t);

/* Births and deaths so far. */
static inline uint64_t
mip_rt_heap_timeline_events(const struct mip_rt_heap_timeline *t) {
  return ((uint64_t)t->count << t->interval_log2) - t->left;
}

/* A new maximum, pending (at the birth just counted, at now). */
static inline void mip_rt_heap_timeline_top(struct mip_rt_heap_timeline *t,
                                            uint32_t now) {
  t->peak_bytes = t->bytes;
  t->peak_blocks = t->blocks;
  t->peak_event = mip_rt_heap_timeline_events(t);
  t->peak_ms = now;
  t->pending = 1;
}

/* The change itself, once the caller may make it (below): the totals,
 * the peak and the point under way; the epoch the change belongs to. A
 * point's maximum is never above the peak, so that only a birth that
 * raises the point's can be a new peak. */
static inline uint64_t mip_rt_heap_timeline_count(
    struct mip_rt_heap_timeline *t, uint64_t size, int born, uint32_t now) {
  if (born) {
    t->bytes += size;
    t->blocks++;
  } else {
    if (t->pending) { /* the heap first shrinks: the peak stands */
      t->epoch++;
      t->pending = 0;
    }
    t->bytes -= size;
    t->blocks--;
  }
  if (__builtin_expect(t->left-- == 0, 0)) {
    mip_rt_heap_timeline_next(t, now);
  } else if (born && t->bytes > t->point_bytes) {
    t->point_bytes = t->bytes;
    t->point_blocks = t->blocks;
    if (t->bytes > t->peak_bytes)
      mip_rt_heap_timeline_top(t, now);
  }
  t->ms = now;
  return t->epoch;
}

/* The same for a caller that went in already (mip_rt_heap_solo): alone,
 * the change; else under the timeline's lock. Inline: every birth and
 * death comes here, born a constant. */
static inline uint64_t mip_rt_heap_timeline_change_as(
    struct mip_rt_heap_timeline *t, uint64_t size, int born, uint32_t now,
    int solo) {
  if (__builtin_expect(solo, 1))
    return mip_rt_heap_timeline_count(t, size, born, now);
  mip_rt_heap_lock(&t->lock);
  uint64_t epoch = mip_rt_heap_timeline_count(t, size, born, now);
  mip_rt_heap_unlock(&t->lock);
  return epoch;
}

/* A block of size bytes was born (born 1) or died (0) at now: the totals,
 * the peak and the timeline; returns the epoch the change belongs to. */
static inline uint64_t mip_rt_heap_timeline_change(
    struct mip_rt_heap_timeline *t, uint64_t size, int born, uint32_t now) {
  int solo = mip_rt_heap_solo(t);
  uint64_t epoch = mip_rt_heap_timeline_change_as(t, size, born, now, solo);
  mip_rt_heap_solo_end(t, solo);
  return epoch;
}
/* The same change to one context's live bytes and blocks, under its
 * lock: the first change of a later epoch keeps what it had before, its
 * bytes at that epoch's peak; a change of an earlier epoch (a thread that
 * took the context's lock after another's later one) happened before
 * that peak, and changes those too. */
static inline void mip_rt_heap_context_change(struct mip_rt_heap_context *c,
                                              uint64_t size, int born,
                                              uint64_t epoch) {
  uint64_t blocks = 1;
  if (!born)
    size = -size, blocks = -blocks;
  if (epoch != c->at_epoch) {
    if (epoch > c->at_epoch) {
      c->at_bytes = c->live;
      c->at_blocks = c->live_blocks;
      c->at_epoch = epoch;
    } else {
      c->at_bytes += size;
      c->at_blocks += blocks;
    }
  }
  c->live += size;
  c->live_blocks += blocks;
}
/* Epoch of the peak that stands when the profile is written: a pending
 * maximum counts as confirmed (nothing changed since). */
MIP_RT_HIDDEN uint64_t mip_rt_heap_timeline_epoch(
    const struct mip_rt_heap_timeline *t);
/* Context c's bytes and blocks at the peak of that epoch. */
MIP_RT_HIDDEN void mip_rt_heap_at_peak(const struct mip_rt_heap_context *c,
                                       uint64_t epoch, uint64_t *bytes,
                                       uint64_t *blocks);
/* The point under way written to points[t->count - 1] (points: t's, or
 * a copy of them), so that points[0..count) are the whole timeline. */
MIP_RT_HIDDEN void
mip_rt_heap_timeline_settle(const struct mip_rt_heap_timeline *t,
                            struct mip_rt_heap_point *points);
/* Back to nothing (a forked child, mip_heap_reset): the count, interval
 * and peak start over; the points' memory stays. */
MIP_RT_HIDDEN void mip_rt_heap_timeline_clear(struct mip_rt_heap_timeline *t);

/* ---- A heap state (heap_state.c) ------------------------------------- */

struct mip_rt_heap_config {
  uintptr_t shadow;       /* shadow base, 0: no shadow (tests) */
  uint32_t depth;         /* stack depth limit, 1..MIP_RT_HEAP_DEPTH_MAX */
  uint32_t contexts;      /* context capacity */
  uint32_t depot_slots;   /* the second tier's, a power of two, at
                             least 2 * contexts */
  uint64_t arena_words;   /* u64 words of stack storage, < 2^32 */
};

/* Blocks this small (nearly all, in programs that allocate many) span
 * one or two granules: their counters are cleared and summed without a
 * loop or a call (heap_state.c). */
#define MIP_RT_HEAP_SMALL_BYTES 64u

/* The defaults of the process's state. */
#define MIP_RT_HEAP_CONTEXTS (1u << 17)
#define MIP_RT_HEAP_CONTEXTS_MAX 0x3ffffu /* what a block can name */
#define MIP_RT_HEAP_DEPOT_SLOTS (1u << 18)
/* The depot's first tier: 4096 slots, 32 KiB, where a program with a few
 * thousand stacks finds them all. */
#define MIP_RT_HEAP_DEPOT_FIRST_LOG2 12
#define MIP_RT_HEAP_ARENA_WORDS (8ull << 20) /* 64 MiB */

enum mip_rt_heap_stat {
  MIP_RT_HEAP_STAT_FREED_UNSEEN,
  MIP_RT_HEAP_STAT_TRUNCATED,
  MIP_RT_HEAP_STAT_DROPPED,
  /* Set when the profile is written (heap_loss.c): 1 when frees by code
   * MIP did not instrument could not be seen, and then the blocks live. */
  MIP_RT_HEAP_STAT_UNINTERPOSED,
  MIP_RT_HEAP_STAT_LIVE_UNINTERPOSED,
  MIP_RT_HEAP_STAT_COUNT
};

/* ---- Records beside the blocks (heap_tail.c) -------------------------- */

/* The table's keys hold addresses below 2^47 (user space on x86-64 and
 * AArch64); blocks above are not tracked. */
#define MIP_RT_HEAP_TABLE_ADDR_BITS 47
#define MIP_RT_HEAP_TABLE_ADDR_LIMIT ((uint64_t)1 << MIP_RT_HEAP_TABLE_ADDR_BITS)
/* What the executable's interposed malloc, calloc and realloc add to each
 * size, where records go beside the blocks: a record's 24 bytes. */
#define MIP_RT_HEAP_TAIL_ROOM 24u
/* Blocks of this size and more go to the table: a walk looks for a
 * record from its block's start. */
#define MIP_RT_HEAP_TAIL_MAX 512u

/* The allocator's malloc_usable_size. */
typedef size_t (*mip_rt_heap_usable_fn)(void *);

/* Records beside the blocks, when usable is set: bits a 16 bytes of
 * address space where a record starts, and two levels of bits a page of
 * the level below (levels[0] to [2], one mapping of bytes). */
struct mip_rt_heap_tail {
  uint64_t *levels[3];
  uint64_t bytes;
  mip_rt_heap_usable_fn usable;
  uint64_t secret;  /* the check words' (never 0) */
  uint32_t walkers; /* walks under way */
  uint32_t fenced;  /* 1: a death fences before it looks for walks (no
                       barrier on every thread for the walks to make) */
};

/* Maps the bits and starts records beside blocks of the allocator whose
 * malloc_usable_size is usable: 0, or -1 (no memory: the table keeps
 * every block). */
MIP_RT_HIDDEN int mip_rt_heap_tail_init(struct mip_rt_heap_tail *t,
                                        mip_rt_heap_usable_fn usable,
                                        uint64_t secret);
MIP_RT_HIDDEN void mip_rt_heap_tail_destroy(struct mip_rt_heap_tail *t);

struct mip_rt_heap {
  uintptr_t shadow;
  uint64_t start_ns; /* its clock when it started */
  uint32_t depth;
  uint32_t generation;
  uint32_t context_cap;
  uint32_t context_count; /* handed out; may run past context_cap */
  uint32_t serial;        /* this state's, unique in the process */
  uint32_t reserved;
  struct mip_rt_heap_context *contexts;
  uint64_t *depot;       /* slots: hash << 32 | arena offset, 0: free;
                            the first tier, then the second */
  uint64_t depot_mask;   /* the second tier's */
  uint64_t *arena;       /* entries: hash, depth | flags << 32, context,
                            site, then the frames */
  uint64_t arena_words;
  uint64_t arena_used;   /* words handed out; word 0 is never used */
  uint64_t stats[MIP_RT_HEAP_STAT_COUNT];
  uint32_t unlocked_readers; /* walks reading a shard without its lock */
  int32_t clock;             /* the clock_gettime clock of its times, -1:
                                none works (times are 0) */
  uint8_t *first_tables;     /* every shard's first table, side by side */
  uint32_t first_used;       /* of them */
  uint32_t off; /* births are not recorded (heap_region.c): mip_heap_stop,
                   MIP_OPTIONS heap_record=0 */
  uint64_t sample; /* 0: every block recorded; else a block with chance
                      1 - exp(-size / sample) (heap_sample.c) */
  struct mip_rt_heap_timeline timeline;
  struct mip_rt_heap_shard shards[MIP_RT_HEAP_SHARDS];
  /* A block of 1 to MIP_RT_HEAP_SMALL_BYTES bytes at an address below
   * this has its one or two counters in the shadow (0: no shadow): what
   * lets nearly every birth and death clear and sum them without a loop
   * (heap_state.c). */
  uint64_t small_below;
  /* Records beside small blocks, when the owner started them. */
  struct mip_rt_heap_tail tail;
};

/* bytes of zeroed memory (MAP_NORESERVE), or NULL; errno unchanged. */
MIP_RT_HIDDEN void *mip_rt_heap_map(uint64_t bytes);
/* Unmaps a shard's table (table word), unless it is in the pool. */
MIP_RT_HIDDEN void mip_rt_heap_table_unmap(uint64_t table);
/* Maps h's tables; 0, or -1 when the memory cannot be had. */
MIP_RT_HIDDEN int mip_rt_heap_init(struct mip_rt_heap *h,
                                   const struct mip_rt_heap_config *config);
/* Unmaps them (h must be idle). */
MIP_RT_HIDDEN void mip_rt_heap_destroy(struct mip_rt_heap *h);
/* In a forked child: blocks live now belong to the parent and are
 * forgotten when they die; contexts and statistics start from zero. Every
 * shard lock is held by the caller (taken before the fork) and released. */
MIP_RT_HIDDEN void mip_rt_heap_forget(struct mip_rt_heap *h);
MIP_RT_HIDDEN void mip_rt_heap_lock_all(struct mip_rt_heap *h);
MIP_RT_HIDDEN void mip_rt_heap_unlock_all(struct mip_rt_heap *h);

/* Milliseconds since h started, and the current CPU (MIP_RT_HEAP_NO_CPU
 * when unknown). Neither changes errno: the clock was found to work when
 * h started, and a clock that works cannot fail. */
static inline uint32_t mip_rt_heap_now(const struct mip_rt_heap *h) {
  struct timespec ts;
  if (h->clock < 0 || clock_gettime((clockid_t)h->clock, &ts) != 0)
    return 0;
  uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  return ns < h->start_ns ? 0 : (uint32_t)((ns - h->start_ns) / 1000000u);
}
/* The CPU from the thread's rseq area, where the kernel keeps it and
 * glibc's sched_getcpu reads it (glibc 2.35 and later, when the thread is
 * registered), else sched_getcpu. */
MIP_RT_HIDDEN uint32_t mip_rt_heap_cpu_slow(void);
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));
static inline uint32_t mip_rt_heap_cpu(void) {
  if (&__rseq_size && __rseq_size) {
    uintptr_t tp = mip_rt_thread_pointer();
    /* struct rseq: cpu_id_start, then cpu_id (negative: not known) */
    int32_t cpu = __atomic_load_n(
        (const int32_t *)(tp + (uintptr_t)__rseq_offset + 4), __ATOMIC_RELAXED);
    if (cpu >= 0 && cpu < (int32_t)MIP_RT_HEAP_NO_CPU)
      return (uint32_t)cpu;
  }
  return mip_rt_heap_cpu_slow();
}

/* The context of a call stack (frames[0..depth), innermost first; flags
 * MIP_RT_HEAP_TRUNCATED) at an allocation site, made the first time the
 * two are seen together: the same frames at another site are another
 * context (the hooks of two sites can share a return address when code
 * is shared). MIP_RT_HEAP_NO_CONTEXT when the depot or the context table
 * is full. hashed: with the stack's hash, as the walk computed it. */
MIP_RT_HIDDEN uint32_t mip_rt_heap_context_of(struct mip_rt_heap *h,
                                              const uintptr_t *frames,
                                              uint32_t depth, uint32_t flags,
                                              uintptr_t site);
MIP_RT_HIDDEN uint32_t
mip_rt_heap_context_hashed(struct mip_rt_heap *h,
                           const struct mip_rt_heap_stack *s, uintptr_t site);
/* The hash of a stack: the walk's (mip_rt_heap_hash_step). */
MIP_RT_HIDDEN uint64_t mip_rt_heap_stack_hash(const uintptr_t *frames,
                                              uint32_t depth, uint32_t flags);
/* The depot entry of a context (NULL: none), its depth and flags. */
MIP_RT_HIDDEN const uint64_t *
mip_rt_heap_stack_of(const struct mip_rt_heap *h, uint32_t context,
                     uint32_t *depth, uint32_t *flags);

/* Table operations, under the shard's lock. put: 1 when a block at that
 * address was live (copied to *old and replaced), 0 when not, -1 when
 * there was no memory for it (not inserted). take: 1 and the block, or 0
 * when none is live at addr. */
MIP_RT_HIDDEN int mip_rt_heap_table_put(struct mip_rt_heap *h,
                                        const struct mip_rt_heap_block *b,
                                        struct mip_rt_heap_block *old);
MIP_RT_HIDDEN int mip_rt_heap_table_take(struct mip_rt_heap *h, uint64_t addr,
                                         struct mip_rt_heap_block *out);
/* The same for a caller that went in already (mip_rt_heap_solo): solo,
 * without the shard's lock. */
MIP_RT_HIDDEN int mip_rt_heap_table_put_as(struct mip_rt_heap *h,
                                           const struct mip_rt_heap_block *b,
                                           struct mip_rt_heap_block *old,
                                           int solo);
MIP_RT_HIDDEN int mip_rt_heap_table_take_as(struct mip_rt_heap *h,
                                            uint64_t addr,
                                            struct mip_rt_heap_block *out,
                                            int solo);
/* Starts fetching the slot where addr would be into the cache, so that a
 * put or take a little later finds it there. */
MIP_RT_HIDDEN void mip_rt_heap_table_prefetch(struct mip_rt_heap *h,
                                              uint64_t addr);
/* Makes every live block the parent's (MIP_RT_HEAP_FOREIGN): a forked
 * child whose generations wrap around, with every shard locked. */
MIP_RT_HIDDEN void mip_rt_heap_table_disown(struct mip_rt_heap *h);
/* Calls fn on every live block, shard by shard, each under its lock when
 * the lock can be had (a dump in a signal handler may interrupt its own
 * thread's holder: then the shard is read as it is). */
typedef void (*mip_rt_heap_block_fn)(const struct mip_rt_heap_block *b,
                                     void *arg);
MIP_RT_HIDDEN void mip_rt_heap_table_walk(struct mip_rt_heap *h,
                                          mip_rt_heap_block_fn fn, void *arg);
MIP_RT_HIDDEN uint64_t mip_rt_heap_table_count(struct mip_rt_heap *h);
/* The slots a lookup of each live block reads, summed over the blocks,
 * and in *most the most any lookup reads: how well the tables keep
 * blocks near their homes (tests). */
MIP_RT_HIDDEN uint64_t mip_rt_heap_table_probes(struct mip_rt_heap *h,
                                                uint64_t *most);


/* A small block's record beside it, under its shard's lock. put: -2 when
 * the block has none (too large, or no room: the table takes it), else
 * as the table's. holds: whether a record may start at addr (its bit),
 * without the lock; take: 1 and the block, 0 when no record starts
 * there. */
MIP_RT_HIDDEN int mip_rt_heap_tail_put(struct mip_rt_heap_tail *t,
                                       const struct mip_rt_heap_block *b,
                                       struct mip_rt_heap_block *old);
MIP_RT_HIDDEN int mip_rt_heap_tail_holds(const struct mip_rt_heap_tail *t,
                                         uint64_t addr);
MIP_RT_HIDDEN int mip_rt_heap_tail_take(struct mip_rt_heap_tail *t,
                                        uint64_t addr,
                                        struct mip_rt_heap_block *out);
/* Calls fn on every block with a record (record: where it is, for
 * mip_rt_heap_tail_rewrite). */
typedef void (*mip_rt_heap_tail_fn)(struct mip_rt_heap_tail *t,
                                    const struct mip_rt_heap_block *b,
                                    uint8_t *record, void *arg);
MIP_RT_HIDDEN void mip_rt_heap_tail_walk(struct mip_rt_heap_tail *t,
                                         mip_rt_heap_tail_fn fn, void *arg);
MIP_RT_HIDDEN void mip_rt_heap_tail_rewrite(struct mip_rt_heap_tail *t,
                                            uint8_t *record,
                                            const struct mip_rt_heap_block *b);

/* A block taken out of the table, its counters summed, not yet settled.
 * Part of the ops interface between images: change it with the version. */
struct mip_rt_heap_taken {
  struct mip_rt_heap_block block;
  uint64_t count;
  uint32_t dealloc_ms;
  uint32_t dealloc_cpu;
};

/* A block of size bytes at p is born now in context (flags:
 * MIP_RT_HEAP_REALLOC). A block the table still held at p dies first, as
 * freed unseen. */
MIP_RT_HIDDEN void mip_rt_heap_born(struct mip_rt_heap *h, uintptr_t p,
                                    uint64_t size, uint32_t context,
                                    uint32_t flags, uint32_t now,
                                    uint32_t cpu);
/* Takes the block at p out of the table and sums its counters (1), or
 * finds none (0). */
MIP_RT_HIDDEN int mip_rt_heap_take(struct mip_rt_heap *h, uintptr_t p,
                                   struct mip_rt_heap_taken *t, uint32_t now,
                                   uint32_t cpu);
/* Starts fetching a context (its lock and live bytes) into the cache. */
MIP_RT_HIDDEN void mip_rt_heap_context_prefetch(struct mip_rt_heap *h,
                                                uint32_t context);
/* The second half of take, for a block already out of the table: the
 * clock and the CPU are read only when a block was found. */
MIP_RT_HIDDEN void mip_rt_heap_taken_at(struct mip_rt_heap *h,
                                        struct mip_rt_heap_taken *t,
                                        uint32_t now, uint32_t cpu);
/* A taken block died (its MemInfoBlock goes to its context), or lives on
 * (it goes back into the table). */
MIP_RT_HIDDEN void mip_rt_heap_settle(struct mip_rt_heap *h,
                                      const struct mip_rt_heap_taken *t,
                                      int died);
/* take and settle(died) at once; 1 when a block was live at p. */
MIP_RT_HIDDEN int mip_rt_heap_free(struct mip_rt_heap *h, uintptr_t p,
                                   uint32_t now, uint32_t cpu);
/* The MemInfoBlock of block b dying with count accesses at now on cpu. */
MIP_RT_HIDDEN void mip_rt_heap_block_mib(struct mip_rt_mib *m,
                                         const struct mip_rt_heap_block *b,
                                         uint64_t count, uint32_t now,
                                         uint32_t cpu);

/* ---- Regions and ghost frees (heap_region.c) -------------------------- */

/* Recording on (1) or off (0): blocks born while it is off are
 * MIP_RT_HEAP_UNRECORDED. Returns what it was. */
MIP_RT_HIDDEN int mip_rt_heap_record(struct mip_rt_heap *h, int on);
/* Every context's MemInfoBlock, live bytes, peak and ghost frees, the
 * statistics and the timeline back to zero; the blocks live now are
 * forgotten (a new generation, as in a forked child). Takes every lock. */
MIP_RT_HIDDEN void mip_rt_heap_reset(struct mip_rt_heap *h);
/* A free in instrumented code of a pointer never seen allocated, at the
 * stack of context. */
MIP_RT_HIDDEN void mip_rt_heap_ghost(struct mip_rt_heap *h, uint32_t context);
/* MIP_OPTIONS heap_record=0: the process's state starts with recording
 * off. */
MIP_RT_HIDDEN extern uint32_t mip_rt_heap_record_at_start;

/* ---- Unwinding (heap_unwind.c, heap_recent.c) ------------------------ */

/* The calling thread's stack, looked up once per thread: [lo, hi), lo ==
 * hi when unknown. */
struct mip_rt_heap_bounds {
  uintptr_t lo, hi; /* hi == 0: not looked up yet */
};
MIP_RT_HIDDEN extern __thread struct mip_rt_heap_bounds mip_rt_heap_stack_bounds;
MIP_RT_HIDDEN const struct mip_rt_heap_bounds *
mip_rt_heap_thread_stack_slow(void);
static inline const struct mip_rt_heap_bounds *mip_rt_heap_thread_stack(void) {
  if (__builtin_expect(mip_rt_heap_stack_bounds.hi != 0, 1))
    return &mip_rt_heap_stack_bounds;
  return mip_rt_heap_thread_stack_slow();
}
/* Whether a walk may start at frame f: not when the bounds are unknown,
 * or when f is on another stack (a signal stack, a coroutine's); then the
 * stack is frame 0 alone. */
/* A frame record: two words, the caller's record and the return
 * address (on Armv7 as AAPCS has them, which mipcc's -mframe-chain=aapcs
 * makes Thumb code keep in r11 as Arm code does; docs/heap.md). */
#define MIP_RT_HEAP_FRAME_BYTES (2 * sizeof(uintptr_t))
static inline int mip_rt_heap_start_ok(const struct mip_rt_heap_bounds *b,
                                       uintptr_t f) {
  return b->hi - b->lo >= MIP_RT_HEAP_FRAME_BYTES && f >= b->lo &&
         f <= b->hi - MIP_RT_HEAP_FRAME_BYTES;
}
/* Whether a walk may go on from frame f to next. */
static inline int mip_rt_heap_next_ok(const struct mip_rt_heap_bounds *b,
                                      uintptr_t f, uintptr_t next) {
  return next > f && !(next & (sizeof(uintptr_t) - 1)) &&
         next <= b->hi - MIP_RT_HEAP_FRAME_BYTES;
}

/* Walks the frame-pointer chain from fp, the frame of a runtime entry
 * point called by the code whose stack is wanted: frames[0] is the
 * return address of that call, then one per caller while the chain stays
 * within the thread's stack, 8-byte aligned and rising, up to limit
 * frames (then flags gets MIP_RT_HEAP_TRUNCATED if more were there).
 * Fills s, its hash too, and records the walk among the thread's recent
 * ones under fp and s->site (s->ticket); returns the depth, at least 1. */
MIP_RT_HIDDEN uint32_t mip_rt_heap_unwind(const void *fp,
                                          struct mip_rt_heap_stack *s,
                                          uint32_t limit);

/* The thread's recent walks, of up to MIP_RT_HEAP_DEPTH_DEFAULT frames,
 * kept by their first frame and the allocation's site (a context is one
 * site's: two sites whose hooks share a return address share every frame,
 * and still are two contexts). again: when the walk it last recorded from
 * fp for site (with this limit) would visit the same frames now,
 * MIP_RT_HEAP_RECENT_HIT with the context found for it (for the state of
 * this serial) and its flags; otherwise 0. record: where the walk from fp about to start (its s->site
 * set) keeps the 16 bytes of each frame it visits (NULL: nowhere),
 * recorded: it visited that many (s->ticket names the record, 0: none),
 * found: the context found for it. */
#define MIP_RT_HEAP_RECENT_FRAMES (MIP_RT_HEAP_DEPTH_DEFAULT + 1)
MIP_RT_HIDDEN uint64_t mip_rt_heap_recent_again(const void *fp,
                                                uintptr_t site, uint32_t limit,
                                                uint32_t serial);
/* What again returns when it finds the walk: this bit, its flags, its
 * context (one value, no stores through pointers on the way back). */
#define MIP_RT_HEAP_RECENT_HIT (1ULL << 63)
static inline uint32_t mip_rt_heap_recent_context(uint64_t hit) {
  return (uint32_t)hit;
}
static inline uint32_t mip_rt_heap_recent_flags(uint64_t hit) {
  return (uint32_t)(hit >> 32) & ~(uint32_t)(MIP_RT_HEAP_RECENT_HIT >> 32);
}
MIP_RT_HIDDEN uintptr_t (*mip_rt_heap_recent_record(
    const void *fp, uint32_t limit, struct mip_rt_heap_stack *s))[2];
MIP_RT_HIDDEN void mip_rt_heap_recent_recorded(struct mip_rt_heap_stack *s,
                                               uint32_t frames);
MIP_RT_HIDDEN void mip_rt_heap_recent_found(const struct mip_rt_heap_stack *s,
                                            uint32_t context, uint32_t serial);

/* ---- Payloads (heap_write.c) ------------------------------------------ */

/* Adds a STATS payload to all[0..count) (room for max) and returns the
 * new count: unseen_frees and, when h is given (the owner's state), h's
 * statistics; a STATS payload already in all (call edges) is merged into
 * it. mip_rt_heap_stats_release unmaps what it holds once written. */
MIP_RT_HIDDEN size_t mip_rt_heap_stats_of(struct mip_rt_heap *h,
                                          uint64_t unseen_frees,
                                          struct mip_rt_payload *all,
                                          size_t count, size_t max);
/* Adds MIBS, STACKS and SEGMENTS from a snapshot of h taken now (live
 * blocks count as dying at now on cpu, without being closed), of the
 * contexts whose site lies in [site_lo, site_hi) and, with siteless, of
 * those without a site. The snapshot is mmap'd:
 * mip_rt_heap_contexts_release unmaps it once the payloads are written
 * (or not). Without memory for it, or room for three payloads, adds
 * nothing. */
MIP_RT_HIDDEN size_t mip_rt_heap_contexts_of(struct mip_rt_heap *h,
                                             uintptr_t site_lo,
                                             uintptr_t site_hi, int siteless,
                                             uint32_t now, uint32_t cpu,
                                             struct mip_rt_payload *all,
                                             size_t count, size_t max);
/* Adds the TIMELINE payload of the owner's state, from the snapshot its
 * STATS payload (mip_rt_heap_stats_of with h) took; after the contexts',
 * so that payloads go in kind order. */
MIP_RT_HIDDEN size_t mip_rt_heap_timeline_of(struct mip_rt_payload *all,
                                             size_t count, size_t max);
MIP_RT_HIDDEN void mip_rt_heap_stats_release(struct mip_rt_payload *all,
                                             size_t count);
MIP_RT_HIDDEN void mip_rt_heap_contexts_release(struct mip_rt_payload *all,
                                                size_t count);
/* Both: the STATS payload and, when h is given, every context of h. */
MIP_RT_HIDDEN size_t mip_rt_heap_payloads_of(struct mip_rt_heap *h,
                                             uint64_t unseen_frees,
                                             uint32_t now, uint32_t cpu,
                                             struct mip_rt_payload *all,
                                             size_t count, size_t max);
MIP_RT_HIDDEN void mip_rt_heap_payloads_release(struct mip_rt_payload *all,
                                                size_t count);

/* ---- Between images (heap_owner.c) ------------------------------------ */

/* What an image's runtime offers the others once it owns the process's
 * heap state. Appended to, never reordered; version bumps when a change
 * would mislead an older caller. */
#define MIP_RT_HEAP_OPS_VERSION 5u
struct mip_rt_heap_ops {
  uint32_t version; /* MIP_RT_HEAP_OPS_VERSION */
  uint32_t size;    /* sizeof(struct mip_rt_heap_ops) */
  /* A block was allocated at p by the call whose stack is walked from
   * fp, the frame of the hook it called (mip_rt_heap_unwind), up to depth
   * frames. The walk is the owner's, so that it can fetch the block's
   * table slot meanwhile. */
  void (*alloc)(void *p, uint64_t size, uintptr_t site, const void *fp,
                uint32_t depth, uint32_t block_flags);
  /* mip_rt_heap_take and mip_rt_heap_settle on the owner's state. */
  int (*take)(const void *p, struct mip_rt_heap_taken *t);
  void (*settle)(const struct mip_rt_heap_taken *t, int died);
  /* settle for a block a realloc moved: when it died, the block the
   * realloc returns joins its context (see realloc below). */
  void (*settle_moved)(const struct mip_rt_heap_taken *t, int died);
  /* A realloc of old returned p: p joins the context of the block it
   * came from, the one at old (DHAT's attribution), and old dies if it
   * is still live; a block MIP never saw at old (or old NULL) makes p a
   * block of the realloc call's own context, this stack's. */
  void (*realloc)(void *old, void *p, uint64_t size, uintptr_t site,
                  const void *fp, uint32_t depth);
  /* take and settle(died) at once: whether a block was live at p. */
  int (*free)(const void *p);
  /* Version 4. For another heap image's profile: its contexts, those
   * whose site lies in [site_lo, site_hi) (its __mip_site section), as
   * mip_rt_heap_contexts_of adds them, from a snapshot of the owner's
   * state taken now; release gives the snapshot back once they are
   * written (or not). The payloads (struct mip_rt_payload, mip_rt.h, a
   * part of this interface) are written by the owner's code. */
  size_t (*payloads)(uintptr_t site_lo, uintptr_t site_hi,
                     struct mip_rt_payload *all, size_t count, size_t max);
  void (*release)(struct mip_rt_payload *all, size_t count);
  /* Version 5. A free in instrumented code found no block at its pointer:
   * a ghost free of the context of its call stack (walked from fp, the
   * hook's frame, as alloc's) and site. */
  void (*ghost)(uintptr_t site, const void *fp, uint32_t depth);
  /* mip_heap_start and mip_heap_stop (1, 0): what recording was; reset:
   * mip_heap_reset, on the owner's state. */
  int (*record)(int on);
  void (*reset)(void);
};

/* The ops of the owner of the process's heap state, starting this
 * image's heap runtime (and taking ownership if nobody has it) first if
 * need be; NULL when heap profiling is off (an owner of another,
 * incompatible version). */
MIP_RT_HIDDEN const struct mip_rt_heap_ops *mip_rt_heap_owner_slow(void);
/* This image's ops once its runtime has started with the shadow in place
 * (NULL before, and for good without a shadow): then the header can be
 * read, and when it names them, they are the owner's. */
MIP_RT_HIDDEN extern const struct mip_rt_heap_ops *mip_rt_heap_own_ops;
/* Every hook asks: in the process's usual case, the image's own ops
 * owning the state, two loads and a comparison, without a call. */
static inline const struct mip_rt_heap_ops *mip_rt_heap_owner(void) {
  const struct mip_rt_heap_ops *mine =
      __atomic_load_n(&mip_rt_heap_own_ops, __ATOMIC_ACQUIRE);
  if (__builtin_expect(mine != NULL, 1) &&
      __builtin_expect(__atomic_load_n(&MIP_RT_HEAP_HEADER->owner,
                                       __ATOMIC_ACQUIRE) == mine,
                       1))
    return mine;
  return mip_rt_heap_owner_slow();
}
/* The same for the interposed functions, which see every free of the
 * process from its start: the owner if there is one, starting nothing. */
MIP_RT_HIDDEN const struct mip_rt_heap_ops *mip_rt_heap_owner_if_any(void);
/* Starts this image's heap runtime: maps the shadow, reads MIP_OPTIONS
 * from envp (NULL: environ) and takes ownership if nobody has it.
 * Idempotent. */
MIP_RT_HIDDEN void mip_rt_heap_start(char **envp);
/* This image's stack depth limit (MIP_OPTIONS heap_stack_depth). */
MIP_RT_HIDDEN extern uint32_t mip_rt_heap_depth;
/* Instrumented frees in this image of pointers never seen allocated. */
MIP_RT_HIDDEN extern uint64_t mip_rt_heap_unseen_frees;

/* heap_interpose.c: finds the free, realloc and reallocarray to forward
 * to. */
MIP_RT_HIDDEN void mip_rt_heap_interpose_init(void);
/* The interposed functions (the weak free, realloc and reallocarray of a
 * heap image jump to them; so do redirected GOT slots, heap_got.c). */
MIP_RT_HIDDEN void __mip_heap_interposed_free(void *p);
MIP_RT_HIDDEN void *__mip_heap_interposed_realloc(void *old, size_t size);
MIP_RT_HIDDEN void *__mip_heap_interposed_reallocarray(void *old, size_t n,
                                                       size_t m);
MIP_RT_HIDDEN void *__mip_heap_interposed_malloc(size_t size);
MIP_RT_HIDDEN void *__mip_heap_interposed_calloc(size_t n, size_t size);
MIP_RT_HIDDEN size_t __mip_heap_interposed_malloc_usable_size(void *p);
/* Where records go beside blocks (heap_tail.c): the allocator's
 * malloc_usable_size, when the process's malloc, calloc, realloc, free
 * and malloc_usable_size are this image's interposed ones and forward to
 * one object's; else NULL, and the room they add is taken away. tail:
 * the state whose records the interposed malloc_usable_size leaves out
 * of a block's size. */
MIP_RT_HIDDEN mip_rt_heap_usable_fn
mip_rt_heap_interpose_tail(const struct mip_rt_heap_tail *tail);
/* Whether the process's free is an interposed free (this image's or
 * another's): then frees by code MIP did not instrument are seen
 * already. */
MIP_RT_HIDDEN int mip_rt_heap_process_free_is_mip(void);
/* What the interposed free, realloc and reallocarray forward to (0:
 * none); 0 when called back while they are being looked up. */
MIP_RT_HIDDEN int mip_rt_heap_interpose_targets(uintptr_t out[3]);
/* The pointer this thread's last free hook closed (or found no block at),
 * 0: none. The free that follows in instrumented code reaches this
 * image's interposed free (when it is the process's free), which then
 * skips a lookup bound to miss; the next interposed free or realloc, and
 * the next birth in a hook, forget it. Per image: an interposed free in
 * another image does its lookup. */
MIP_RT_HIDDEN extern __thread uintptr_t mip_rt_heap_just_freed;

/* ---- Where the process's free is not MIP's (heap_got.c) --------------- */

/* The definition of a function the process calls by that name: what
 * dlsym(RTLD_DEFAULT) finds, unless that is a non-PIE executable's PLT
 * stub standing for it (its address taken), then the definition after
 * it; 0 when there is none. */
MIP_RT_HIDDEN uintptr_t mip_rt_heap_process_function(const char *name);
/* Whether this image's dynamic symbols define name. */
MIP_RT_HIDDEN int mip_rt_heap_exports(const char *name);
/* Whether the code at `at`, in this image, is a jump to `to` (after an
 * endbr64): one of the image's weak free, realloc, reallocarray. */
MIP_RT_HIDDEN int mip_rt_heap_jumps_to(uintptr_t at, uintptr_t to);
/* The owner of the heap state, just claimed: unless the process's free is
 * an interposed free, redirects the free, realloc and reallocarray calls
 * of every loaded object, and of objects loaded later, to this image's
 * interposed functions by patching their GOT slots. trusted: called from
 * a constructor or the preinit entry, where no other thread can be
 * loading an object. */
MIP_RT_HIDDEN void mip_rt_heap_got_start(int trusted);
/* The owner is going away (its library unloaded): every slot back as it
 * was, the trampolines to the real functions. */
MIP_RT_HIDDEN void mip_rt_heap_got_stop(void);
/* Whether frees by code MIP did not instrument reach the owner: the
 * process's free is an interposed free, or the redirection is in effect;
 * when not, *why says why. */
MIP_RT_HIDDEN int mip_rt_heap_frees_seen(const char **why);
/* MIP_OPTIONS heap_patch: 0 turns the redirection off. */
MIP_RT_HIDDEN extern uint32_t mip_rt_heap_patch;
/* The read-only ranges of /proc/self/maps ("start-end perms ..."), read
 * in pieces of any size: ranges[0..count) of cap; complete 0 when some
 * did not fit. Start with the first fields zero and complete 1. */
struct mip_rt_heap_range {
  uintptr_t start, end;
};
struct mip_rt_heap_maps {
  struct mip_rt_heap_range *ranges;
  uint32_t count, cap;
  uint32_t complete;
  uint32_t field, writable; /* where the line being read is */
  uintptr_t start, end;
};
MIP_RT_HIDDEN void mip_rt_heap_maps_feed(struct mip_rt_heap_maps *m,
                                         const char *text, size_t n);

/* ---- Sampling (heap_sample.c) ----------------------------------------- */

/* MIP_OPTIONS heap_sample (0: off) and heap_sample_seed (0: none), as
 * this image read them. */
MIP_RT_HIDDEN extern uint64_t mip_rt_heap_sample_option;
MIP_RT_HIDDEN extern uint64_t mip_rt_heap_sample_seed;
/* Bytes the thread still allocates before its next sample point. */
MIP_RT_HIDDEN extern __thread uint64_t mip_rt_heap_sample_left;
/* A block's weight is kept in 1/65536ths of a block (SampleWeight). */
#define MIP_RT_HEAP_SAMPLE_ONE 65536.0
/* The chance that a block of size bytes is recorded at that rate. */
MIP_RT_HIDDEN double mip_rt_heap_sample_chance(uint64_t rate, uint64_t size);
/* What a recorded block of size bytes stands for: 1/p blocks (in
 * 1/65536ths) and size/p bytes, rounded. */
MIP_RT_HIDDEN void mip_rt_heap_sample_weigh(uint64_t rate, uint64_t size,
                                            uint64_t *weight, uint64_t *bytes);
/* A block that reached the thread's sample point (or the thread's first):
 * 1 when it is recorded; the next point drawn. */
MIP_RT_HIDDEN int mip_rt_heap_sample_slow(uint64_t rate, uint64_t size);
/* Whether the thread's next block of size bytes is recorded: nearly
 * always a subtraction and no. */
static inline int mip_rt_heap_sampled(uint64_t rate, uint64_t size) {
  if (__builtin_expect(size < mip_rt_heap_sample_left, 1)) {
    mip_rt_heap_sample_left -= size;
    return 0;
  }
  return mip_rt_heap_sample_slow(rate, size);
}
/* Sampled, whether the countdown passes over the thread's next block of
 * size bytes (then counted down by it): what the hooks ask before they
 * make a frame. 0 when every block is recorded, or when the block reaches
 * the sample point (then mip_rt_heap_sample_slow decides). */
static inline __attribute__((always_inline)) int
mip_rt_heap_sample_passes(uint64_t size) {
  if (__builtin_expect(mip_rt_heap_sample_option != 0, 1)) {
    uint64_t *left = &mip_rt_heap_sample_left; /* its address found once */
    if (__builtin_expect(size < *left, 1)) {
      *left -= size;
      return 1;
    }
  }
  return 0;
}

/* The marks of a sampled run's recorded blocks, so that the free of any
 * other block learns it was not recorded without a table lookup: per 512
 * bytes of address space (1 KiB on Armv7) a counter of the recorded
 * blocks live in the table that start there, kept by the owner's state
 * (heap_state.c: 1 more when a birth adds its block to the table, 1 less
 * when one dies; atomic, since neighbours may be born and die on other
 * threads). They are the shadow's own counters: a counter of each 64
 * bytes of the shadow, which only a program access to the shadow itself
 * would count (none does), so they take no memory of their own and
 * share the shadow's place in every image. Where counters do not cover
 * (an address above the shadow's limit under valgrind) the table is
 * asked. */
#define MIP_RT_HEAP_SHADOW_OF(a)                                               \
  (MIP_RT_HEAP_SHADOW_OFFSET +                                                 \
   (((uintptr_t)(a) >> MIP_RT_HEAP_GRANULE_SHIFT) << MIP_RT_HEAP_COUNTER_SHIFT))
static inline mip_rt_heap_counter *mip_rt_heap_sample_mark_of(uintptr_t p) {
  /* MIP_RT_HEAP_SHADOW_OF(MIP_RT_HEAP_SHADOW_OF(p)), the offset being a
   * multiple of a granule: one shift of p and a constant. */
  return (mip_rt_heap_counter *)(MIP_RT_HEAP_SHADOW_OF(
                                     MIP_RT_HEAP_SHADOW_OFFSET) +
                                 ((p >> (2 * MIP_RT_HEAP_GRANULE_SHIFT -
                                         MIP_RT_HEAP_COUNTER_SHIFT))
                                  << MIP_RT_HEAP_COUNTER_SHIFT));
}
/* The addresses the shadow covers (heap_shadow.c; the header's). */
MIP_RT_HIDDEN extern uint64_t mip_rt_heap_shadow_covered;
/* A block at p joined (born 1) or left for good (born 0) the table of a
 * sampled state h: its mark, when h counts in the process's shadow. */
MIP_RT_HIDDEN void mip_rt_heap_sample_mark(const struct mip_rt_heap *h,
                                           uintptr_t p, int born);
/* The last block a realloc moved on this thread (heap_owner.c): the hook
 * that follows puts the new block in its context. */
MIP_RT_HIDDEN extern __thread uintptr_t mip_rt_heap_moved_from;
/* This image's ops (heap_owner.c): the header names them when this image
 * owns the heap state. */
MIP_RT_HIDDEN extern const struct mip_rt_heap_ops mip_rt_heap_image_ops;
/* Whether a free of p needs nothing from the heap state, in a few loads:
 * this image samples (so its shadow is in place: the option is read only
 * then), no recorded block starts in p's 512 bytes, and this image owns
 * the state (so its heap_sample is the state's, which keeps the marks). */
static inline __attribute__((always_inline)) int
mip_rt_heap_sample_untracked(uintptr_t p) {
  return mip_rt_heap_sample_option &&
         (uint64_t)p < mip_rt_heap_shadow_covered &&
         !__atomic_load_n(mip_rt_heap_sample_mark_of(p), __ATOMIC_RELAXED) &&
         __atomic_load_n(&MIP_RT_HEAP_HEADER->owner, __ATOMIC_ACQUIRE) ==
             &mip_rt_heap_image_ops;
}

/* ---- Blocks whose death went unseen (heap_loss.c) ------------------- */

/* Before the owner writes its profile: the statistics of frees MIP could
 * not see (MIP_RT_HEAP_STAT_UNINTERPOSED, _LIVE_UNINTERPOSED), and, once
 * per state, one line on stderr when they concern at least
 * MIP_HEAP_LOSS_PERCENT of its blocks. */
MIP_RT_HIDDEN void mip_rt_heap_loss_note(struct mip_rt_heap *h);

#endif
