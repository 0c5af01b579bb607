/*
 * MemInfoBlock fields (mip/layout/mib.inc) and how two blocks of one
 * allocation context combine: MemProf's MemInfoBlock::Merge, made
 * independent of the order in which blocks are combined (docs/heap.md).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mipfmt.h"

#define WIDTH_u32 4
#define WIDTH_u64 8

/* Which rule each field follows, by name. */
#define RULE_AllocCount MIP_MIB_SUM
#define RULE_TotalAccessCount MIP_MIB_SUM
#define RULE_MinAccessCount MIP_MIB_MIN
#define RULE_MaxAccessCount MIP_MIB_MAX
#define RULE_TotalSize MIP_MIB_SUM
#define RULE_MinSize MIP_MIB_MIN
#define RULE_MaxSize MIP_MIB_MAX
#define RULE_AllocTimestamp MIP_MIB_LAST
#define RULE_DeallocTimestamp MIP_MIB_LAST
#define RULE_TotalLifetime MIP_MIB_SUM
#define RULE_MinLifetime MIP_MIB_MIN
#define RULE_MaxLifetime MIP_MIB_MAX
#define RULE_AllocCpuId MIP_MIB_LAST
#define RULE_DeallocCpuId MIP_MIB_LAST
#define RULE_NumMigratedCpu MIP_MIB_SUM
#define RULE_NumLifetimeOverlaps MIP_MIB_SUM
#define RULE_NumSameAllocCpu MIP_MIB_SUM
#define RULE_NumSameDeallocCpu MIP_MIB_SUM
#define RULE_TotalAccessDensity MIP_MIB_SUM
#define RULE_MinAccessDensity MIP_MIB_MIN
#define RULE_MaxAccessDensity MIP_MIB_MAX
#define RULE_TotalLifetimeAccessDensity MIP_MIB_SUM
#define RULE_MinLifetimeAccessDensity MIP_MIB_MIN
#define RULE_MaxLifetimeAccessDensity MIP_MIB_MAX
#define RULE_LiveAtExitCount MIP_MIB_SUM
#define RULE_LiveAtExitSize MIP_MIB_SUM
#define RULE_PeakLiveSize MIP_MIB_MAX
#define RULE_ReallocCount MIP_MIB_SUM
/* Contexts of one run at its one peak add up; runs' peaks are different
 * moments: a merge of runs keeps one run's (heap_profile.c). */
#define RULE_AtPeakSize MIP_MIB_SUM
#define RULE_AtPeakCount MIP_MIB_SUM
#define RULE_GhostFreeCount MIP_MIB_SUM
#define RULE_SampleWeight MIP_MIB_SUM
#define RULE_SampleBytes MIP_MIB_SUM

const struct mip_mib_def mip_mib_defs[MIP_MIB_COUNT] = {
#define MIP_MIB_FIELD(id, Name, type) {id, #Name, WIDTH_##type, RULE_##Name},
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};

int mip_mib_index(uint32_t id) {
  switch (id) {
#define MIP_MIB_FIELD(id, Name, type)                                          \
  case id:                                                                     \
    return MIP_MIBI_##Name;
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  }
  return -1;
}

uint32_t mip_mib_width(uint32_t id) {
  int i = mip_mib_index(id);
  return i < 0 ? 8 : mip_mib_defs[i].width;
}

static uint64_t field_max(int i) {
  return mip_mib_defs[i].width == 4 ? UINT32_MAX : UINT64_MAX;
}

/* The "last block" of the two: the later one, as the tuple below orders
 * them (a total order, so the choice never depends on which came first). */
static int later(const struct mip_mib *a, const struct mip_mib *b) {
  static const int order[] = {MIP_MIBI_DeallocTimestamp,
                              MIP_MIBI_AllocTimestamp, MIP_MIBI_AllocCpuId,
                              MIP_MIBI_DeallocCpuId};
  for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
    if (a->v[order[k]] != b->v[order[k]])
      return a->v[order[k]] > b->v[order[k]];
  return 0;
}

void mip_mib_merge(struct mip_mib *into, const struct mip_mib *from) {
  int take_last = later(from, into);
  for (int i = 0; i < MIP_MIB_COUNT; i++) {
    uint64_t a = into->v[i], b = from->v[i], max = field_max(i);
    switch (mip_mib_defs[i].rule) {
    case MIP_MIB_SUM:
      into->v[i] = a > max - b || b > max ? max : a + b;
      break;
    case MIP_MIB_MIN:
      into->v[i] = b < a ? b : a;
      break;
    case MIP_MIB_MAX:
      into->v[i] = b > a ? b : a;
      break;
    case MIP_MIB_LAST:
      if (take_last)
        into->v[i] = b;
      break;
    }
  }
}

int mip_mib_check(const struct mip_mib *m, char *why, size_t size) {
  uint64_t count = m->v[MIP_MIBI_AllocCount];
  if (m->v[MIP_MIBI_LiveAtExitCount] > count)
    snprintf(why, size, "%" PRIu64 " blocks live at exit of %" PRIu64
                        " allocated",
             m->v[MIP_MIBI_LiveAtExitCount], count);
  else if (count && m->v[MIP_MIBI_MinSize] > m->v[MIP_MIBI_MaxSize])
    snprintf(why, size, "MinSize %" PRIu64 " above MaxSize %" PRIu64,
             m->v[MIP_MIBI_MinSize], m->v[MIP_MIBI_MaxSize]);
  else if (m->v[MIP_MIBI_AtPeakCount] > count)
    snprintf(why, size, "%" PRIu64 " blocks at the peak of %" PRIu64
                        " allocated",
             m->v[MIP_MIBI_AtPeakCount], count);
  else if (m->v[MIP_MIBI_AtPeakSize] > m->v[MIP_MIBI_TotalSize])
    snprintf(why, size, "%" PRIu64 " bytes at the peak of %" PRIu64
                        " allocated",
             m->v[MIP_MIBI_AtPeakSize], m->v[MIP_MIBI_TotalSize]);
  else if (m->v[MIP_MIBI_LiveAtExitSize] > m->v[MIP_MIBI_TotalSize])
    snprintf(why, size, "%" PRIu64 " bytes live at exit of %" PRIu64
                        " allocated",
             m->v[MIP_MIBI_LiveAtExitSize], m->v[MIP_MIBI_TotalSize]);
  else
    return 0;
  return -1;
}
