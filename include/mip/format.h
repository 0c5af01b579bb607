/*
 * MIP file formats: magics, versions and the numbers stored in files.
 * The field layouts themselves live in mip/layout/\*.inc (one definition
 * shared by every writer and reader); docs/formats.md describes them.
 */
#ifndef MIP_FORMAT_H
#define MIP_FORMAT_H

#include <stdint.h>

#define MIP_BUILD_ID_MAX 64

/* 8-byte magics, stored little-endian: the first byte on disk is 0x7f. */
#define MIP_MAGIC(a, b, c, d, e, f, g)                                         \
  (0x7fULL | (uint64_t)(a) << 8 | (uint64_t)(b) << 16 |                        \
   (uint64_t)(c) << 24 | (uint64_t)(d) << 32 | (uint64_t)(e) << 40 |           \
   (uint64_t)(f) << 48 | (uint64_t)(g) << 56)
#define MIP_RAW_MAGIC MIP_MAGIC('M', 'I', 'P', 'R', 'A', 'W', 0)
#define MIP_MAPFILE_MAGIC MIP_MAGIC('M', 'I', 'P', 'M', 'A', 'P', 0)
#define MIP_PROFILE_MAGIC MIP_MAGIC('M', 'I', 'P', 'P', 'R', 'O', 0)

/* Versions this build writes and the newest it reads. */
#define MIP_RAW_VERSION 2 /* 2: flags and runs (pooled files); EDGES may
                             * hold free slots (continuous mode) */
#define MIP_MAPFILE_VERSION 2 /* 2 added the symbol table */
#define MIP_PROFILE_VERSION 2 /* 2 gave heap frames their object */
#define MIP_MAP_UNIT_VERSION 1
/* Unit record flags. HEAP_UNCOUNTED: heap hooks without access counters
 * (-fmip-generate=heap-allocs): its code counts no heap accesses. */
#define MIP_MAP_UNIT_HEAP_UNCOUNTED 1u
#define MIP_MAP_FUNCTION_VERSION 1
#define MIP_MAP_BLOCKS_VERSION 1
#define MIP_MAP_HEAP_SITE_VERSION 1
#define MIP_MAP_DATA_VERSION 1
#define MIP_MAP_EDGE_COUNTS_VERSION 1

/* The map section's name in object files and linked images. A .debug_
 * name makes linkers keep it under --gc-sections without keeping what it
 * refers to, and makes strip and objcopy --only-keep-debug treat it like
 * the rest of the build-time data. */
#define MIP_MAP_SECTION ".debug_mip"

/* Counter kinds (mip/layout/raw_kinds.inc). */
enum mip_raw_kind {
#define MIP_RAW_KIND(id, NAME, section, elem_size) MIP_RAW_##NAME = id,
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
};
#define MIP_MODE_BIT(kind) (1ULL << (kind))

/* Raw profile payloads the runtime makes, beside the counter sections.
 * Their kinds start at 32, so they never meet a counter kind. */
enum mip_raw_payload_kind {
  MIP_RAW_EDGES = 32,         /* raw_edge entries */
  MIP_RAW_STATS = 33,         /* raw_stat entries */
  MIP_RAW_HEAP_MIBS = 34,     /* raw_heap_mibs header, schema, contexts */
  MIP_RAW_HEAP_STACKS = 35,   /* raw_heap_stack entries and their frames */
  MIP_RAW_HEAP_SEGMENTS = 36, /* raw_heap_segment entries */
  MIP_RAW_HEAP_TIMELINE = 37, /* heap_peak, raw_heap_timeline, heap_point
                                 entries: the process's, in the owner's */
  MIP_RAW_HEAP_PEAKS = 38,    /* heap_peak entries: a pooled file's runs
                                 other than the TIMELINE's */
  /* Pooled raw profiles (MIP_RAW_POOLED) hold, instead of each counter
   * kind's section, its totals over the runs: kind MIP_RAW_POOL_BASE +
   * the counter kind. */
  MIP_RAW_POOL_COV = 41,  /* u64 per COV byte: runs that entered it */
  MIP_RAW_POOL_CNT = 42,  /* u64 per CNT counter: calls, summed */
  MIP_RAW_POOL_ORD = 43,  /* raw_pool_rank per ORD slot */
  MIP_RAW_POOL_BLK = 44,  /* raw_pool_blocks: distinct coverage patterns */
  MIP_RAW_POOL_SITE = 45, /* u64 per SITE byte: runs that ran it */
  MIP_RAW_POOL_DATA = 46, /* u64 per DATA counter: accesses, summed */
  MIP_RAW_POOL_BCNT = 47, /* u64 per BCNT counter: edge counts, summed */
};
#define MIP_RAW_POOL_BASE 40
#define MIP_RAW_POOL_LAST MIP_RAW_POOL_BCNT

/* Raw header flags (version 2). */
#define MIP_RAW_POOLED 1u /* the file pools runs: MIP_RAW_POOL_* payloads */
/* A file of one run whose COV bytes are 0 for a function that ran and
 * non-zero for one that did not (an AArch64 image: mip/arch.h). Never
 * with MIP_RAW_POOLED: totals count runs either way. */
#define MIP_RAW_COV_ZERO 2u

/* MemInfoBlock fields (mip/layout/mib.inc). */
enum mip_mib_field {
#define MIP_MIB_FIELD(id, Name, type) MIP_MIB_##Name = id,
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};

/* The allocation and deallocation functions MIP hooks (map_heap_site
 * allocator; mip/allocators.inc). */
enum mip_allocator {
#define MIP_ALLOCATOR(id, NAME, name, frees, c, hook, ptr, size, factor)      \
  MIP_ALLOC_##NAME = id,
#include "mip/allocators.inc"
#undef MIP_ALLOCATOR
};

/* Runtime statistics (raw_stat / profile_stat keys). */
enum mip_stat {
  MIP_STAT_EDGE_SAMPLES_DROPPED = 1, /* edge table full */
  MIP_STAT_EDGE_PERIOD = 2,          /* calls per edge sample */
  MIP_STAT_HEAP_UNSEEN_FREES = 3,    /* instrumented frees of pointers
                                        never seen allocated */
  MIP_STAT_HEAP_FREED_UNSEEN = 4,    /* live blocks closed because their
                                        address was allocated again */
  MIP_STAT_HEAP_TRUNCATED_STACKS = 5, /* stacks cut at the depth limit */
  MIP_STAT_HEAP_DROPPED = 6,         /* allocations the tables had no
                                        room for */
  MIP_STAT_HEAP_STACK_DEPTH = 7,     /* the depth limit */
  MIP_STAT_HEAP_UNINTERPOSED = 8,    /* 1: frees by code MIP did not
                                        instrument went unseen (no
                                        interposer, no redirection) */
  MIP_STAT_HEAP_LIVE_UNINTERPOSED = 9, /* blocks live when written while
                                          so: they may have been freed */
  MIP_STAT_HEAP_SAMPLE_BYTES = 10,   /* a sampled run's heap_sample: a
                                        block of size bytes recorded with
                                        chance 1 - exp(-size / it) */
  MIP_STAT_HEAP_UNCOUNTED = 11,      /* units of the image built with
                                        heap-allocs: their code counts no
                                        heap accesses (from the map) */
};

/* How a statistic of several runs combines: the edge period, the stack
 * depth limit (the same in every run of a build) and the heap sampling
 * rate take the largest value, every other key the sum. */
#define MIP_STAT_TAKES_MAX(key)                                                \
  ((key) == MIP_STAT_EDGE_PERIOD || (key) == MIP_STAT_HEAP_STACK_DEPTH ||    \
   (key) == MIP_STAT_HEAP_SAMPLE_BYTES || (key) == MIP_STAT_HEAP_UNCOUNTED)

/* Blocks whose death MIP could not see (freed unseen, or live while frees
 * went unseen) are reported, by the runtime on stderr and by mipdata show
 * --heap, from this share of all blocks up, in percent. */
#define MIP_HEAP_LOSS_PERCENT 1

/* One edge sample is taken on a function's first call and then every
 * MIP_EDGE_PERIOD calls. */
#define MIP_EDGE_PERIOD 1024

/* Map record kinds. */
enum mip_map_kind {
  MIP_MAP_UNIT = 1,
  MIP_MAP_FUNCTION = 2,
  MIP_MAP_BLOCKS = 3,
  MIP_MAP_HEAP_SITE = 4,
  MIP_MAP_DATA = 5,
  MIP_MAP_EDGE_COUNTS = 6,
};

/* Global variable flags (map_data records and profile_data entries). */
enum mip_data_flags {
  MIP_DATA_LOCAL = 1u << 0,    /* local linkage: key is "unit;name" */
  MIP_DATA_CONSTANT = 1u << 1, /* never written (.rodata, .data.rel.ro) */
  MIP_DATA_ZERO = 1u << 2,     /* starts as zeros (.bss) */
  /* Its address is used otherwise than by a load or store of code MIP
   * counts (passed to a function, stored, compared, in another global's
   * initializer): accesses through such pointers are not counted, so no
   * accesses does not mean never touched. */
  MIP_DATA_ESCAPES = 1u << 3,
  /* The record of the unit that defines it; others (references from
   * other units) do not know its size or kind. */
  MIP_DATA_DEFINED = 1u << 4,
};

/* map_block probe values besides a BLK index. */
#define MIP_PROBE_ENTRY 0xfffffffeu /* the function's coverage byte */
#define MIP_PROBE_NONE 0xffffffffu  /* inferred from its deps */

/* "none" in profile tables. */
#define MIP_NO_OFFSET UINT64_MAX
#define MIP_NO_FUNCTION UINT32_MAX

/* Function flags (map records and profile entries). */
enum mip_function_flags {
  MIP_FN_LOCAL = 1u << 0,  /* local linkage: key is "unit;name" */
  MIP_FN_COMDAT = 1u << 1, /* in a COMDAT group (inline, template) */
  /* cfg_hash covers what calls call and the constants branches compare
   * with (the CFG hash, recipe 2: docs/formats.md); without it, recipe 1 */
  MIP_FN_HASH_CALLS = 1u << 2,
  /* Map records only: entry is an Arm code address, whose bit 0 says
   * Thumb state (the linker sets it in a reference to a Thumb function);
   * the map's reader clears it, so entry is the first instruction's
   * address, as DWARF and the symbols' ranges say. */
  MIP_FN_THUMB_BIT = 1u << 3,
};

/* Indexed profile section kinds. A reader skips kinds it does not know. */
enum mip_profile_kind {
  MIP_PROF_STRINGS = 1,     /* NUL-terminated strings; offset 0 is "" */
  MIP_PROF_EXTENTS = 2,     /* raw_extent entries: the image's counters */
  MIP_PROF_FUNCTIONS = 3,   /* profile_function entries */
  MIP_PROF_CALLS = 4,       /* profile_calls, parallel to FUNCTIONS */
  MIP_PROF_ORDER = 5,       /* profile_order, parallel to FUNCTIONS */
  MIP_PROF_BLOCKS = 6,      /* profile_blocks, parallel to FUNCTIONS */
  MIP_PROF_BLOCK_TABLE = 7, /* profile_block entries */
  MIP_PROF_DEPS = 8,        /* u32 block numbers */
  MIP_PROF_EDGES = 9,       /* profile_edge entries */
  MIP_PROF_SYMBOLS = 10,    /* symbol entries: the image's functions */
  MIP_PROF_STATS = 11,      /* profile_stat entries */
  MIP_PROF_HEAP_SITES = 12,  /* profile_heap_site entries */
  MIP_PROF_HEAP_FRAMES = 13, /* profile_heap_frame entries */
  MIP_PROF_HEAP_STACKS = 14, /* u32 frame indices, innermost first */
  MIP_PROF_HEAP_SCHEMA = 15, /* u32 MemInfoBlock field ids */
  MIP_PROF_HEAP_CONTEXTS = 16, /* profile_heap_context, then the fields */
  MIP_PROF_HEAP_PEAKS = 17,    /* heap_peak entries: the kept run's first */
  MIP_PROF_HEAP_TIMELINE = 18, /* heap_point entries of the kept run */
  MIP_PROF_DATA = 19,          /* profile_data entries: global variables */
  MIP_PROF_EDGE_COUNTS = 20,   /* profile_edge_counts entries */
  MIP_PROF_EDGE_COUNTERS = 21, /* u64 edge counts (block-counts mode) */
  MIP_PROF_KIND_COUNT
};

#endif
