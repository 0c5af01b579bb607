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

static uint64_t add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
#define COMBINE_SUM(a, b) add(a, b)
#define COMBINE_MIN(a, b) ((b) < (a) ? (b) : (a))
#define COMBINE_MAX(a, b) ((b) > (a) ? (b) : (a))
#define COMBINE_LAST(a, b) (b)
#define COMBINE(rule, a, b) COMBINE2(rule, a, b)
#define COMBINE2(rule, a, b) COMBINE_##rule(a, b)

const uint32_t mip_rt_heap_mib_ids[] = {
#define MIP_MIB_FIELD(id, Name, type) id,
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};

/* a * b / c without overflow (saturating); c > 0. */
static uint64_t scale(uint64_t a, uint64_t b, uint64_t c) {
  if (a <= UINT64_MAX / b)
    return a * b / c;
  uint64_t q = a / c;
  return q > UINT64_MAX / b ? UINT64_MAX : q * b;
}

void mip_rt_heap_mib_block(struct mip_rt_mib *m, uint64_t size, uint64_t count,
                           uint32_t alloc_ms, uint32_t dealloc_ms,
                           uint32_t alloc_cpu, uint32_t dealloc_cpu) {
  *m = (struct mip_rt_mib){0};
  m->AllocCount = 1;
  m->TotalAccessCount = m->MinAccessCount = m->MaxAccessCount = count;
  m->TotalSize = m->MinSize = m->MaxSize = size;
  m->AllocTimestamp = alloc_ms;
  m->DeallocTimestamp = dealloc_ms;
  uint32_t lifetime = dealloc_ms - alloc_ms;
  m->TotalLifetime = m->MinLifetime = m->MaxLifetime = lifetime;
  /* Accesses per byte, times 100 to keep two decimals. */
  uint64_t density = scale(count, 100, size ? size : 1);
  m->TotalAccessDensity = m->MinAccessDensity = m->MaxAccessDensity = density;
  /* The same per second of lifetime (at least 1 ms). */
  uint64_t per_second = scale(density, 1000, lifetime ? lifetime : 1);
  m->TotalLifetimeAccessDensity = m->MinLifetimeAccessDensity =
      m->MaxLifetimeAccessDensity = per_second;
  m->AllocCpuId = alloc_cpu;
  m->DeallocCpuId = dealloc_cpu;
  m->NumMigratedCpu = alloc_cpu != dealloc_cpu;
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
