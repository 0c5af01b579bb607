/* MemInfoBlocks: the fields of mip/layout/mib.inc and their merge rules.
 * Part of libmipfmt's interface: include "mipfmt.h", which includes every
 * part in order. */
#ifndef MIPFMT_MIB_H
#define MIPFMT_MIB_H

/* ---- MemInfoBlocks (mip/layout/mib.inc, docs/heap.md) --------------- */

/* Dense indices of the MemInfoBlock fields this build knows, in mib.inc
 * order; files name fields by their ids instead. */
enum mip_mib_index {
#define MIP_MIB_FIELD(id, Name, type) MIP_MIBI_##Name,
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  MIP_MIB_COUNT
};

/* How two MemInfoBlocks of one context combine, per field. */
enum mip_mib_rule {
  MIP_MIB_SUM,  /* saturating at the field's width */
  MIP_MIB_MIN,
  MIP_MIB_MAX,
  MIP_MIB_LAST, /* from the later block: see mip_mib_merge */
};

struct mip_mib_def {
  uint32_t id;
  const char *name; /* MemProf's name, or MIP's */
  uint32_t width;   /* bytes in files: 4 or 8 */
  enum mip_mib_rule rule;
};

extern const struct mip_mib_def mip_mib_defs[MIP_MIB_COUNT];

/* The dense index of field id, or -1 for an id this build does not know.
 * A field this build does not know is 8 bytes wide in files (fields added
 * after the first schema are all u64). */
int mip_mib_index(uint32_t id);
uint32_t mip_mib_width(uint32_t id);

struct mip_mib {
  uint64_t v[MIP_MIB_COUNT]; /* by mip_mib_index */
};

/* Combines from into into. Sums saturate at the field's width, minima and
 * maxima are taken, and the four "last block" fields (AllocTimestamp,
 * DeallocTimestamp, AllocCpuId, DeallocCpuId) come together from the
 * block whose (DeallocTimestamp, AllocTimestamp, AllocCpuId, DeallocCpuId)
 * is the larger: commutative and associative, so any order of merging
 * gives the same result. */
void mip_mib_merge(struct mip_mib *into, const struct mip_mib *from);
/* Whether the fields of a MemInfoBlock agree with each other, as every
 * block a run writes does and mip_mib_merge keeps them: 0, or -1 with the
 * contradiction in why ("3 blocks live at exit of 2 allocated"). Both
 * readers, raw and indexed, refuse a block that fails. */
int mip_mib_check(const struct mip_mib *m, char *why, size_t size);

/* SampleWeight's unit: 1/65536 of a block. */
#define MIP_MIB_SAMPLE_ONE 65536.0
/* A sampled run's MemInfoBlock (its recorded blocks' exact figures) as
 * the estimates docs/heap.md defines: AllocCount and TotalSize become
 * what the blocks stand for (SampleWeight, SampleBytes); sums over blocks
 * and counts of blocks are scaled by the same factor as AllocCount, byte
 * figures by TotalSize's; minima, maxima and the last block's fields
 * stay the recorded blocks'. */
void mip_mib_estimate(struct mip_mib *m);

#endif
