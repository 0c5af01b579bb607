/*
 * MemInfoBlocks (mip/layout/mib.inc): one per block when it dies, merged
 * into its context's in the order blocks die. The arithmetic is LLVM
 * MemProf's (its MemInfoBlock constructor and Merge), so the two can be
 * compared field by field: densities are computed per block and then
 * summed, min'd and max'd; the "last block" fields (timestamps and CPUs)
 * come from the block merged last; NumLifetimeOverlaps counts blocks
 * allocated before the previous one died, NumSameAllocCpu and
 * NumSameDeallocCpu blocks on the same CPU as the previous one. MIP's
 * fields: LiveAtExitCount/Size and ReallocCount are summed, PeakLiveSize
 * is the larger.
 *
 * Where MemProf would divide by zero (a block of size 0) it divides by 1;
 * where its u32 fields would wrap, the encoded value saturates.
 */
#include "heap.h"

/* How each field of mib.inc combines; a field added to mib.inc without a
 * rule here does not compile. */
#define RULE_AllocCount SUM
#define RULE_TotalAccessCount SUM
#define RULE_MinAccessCount MIN
#define RULE_MaxAccessCount MAX
#define RULE_TotalSize SUM
#define RULE_MinSize MIN
#define RULE_MaxSize MAX
#define RULE_AllocTimestamp LAST
#define RULE_DeallocTimestamp LAST
#define RULE_TotalLifetime SUM
#define RULE_MinLifetime MIN
#define RULE_MaxLifetime MAX
#define RULE_AllocCpuId LAST
#define RULE_DeallocCpuId LAST
#define RULE_NumMigratedCpu SUM
#define RULE_NumLifetimeOverlaps SUM /* plus the comparison below */
#define RULE_NumSameAllocCpu SUM     /* likewise */
#define RULE_NumSameDeallocCpu SUM   /* likewise */
#define RULE_TotalAccessDensity SUM
#define RULE_MinAccessDensity MIN
#define RULE_MaxAccessDensity MAX
#define RULE_TotalLifetimeAccessDensity SUM
#define RULE_MinLifetimeAccessDensity MIN
#define RULE_MaxLifetimeAccessDensity MAX
#define RULE_LiveAtExitCount SUM
#define RULE_LiveAtExitSize SUM
#define RULE_PeakLiveSize MAX
#define RULE_ReallocCount SUM
#define RULE_AtPeakSize SUM
#define RULE_AtPeakCount SUM
#define RULE_GhostFreeCount SUM
#define RULE_SampleWeight SUM
#define RULE_SampleBytes SUM

static uint64_t add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
#define COMBINE_SUM(a, b) add(a, b)
#define COMBINE_MIN(a, b) ((b) < (a) ? (b) : (a))
#define COMBINE_MAX(a, b) ((b) > (a) ? (b) : (a))
#define COMBINE_LAST(a, b) (b)
#define COMBINE(rule, a, b) COMBINE2(rule, a, b)
#define COMBINE2(rule, a, b) COMBINE_##rule(a, b)
/* The same in place, as every death does it: a minimum or a maximum is
 * written only when the block moves it (a context's blocks are mostly
 * alike, and a store that need not happen is a load, a comparison and a
 * conditional move saved, or a branch that is rarely taken). */
#define UPDATE_SUM(f, v) (f) = add(f, v)
#define UPDATE_MIN(f, v)                                                       \
  do {                                                                         \
    if ((v) < (f))                                                             \
      (f) = (v);                                                               \
  } while (0)
#define UPDATE_MAX(f, v)                                                       \
  do {                                                                         \
    if ((v) > (f))                                                             \
      (f) = (v);                                                               \
  } while (0)
#define UPDATE_LAST(f, v) (f) = (v)
#define UPDATE(rule, f, v) UPDATE2(rule, f, v)
#define UPDATE2(rule, f, v) UPDATE_##rule(f, v)

const uint32_t mip_rt_heap_mib_ids[] = {
#define MIP_MIB_FIELD(id, Name, type) id,
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};

/* Division by a small divisor without a divide instruction (20 to 90
 * cycles; two of them in every death, for the block's densities): n / d
 * is the high half of n * ceil(2^64 / d), exactly, for every n and d
 * below 2^32 (Lemire, Kaser and Kurz, "Faster remainder by direct
 * computation", 2019, Theorem 1 with F = 64 and N = 32), so that a table
 * of those reciprocals for the divisors blocks mostly have (sizes and
 * lifetimes in ms below RECIPROCALS) gives the same quotients. The
 * table is a constant, 8 KiB, of which a program touches the lines of
 * the sizes it allocates. Entries 0 and 1 are never read. */
#ifdef __SIZEOF_INT128__
#define RECIPROCALS 1024u
#define RECIP(d) (UINT64_MAX / ((d) < 2 ? 1 : (d)) + 1)
#define RECIP4(d) RECIP(d), RECIP((d) + 1), RECIP((d) + 2), RECIP((d) + 3)
#define RECIP16(d)                                                             \
  RECIP4(d), RECIP4((d) + 4), RECIP4((d) + 8), RECIP4((d) + 12)
#define RECIP64(d)                                                             \
  RECIP16(d), RECIP16((d) + 16), RECIP16((d) + 32), RECIP16((d) + 48)
#define RECIP256(d)                                                            \
  RECIP64(d), RECIP64((d) + 64), RECIP64((d) + 128), RECIP64((d) + 192)
static const uint64_t reciprocals[RECIPROCALS] = {
    RECIP256(0), RECIP256(256), RECIP256(512), RECIP256(768)};
_Static_assert(sizeof reciprocals / sizeof reciprocals[0] == RECIPROCALS,
               "one reciprocal a divisor");
#endif

/* n / d, d at least 2. */
static inline uint64_t divide(uint64_t n, uint64_t d) {
#ifdef __SIZEOF_INT128__
  if (__builtin_expect(d < RECIPROCALS && n <= UINT32_MAX, 1))
    return (uint64_t)(((unsigned __int128)reciprocals[d] * n) >> 64);
#endif
  return n / d;
}

/* a * b / c without overflow (saturating); c 0 counts as 1 (at least one
 * byte, at least one millisecond), and needs no division. */
static uint64_t scale(uint64_t a, uint64_t b, uint64_t c) {
  if (c <= 1)
    return a > UINT64_MAX / b ? UINT64_MAX : a * b;
  if (a <= UINT64_MAX / b)
    return divide(a * b, c);
  uint64_t q = a / c;
  return q > UINT64_MAX / b ? UINT64_MAX : q * b;
}

/* One block's values, from which each field's per-block value comes. */
struct block {
  uint64_t size, count, lifetime, density, per_second;
  uint32_t alloc_ms, dealloc_ms, alloc_cpu, dealloc_cpu, realloc;
};

/* A field's value for one block (MemProf's constructor); a field added to
 * mib.inc without one here does not compile either. */
#define BLOCK_AllocCount 1
#define BLOCK_TotalAccessCount v.count
#define BLOCK_MinAccessCount v.count
#define BLOCK_MaxAccessCount v.count
#define BLOCK_TotalSize v.size
#define BLOCK_MinSize v.size
#define BLOCK_MaxSize v.size
#define BLOCK_AllocTimestamp v.alloc_ms
#define BLOCK_DeallocTimestamp v.dealloc_ms
#define BLOCK_TotalLifetime v.lifetime
#define BLOCK_MinLifetime v.lifetime
#define BLOCK_MaxLifetime v.lifetime
#define BLOCK_AllocCpuId v.alloc_cpu
#define BLOCK_DeallocCpuId v.dealloc_cpu
#define BLOCK_NumMigratedCpu (v.alloc_cpu != v.dealloc_cpu)
#define BLOCK_NumLifetimeOverlaps 0
#define BLOCK_NumSameAllocCpu 0
#define BLOCK_NumSameDeallocCpu 0
#define BLOCK_TotalAccessDensity v.density
#define BLOCK_MinAccessDensity v.density
#define BLOCK_MaxAccessDensity v.density
#define BLOCK_TotalLifetimeAccessDensity v.per_second
#define BLOCK_MinLifetimeAccessDensity v.per_second
#define BLOCK_MaxLifetimeAccessDensity v.per_second
#define BLOCK_LiveAtExitCount 0
#define BLOCK_LiveAtExitSize 0
#define BLOCK_PeakLiveSize 0
#define BLOCK_ReallocCount v.realloc
/* Set from the context when the profile is written (heap_write.c). */
#define BLOCK_AtPeakSize 0
#define BLOCK_AtPeakCount 0
#define BLOCK_GhostFreeCount 0
/* Added to sampled runs' blocks by their state (heap_state.c). */
#define BLOCK_SampleWeight 0
#define BLOCK_SampleBytes 0

static struct block values(uint64_t size, uint64_t count, uint32_t alloc_ms,
                           uint32_t dealloc_ms, uint32_t alloc_cpu,
                           uint32_t dealloc_cpu, uint32_t realloc) {
  struct block v = {.size = size, .count = count, .alloc_ms = alloc_ms,
                    .dealloc_ms = dealloc_ms, .alloc_cpu = alloc_cpu,
                    .dealloc_cpu = dealloc_cpu, .realloc = realloc};
  v.lifetime = (uint32_t)(dealloc_ms - alloc_ms);
  /* Accesses per byte, times 100 to keep two decimals (no division when
   * there were none). */
  v.density = count ? scale(count, 100, size ? size : 1) : 0;
  /* The same per second of lifetime (at least 1 ms). */
  v.per_second = v.density ? scale(v.density, 1000, v.lifetime) : 0;
  return v;
}

static void fill(struct mip_rt_mib *m, struct block v) {
#define MIP_MIB_FIELD(id, Name, type) m->Name = BLOCK_##Name;
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
}

void mip_rt_heap_mib_block(struct mip_rt_mib *m, uint64_t size, uint64_t count,
                           uint32_t alloc_ms, uint32_t dealloc_ms,
                           uint32_t alloc_cpu, uint32_t dealloc_cpu) {
  fill(m, values(size, count, alloc_ms, dealloc_ms, alloc_cpu, dealloc_cpu,
                 0));
}

void mip_rt_heap_mib_merge(struct mip_rt_mib *into,
                           const struct mip_rt_mib *b) {
  if (!into->AllocCount) {
    *into = *b;
    return;
  }
  /* Against the previous block, before the fields move on to b's. */
  uint64_t overlap = b->AllocTimestamp < into->DeallocTimestamp;
  uint64_t same_alloc = into->AllocCpuId == b->AllocCpuId;
  uint64_t same_dealloc = into->DeallocCpuId == b->DeallocCpuId;
#define MIP_MIB_FIELD(id, Name, type)                                          \
  into->Name = COMBINE(RULE_##Name, into->Name, b->Name);
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  into->NumLifetimeOverlaps = add(into->NumLifetimeOverlaps, overlap);
  into->NumSameAllocCpu = add(into->NumSameAllocCpu, same_alloc);
  into->NumSameDeallocCpu = add(into->NumSameDeallocCpu, same_dealloc);
}

/* The same as mip_rt_heap_mib_block and mip_rt_heap_mib_merge, field by
 * field from the same rules, with the block's values where its
 * MemInfoBlock's fields would be. */
void mip_rt_heap_mib_add(struct mip_rt_mib *into, uint64_t size,
                         uint64_t count, uint32_t alloc_ms,
                         uint32_t dealloc_ms, uint32_t alloc_cpu,
                         uint32_t dealloc_cpu, uint32_t realloc) {
  struct block v = values(size, count, alloc_ms, dealloc_ms, alloc_cpu,
                          dealloc_cpu, realloc);
  if (!into->AllocCount) {
    fill(into, v);
    return;
  }
  uint64_t overlap = v.alloc_ms < into->DeallocTimestamp;
  uint64_t same_alloc = into->AllocCpuId == v.alloc_cpu;
  uint64_t same_dealloc = into->DeallocCpuId == v.dealloc_cpu;
#define MIP_MIB_FIELD(id, Name, type)                                          \
  UPDATE(RULE_##Name, into->Name, BLOCK_##Name);
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  into->NumLifetimeOverlaps = add(into->NumLifetimeOverlaps, overlap);
  into->NumSameAllocCpu = add(into->NumSameAllocCpu, same_alloc);
  into->NumSameDeallocCpu = add(into->NumSameDeallocCpu, same_dealloc);
}

static uint8_t *put_u32(uint8_t *out, uint64_t v) {
  mip_put_le32(out, v > UINT32_MAX ? UINT32_MAX : (uint32_t)v);
  return out + 4;
}

static uint8_t *put_u64(uint8_t *out, uint64_t v) {
  mip_put_le64(out, v);
  return out + 8;
}

void mip_rt_heap_mib_encode(const struct mip_rt_mib *m, uint8_t *out) {
#define MIP_MIB_FIELD(id, Name, type) out = put_##type(out, m->Name);
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
}
