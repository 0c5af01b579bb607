/* Raw profiles, as the runtime writes them (one run, or a pool of runs).
 * Part of libmipfmt's interface: include "mipfmt.h", which includes every
 * part in order. */
#ifndef MIPFMT_RAW_H
#define MIPFMT_RAW_H

/* ---- raw profile ---------------------------------------------------- */

struct mip_raw_payload {
  struct mip_extent extent;
  const uint8_t *data;
};

/* Heap payloads (docs/heap.md), checked when the raw profile is read. */
struct mip_raw_heap_context {
  uint64_t stack; /* id in stacks */
  uint64_t site;  /* runtime address of the site's byte, 0: none */
  struct mip_mib mib;
};

struct mip_raw_heap_stack {
  uint64_t id;
  uint32_t depth; /* return addresses at frames, innermost first */
  uint32_t flags; /* bit 0: truncated */
  const uint8_t *frames; /* depth little-endian u64 */
};

struct mip_raw_heap_segment {
  uint64_t start, end, load_bias;
  struct mip_build_id build_id;
  const char *path; /* "" for the executable */
};

/* Heap statistics (MIP_STAT_HEAP_*): counts summed over runs, the stack
 * depth limit the largest seen. */
struct mip_heap_stats {
  uint64_t unseen_frees;
  uint64_t freed_unseen;
  uint64_t truncated_stacks;
  uint64_t dropped;
  uint64_t stack_depth;
  uint64_t uninterposed;      /* runs whose uninstrumented frees went unseen */
  uint64_t live_uninterposed; /* blocks live at the end of those runs */
  uint64_t sample_bytes;      /* sampled runs' heap_sample (the largest);
                                 0: every block recorded */
  uint64_t uncounted;         /* units built with heap-allocs, which count
                                 no accesses (the largest; from the map) */
};

/* The global peak of a run's heap (mip/layout/heap_peak.inc) and one
 * point of its timeline (mip/layout/heap_point.inc). */
struct mip_heap_peak {
  uint64_t bytes, blocks;
  uint64_t event, events, interval;
  uint32_t ms;
};
struct mip_heap_point {
  uint64_t event;
  uint32_t ms;
  uint64_t bytes, blocks;
};

struct mip_raw_heap {
  int present;   /* the raw profile has heap payloads */
  /* The process's timeline (its owner's profile only), checked. */
  int has_timeline;
  struct mip_heap_peak peak;
  struct mip_heap_point *points;
  size_t point_count;
  /* A pooled file's other runs' peaks (PEAKS payload), none above peak. */
  struct mip_heap_peak *other_peaks;
  size_t other_peak_count;
  int has_stats; /* the raw profile has MIP_STAT_HEAP_* statistics */
  struct mip_raw_heap_context *contexts;
  size_t context_count;
  struct mip_raw_heap_stack *stacks; /* sorted by id */
  size_t stack_count;
  struct mip_raw_heap_segment *segments; /* sorted by start */
  size_t segment_count;
  struct mip_heap_stats stats;
};

/* What a pooled raw profile (MIP_RAW_POOLED) holds instead of its
 * counter sections: their totals over its runs, checked when it is read.
 * Pointers into the file; NULL where the image has no such counters. */
struct mip_raw_pool {
  const uint8_t *cov;  /* u64 per COV byte: runs that entered it */
  const uint8_t *cnt;  /* u64 per CNT counter: calls */
  const uint8_t *ord;  /* raw_pool_rank per ORD slot */
  const uint8_t *site; /* u64 per SITE byte: runs that ran it */
  /* The distinct coverage patterns (raw_pool_blocks.inc): pattern_count
   * of pattern_size bytes each, cov_size COV bits then blk_size BLK bits
   * after each one's head. */
  const uint8_t *patterns;
  uint64_t pattern_count, pattern_size;
  uint64_t cov_size, blk_size;
};

struct mip_raw {
  struct mip_build_id build_id;
  uint64_t modes;
  uint32_t pid;
  uint64_t runs; /* 1, unless pooled */
  int pooled;    /* MIP_RAW_POOLED: pool holds the counters' totals */
  int cov_zero;  /* MIP_RAW_COV_ZERO: a COV byte of 0 means entered */
  struct mip_raw_payload sections[MIP_MAX_EXTENTS];
  size_t section_count;
  /* The image's counter arrays: the counter sections of a file of one
   * run, what the totals stand for in a pooled one. */
  struct mip_extent extents[MIP_MAX_EXTENTS];
  size_t extent_count;
  struct mip_raw_pool pool;
  struct mip_raw_heap heap;
  struct mip_file file;
};

int mip_raw_read(const char *path, struct mip_raw *raw, struct mip_error *err);
int mip_raw_parse(struct mip_file *file, const char *path, struct mip_raw *raw,
                  struct mip_error *err);
/* Reads and checks the totals of a pooled raw profile (mip_raw_read does
 * it), and sets its extents. */
int mip_raw_pool_parse(struct mip_raw *raw, const char *path,
                       struct mip_error *err);
/* The image's counter array of a kind (MIP_RAW_COV...), or NULL. */
const struct mip_extent *mip_raw_extent(const struct mip_raw *raw,
                                        uint32_t kind);
/* Reads and checks the heap payloads and statistics of a raw profile
 * (mip_raw_read does it). */
int mip_raw_heap_parse(struct mip_raw *raw, const char *path,
                       struct mip_error *err);
/* The stack with id, or NULL. */
const struct mip_raw_heap_stack *mip_raw_heap_stack_find(
    const struct mip_raw_heap *heap, uint64_t id);
const struct mip_raw_payload *mip_raw_find(const struct mip_raw *raw,
                                           uint32_t kind);
void mip_raw_free(struct mip_raw *raw);

#endif
