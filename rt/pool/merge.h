/*
 * Pool mode's pieces (merge*.c): a pattern with %Nm makes each image add
 * its run to a pooled raw profile (docs/runtime.md, "Pooled profiles";
 * the format in docs/formats.md). merge.c takes the file's lock and
 * writes the result; the others add one part of this run to what the file
 * holds, each into payloads of the merged file:
 *
 *   merge_read.c      a raw profile in memory: header and sections checked
 *   merge_counters.c  counter totals and the runs' coverage patterns
 *   merge_edges.c     call edges and statistics
 *   merge_heap.c      heap contexts, their stacks, the loaded segments
 *   merge_timeline.c  the heap timeline of the run with the highest peak
 *   merge_peak_check.c  lib's checks of heap peaks and timelines
 *   merge_mib.c       how MemInfoBlocks combine: lib's own rules
 *   merge_lock.c      the lock, with a bounded wait
 *   merge_options.c   its setting of MIP_OPTIONS (pool_wait)
 *   merge_arena.c     the memory all of it uses, mapped, never malloc's
 *
 * Everything the file holds is checked before it is used: a file that
 * fails a check is left as it is, and the run goes to a file of its own.
 */
#ifndef MIP_RT_MERGE_H
#define MIP_RT_MERGE_H

#include "mip_rt.h"
#include "mipfmt.h" /* struct mip_mib: the merge rules are lib's (merge_mib.c) */

/* ---- merge_options.c: pool_wait of MIP_OPTIONS ---------------------- */
/* Seconds to wait for a pooled file's lock (default 60). */
MIP_RT_HIDDEN extern int mip_rt_pool_wait;

/* ---- merge_arena.c: memory for one merge, given back whole ---------- */
struct mip_rt_arena {
  struct mip_rt_chunk *chunks;
};
/* size zeroed bytes, 8-aligned; NULL when the kernel gives no memory. */
MIP_RT_HIDDEN void *mip_rt_arena_alloc(struct mip_rt_arena *a, uint64_t size);
MIP_RT_HIDDEN void mip_rt_arena_free(struct mip_rt_arena *a);

/* ---- merge_read.c: a raw profile, read ------------------------------ */
struct mip_rt_section {
  uint32_t kind, elem_size;
  uint64_t link_addr, size;
  const uint8_t *data;
};

struct mip_rt_view {
  int present; /* 0: no file (or an empty one): no runs */
  int pooled;  /* MIP_RAW_POOLED */
  int cov_zero; /* MIP_RAW_COV_ZERO: a COV byte of 0 means entered */
  uint64_t modes, runs;
  uint32_t build_id_size;
  uint8_t build_id[MIP_BUILD_ID_MAX];
  struct mip_rt_section sections[MIP_RT_MAX_PAYLOADS];
  size_t count;
};

/* Why a merge did not happen, for the one line on stderr. */
struct mip_rt_why {
  char text[256];
};
/* Sets why to the strings up to the NULL; returns -1. */
MIP_RT_HIDDEN int mip_rt_why_set(struct mip_rt_why *why, const char *first,
                                 ...) __attribute__((sentinel));

/* Reads data[0..size) as a raw profile this runtime can merge: -1 with
 * why set for another format version or a header or section table that
 * does not hold together. */
MIP_RT_HIDDEN int mip_rt_view_read(const uint8_t *data, uint64_t size,
                                   struct mip_rt_view *v,
                                   struct mip_rt_why *why);
MIP_RT_HIDDEN const struct mip_rt_section *
mip_rt_view_find(const struct mip_rt_view *v, uint32_t kind);
/* Whether old (if present) holds runs of the image that wrote run: the
 * same build-id, modes and counter arrays. */
MIP_RT_HIDDEN int mip_rt_view_same_image(const struct mip_rt_view *old,
                                         const struct mip_rt_view *run,
                                         struct mip_rt_why *why);

/* ---- one merge ------------------------------------------------------ */
struct mip_rt_merge {
  struct mip_rt_arena arena;
  const struct mip_rt_image *image;
  struct mip_rt_view old; /* what the file held */
  struct mip_rt_view run; /* this run, rendered */
  struct mip_rt_payload out[MIP_RT_MAX_PAYLOADS]; /* the merged file's */
  size_t out_count;
  struct mip_rt_why why;
};

/* Merges m->run into m->old (present or not): the merged file's header
 * and payloads in *raw, its bytes in m's arena; 0, or -1 with m->why set. */
MIP_RT_HIDDEN int mip_rt_merge_all(struct mip_rt_merge *m,
                                   struct mip_rt_raw *raw);
/* Appends a payload of the merged file, its bytes from the arena (zeroed);
 * NULL when there is no memory (why set). */
MIP_RT_HIDDEN uint8_t *mip_rt_merge_payload(struct mip_rt_merge *m,
                                            uint32_t kind, uint32_t elem_size,
                                            uint64_t link_addr, uint64_t size);
/* Each returns 0, or -1 with m->why set. */
MIP_RT_HIDDEN int mip_rt_merge_counters(struct mip_rt_merge *m);
MIP_RT_HIDDEN int mip_rt_merge_edges(struct mip_rt_merge *m);
MIP_RT_HIDDEN int mip_rt_merge_stats(struct mip_rt_merge *m);
/* merge_peak_check.c: lib's checks of heap peaks and points (NULL, or
 * what is wrong). */
MIP_RT_HIDDEN const char *mip_rt_heap_peak_check(const struct mip_heap_peak *k);
MIP_RT_HIDDEN const char *
mip_rt_heap_points_check(const struct mip_heap_peak *k,
                         const struct mip_heap_point *pt, size_t n);
/* merge_timeline.c: the TIMELINE of the run with the highest peak and the
 * others' PEAKS; which side's contexts lose their at-peak values. */
MIP_RT_HIDDEN int mip_rt_merge_timeline(struct mip_rt_merge *m, int *clear_old,
                                        int *clear_run);
/* Heap payloads: mip_rt_merge_heap (mip_rt.h), which only heap images
 * link. */

/* A hash of 64-bit words, for the merges' tables. */
static inline uint64_t mip_rt_mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

/* ---- merge_mib.c: lib/heap_mib.c under names of the runtime's own ---- */
MIP_RT_HIDDEN void mip_rt_mib_merge(struct mip_mib *into,
                                    const struct mip_mib *from);
/* lib's mip_mib_check: whether a MemInfoBlock's fields agree; 0, or -1
 * with the contradiction in why. */
MIP_RT_HIDDEN int mip_rt_mib_check(const struct mip_mib *m, char *why,
                                   size_t size);

/* ---- merge_lock.c --------------------------------------------------- */
/* Opens path (creating it, and its directories, empty when missing) and
 * takes its lock, waiting up to wait_seconds: the descriptor, which holds
 * the lock until it is closed, or -1 with why set. */
MIP_RT_HIDDEN int mip_rt_pool_lock(const char *path, int wait_seconds,
                                   struct mip_rt_why *why);

#endif
