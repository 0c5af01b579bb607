/* Indexed profiles: read, built, merged and written.
 * Part of libmipfmt's interface: include "mipfmt.h", which includes every
 * part in order. */
#ifndef MIPFMT_PROFILE_H
#define MIPFMT_PROFILE_H

/* ---- indexed profile ------------------------------------------------ */

struct mip_profile_function {
  uint32_t key; /* string offsets */
  uint32_t name;
  uint32_t unit;
  uint32_t flags;
  uint64_t cfg_hash;
  uint64_t entry;
  uint64_t cov_offset;
  uint64_t covered_runs;
  /* calls (cnt_offset MIP_NO_OFFSET: not counted) */
  uint64_t cnt_offset;
  uint64_t calls;
  /* first-call order (ord_offset MIP_NO_OFFSET: not ranked); the mean
   * rank is rank_sum / ranked_runs */
  uint64_t ord_offset;
  uint64_t rank_sum;
  uint64_t ranked_runs;
  /* blocks: block_count from profile->blocks[first_block], probe bytes
   * from probe_offset in the BLK counters */
  uint32_t first_block;
  uint32_t block_count;
  uint64_t probe_offset;
};

/* Sampled calls from one function to another (indices into functions). */
struct mip_edge {
  uint32_t caller; /* MIP_NO_FUNCTION: not an instrumented function */
  uint32_t callee;
  uint64_t samples;
};

/* An allocation or deallocation call in instrumented code
 * (mip/layout/profile_heap_site.inc); strings are profile string offsets. */
struct mip_heap_site {
  uint32_t function; /* index in functions */
  uint32_t file;
  uint32_t name;
  uint32_t line, column, allocator;
  uint64_t site_offset; /* of its byte in the SITE counters */
};

/* One symbolized frame (mip/layout/profile_heap_frame.inc). */
#define MIP_FRAME_INLINED 1u /* inlined into the next frame */
#define MIP_FRAME_OUTSIDE 2u /* outside the image, not symbolized: function
                               names the object */

struct mip_heap_frame {
  uint32_t function; /* string offsets; 0: unknown */
  uint32_t file;
  uint32_t line, column, flags;
  uint32_t object; /* string offset: the object of a symbolized frame of
                      another image ("[executable]" for the main
                      program); 0: the profile's image */
};

#define MIP_NO_SITE UINT32_MAX
#define MIP_CONTEXT_TRUNCATED 1u

/* An allocation context: its frames are frame_count entries of heap_stack
 * from first_frame, innermost first. */
struct mip_heap_context {
  uint32_t first_frame, frame_count;
  uint32_t site;  /* index in heap_sites, MIP_NO_SITE */
  uint32_t flags; /* MIP_CONTEXT_* */
  struct mip_mib mib;
};

/* A global variable and its accesses (mip/layout/profile_data.inc). */
struct mip_data_object {
  uint32_t key, name, unit; /* string offsets */
  uint32_t flags;           /* MIP_DATA_* */
  uint64_t size;
  uint64_t addr; /* link-time; 0 when no unit that defines it counted it */
  uint64_t counter_offset; /* of its counter in the DATA counters */
  uint64_t accesses;       /* summed over the runs */
};

/* A function's edge counts (block-counts mode,
 * mip/layout/profile_edge_counts.inc): its count counters are the
 * profile's edge_counters[first .. first + count), summed over the runs. */
struct mip_profile_edge_counts {
  uint32_t key, name, unit; /* string offsets, as a function's */
  uint32_t count;
  uint64_t cfg_hash; /* of its control-flow graph before inlining */
  uint64_t first;    /* its first counter's index in the BCNT section */
};

struct mip_profile {
  struct mip_build_id build_id;
  uint64_t modes;
  uint64_t runs;
  struct mip_extent extents[MIP_MAX_EXTENTS];
  size_t extent_count;
  struct mip_profile_function *functions;
  size_t function_count;
  struct mip_block *blocks;
  size_t block_count;
  uint32_t *deps;
  size_t dep_count;
  struct mip_edge *edges; /* sorted by caller, then callee */
  size_t edge_count;
  struct mip_symbol *symbols; /* sorted by addr */
  size_t symbol_count;
  uint64_t edge_period;          /* calls per sample; 0 without edges */
  uint64_t edge_samples_dropped; /* summed over runs */
  /* Heap: sites come from the map; the rest from runs with heap data
   * (has_heap). Frames are unique and sorted, contexts unique by (site,
   * frames) and sorted by them; heap_strings_at is where the frames'
   * strings start in strings (they follow everything else, sorted). */
  struct mip_heap_site *heap_sites; /* sorted by site_offset */
  size_t heap_site_count;
  int has_heap;
  struct mip_heap_frame *heap_frames;
  size_t heap_frame_count;
  uint32_t *heap_stack; /* frame indices */
  size_t heap_stack_count;
  struct mip_heap_context *heap_contexts;
  size_t heap_context_count;
  struct mip_heap_stats heap_stats;
  /* Set by the caller: merges may mix sampled and exact heap runs (the
   * exact runs' blocks then weigh one each); otherwise they fail. */
  int heap_mix_sampled;
  /* The runs' global peaks, the highest first (its run's timeline and
   * at-peak values are the ones kept: docs/heap.md, "Merging"), and that
   * run's timeline. */
  struct mip_heap_peak *heap_peaks;
  size_t heap_peak_count;
  struct mip_heap_point *heap_points;
  size_t heap_point_count;
  size_t heap_strings_at;
  /* Global variables (data mode), sorted by counter_offset. */
  struct mip_data_object *data;
  size_t data_count;
  /* Block counts: one entry per function, sorted by key, then cfg_hash;
   * and a total per counter of the image's BCNT section, in its order
   * (edge_counter_count: its u64 elements). */
  struct mip_profile_edge_counts *edge_counts;
  size_t edge_counts_count;
  uint64_t *edge_counters;
  size_t edge_counter_count;
  struct mip_buf strings; /* NUL-terminated; offset 0 is "" */
};

static inline const char *mip_profile_string(const struct mip_profile *p,
                                             uint32_t offset) {
  return (const char *)p->strings.data + offset;
}

/* Whether the profile has counters of a kind (MIP_RAW_*). */
static inline int mip_profile_has(const struct mip_profile *p,
                                  uint32_t kind) {
  return (p->modes & MIP_MODE_BIT(kind)) != 0;
}

/* Which of a function's blocks ran in one run: covered[i] for block i,
 * from its probe bytes and whether the function was entered. Inferred
 * blocks follow their dependencies, transitively. */
void mip_blocks_infer(const struct mip_block *blocks, uint32_t block_count,
                      const uint32_t *deps, const uint8_t *probes,
                      uint64_t probe_count, int entered, uint8_t *covered);

/* A new profile (no runs yet) with the map's functions. */
void mip_profile_from_map(const struct mip_map *map,
                          struct mip_profile *profile);
int mip_profile_read(const char *path, struct mip_profile *profile,
                     struct mip_error *err);
int mip_profile_parse(struct mip_file *file, const char *path,
                      struct mip_profile *profile, struct mip_error *err);
int mip_profile_write(const char *path, const struct mip_profile *profile,
                      struct mip_error *err);
/* The bytes mip_profile_write writes, into out (empty). */
void mip_profile_encode(const struct mip_profile *profile, struct mip_buf *out);
void mip_profile_free(struct mip_profile *profile);


/* Source frames of code in the profiled image, for heap call stacks. */
struct mip_frame_info {
  const char *function; /* linkage name; "" when unknown */
  const char *file;     /* "" when unknown */
  uint32_t line, column;
};

struct mip_symbolizer {
  /* The frames of the code at link-time address addr (an address inside
   * the instruction, not a return address): the innermost function first,
   * then each function it was inlined into. Sets *frames (valid until the
   * next call) and returns how many; 0 when nothing is known. */
  size_t (*frames)(void *ctx, uint64_t addr,
                   const struct mip_frame_info **frames);
  void *ctx;
  /* Optional: the symbolizer of another image (in the profile's image's
   * stacks), by its build-id; NULL when none was given, and then its
   * frames name the object only. */
  const struct mip_symbolizer *(*image)(void *images,
                                        const struct mip_build_id *id);
  void *images;
};

/* Adds one run. Refuses a raw file from another build. A raw profile with
 * heap payloads needs a symbolizer for the profile's image. */
int mip_profile_add_run(struct mip_profile *profile, const char *profile_path,
                        const struct mip_raw *raw, const char *raw_path,
                        const struct mip_symbolizer *symbolizer,
                        struct mip_error *err);
/* mip_profile_add_run without a symbolizer. */
int mip_profile_add_raw(struct mip_profile *profile, const char *profile_path,
                        const struct mip_raw *raw, const char *raw_path,
                        struct mip_error *err);
/* Adds the runs of another indexed profile of the same build. */
int mip_profile_add_profile(struct mip_profile *profile,
                            const char *profile_path,
                            const struct mip_profile *other,
                            const char *other_path, struct mip_error *err);

#endif
