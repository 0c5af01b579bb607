/* A sampled run's MemInfoBlocks as estimates (docs/heap.md, "Sampled
 * heap profiling"): what mipdata shows, diffs and exports of a profile
 * whose runs recorded a block with chance 1 - exp(-size / heap_sample).
 * Apart from heap_mib.c, which pool mode compiles into the runtime. */
#include <stdint.h>

#include "mipfmt.h"

/* v * factor, rounded, saturating at the field's width. */
static uint64_t scaled(int i, uint64_t v, double factor) {
  uint64_t max = mip_mib_defs[i].width == 4 ? UINT32_MAX : UINT64_MAX;
  double x = (double)v * factor + 0.5;
  return x >= (double)max ? max : (uint64_t)x;
}

void mip_mib_estimate(struct mip_mib *m) {
  static const int per_block[] = {
      MIP_MIBI_TotalAccessCount,   MIP_MIBI_TotalLifetime,
      MIP_MIBI_TotalAccessDensity, MIP_MIBI_TotalLifetimeAccessDensity,
      MIP_MIBI_NumMigratedCpu,     MIP_MIBI_NumLifetimeOverlaps,
      MIP_MIBI_NumSameAllocCpu,    MIP_MIBI_NumSameDeallocCpu,
      MIP_MIBI_LiveAtExitCount,    MIP_MIBI_ReallocCount,
      MIP_MIBI_AtPeakCount,        MIP_MIBI_GhostFreeCount};
  static const int per_byte[] = {MIP_MIBI_LiveAtExitSize,
                                 MIP_MIBI_PeakLiveSize, MIP_MIBI_AtPeakSize};
  uint64_t count = m->v[MIP_MIBI_AllocCount], size = m->v[MIP_MIBI_TotalSize];
  if (!count)
    return;
  double blocks = (double)m->v[MIP_MIBI_SampleWeight] / MIP_MIB_SAMPLE_ONE;
  double by_block = blocks / (double)count;
  double by_byte = size ? (double)m->v[MIP_MIBI_SampleBytes] / (double)size
                        : by_block;
  for (size_t k = 0; k < sizeof per_block / sizeof per_block[0]; k++)
    m->v[per_block[k]] = scaled(per_block[k], m->v[per_block[k]], by_block);
  for (size_t k = 0; k < sizeof per_byte / sizeof per_byte[0]; k++)
    m->v[per_byte[k]] = scaled(per_byte[k], m->v[per_byte[k]], by_byte);
  m->v[MIP_MIBI_AllocCount] = scaled(MIP_MIBI_AllocCount, count, by_block);
  m->v[MIP_MIBI_TotalSize] = m->v[MIP_MIBI_SampleBytes];
}
