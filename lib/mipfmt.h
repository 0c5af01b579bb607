/*
 * libmipfmt: reading and writing MIP's files (raw profiles, map files,
 * indexed profiles). Shared by mipdata and the plugin's profile-use pass.
 * The on-disk layouts come from mip/layout/\*.inc; docs/formats.md
 * describes them.
 *
 * Errors: functions that can fail return 0 on success and -1 on failure,
 * with one line in err->msg that names the file and the problem.
 */
#ifndef MIPFMT_H
#define MIPFMT_H

#include <stddef.h>
#include <stdint.h>

#include "mip/format.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mip_error {
  char msg[1024];
};

/* Formats err->msg as "PATH: <message>", one line (control characters
 * become '?'), and returns -1. */
int mip_fail(struct mip_error *err, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- whole files ---------------------------------------------------- */

struct mip_file {
  uint8_t *data;
  size_t size;
};

/* Opens path for reading, which must be a regular file; its size in
 * *size. Returns the descriptor, or -1 with err set. */
int mip_file_open(const char *path, size_t *size, struct mip_error *err);
int mip_file_read(const char *path, struct mip_file *file,
                  struct mip_error *err);
void mip_file_free(struct mip_file *file);

/* Each reader below is mip_file_read and then a parse of the bytes: the
 * parse is also its own entry point (mip_raw_parse, mip_mapfile_parse,
 * mip_view_parse, mip_profile_parse), for bytes that are already in
 * memory. A parse takes file (a whole file's bytes in a malloc'd block):
 * the block is freed with what it fills, or by the parse when it fails;
 * *file is emptied either way. path names the bytes in messages. */

/* Writes data to path through a temporary file in the same directory and
 * a rename, so path never holds a partial file. */
int mip_file_write_atomic(const char *path, const void *data, size_t size,
                          struct mip_error *err);

/* ---- growable byte buffers (abort on out-of-memory) ------------------ */

struct mip_buf {
  uint8_t *data;
  size_t size;
  size_t cap;
};

void *mip_buf_extend(struct mip_buf *buf, size_t n); /* n zeroed bytes */
void mip_buf_append(struct mip_buf *buf, const void *data, size_t n);
void mip_buf_align(struct mip_buf *buf, size_t alignment);
void mip_buf_free(struct mip_buf *buf);

void *mip_xmalloc(size_t n);
void *mip_xcalloc(size_t count, size_t n);
void *mip_xrealloc(void *p, size_t count, size_t n);
char *mip_xstrdup(const char *s);

/* ---- shared pieces -------------------------------------------------- */

struct mip_build_id {
  uint32_t size;
  uint8_t bytes[MIP_BUILD_ID_MAX];
};

/* Hex form of a build-id ("(none)" when empty). */
const char *mip_build_id_hex(const struct mip_build_id *id, char *out,
                             size_t size);
int mip_build_id_equal(const struct mip_build_id *a,
                       const struct mip_build_id *b);

/* One counter array of an image. */
struct mip_extent {
  uint32_t kind;
  uint32_t elem_size;
  uint64_t link_addr;
  uint64_t size;
};

#define MIP_MAX_EXTENTS 16

/* Section name and short name of a counter kind ("__mip_cov", "cov");
 * NULL for a kind this build does not know. */
const char *mip_raw_kind_section(uint32_t kind);
const char *mip_raw_kind_name(uint32_t kind);
/* The size of one counter of a kind (raw_kinds.inc); 0 for a kind this
 * build does not know. Merging reads counters at that width, so every
 * reader refuses a known kind whose elements have another size. */
uint32_t mip_raw_kind_elem_size(uint32_t kind);

const struct mip_extent *mip_extent_find(const struct mip_extent *extents,
                                         size_t count, uint32_t kind);

/* ---- map ------------------------------------------------------------ */

/* A function's counters of one kind: count elements at addr. */
struct mip_map_slot {
  uint64_t addr; /* link-time */
  uint32_t count;
};

/* A basic block (mip/layout/map_block.inc); deps index the owner's deps
 * array, holding block numbers within the function. */
struct mip_block {
  uint32_t line;
  uint32_t probe; /* BLK index, MIP_PROBE_ENTRY or MIP_PROBE_NONE */
  uint32_t dep_first;
  uint32_t dep_count;
  uint64_t covered_runs; /* in profiles */
};

struct mip_map_function {
  const char *name; /* mangled */
  const char *unit; /* source of a local function, else "" */
  uint32_t flags;   /* MIP_FN_* */
  uint64_t cfg_hash;
  uint64_t entry;    /* link-time address */
  uint64_t cov_addr; /* link-time address of the coverage byte */
  uint64_t kinds;    /* MIP_MODE_BIT of each counter kind it has */
  struct mip_map_slot slots[MIP_MAX_EXTENTS]; /* indexed by kind */
  /* Its blocks: block_count from map->blocks[first_block]. */
  uint32_t first_block, block_count;
};

/* A function symbol of the image. */
struct mip_symbol {
  uint64_t addr;
  uint64_t size;
};

/* In symbols sorted by address: the last one at or below addr, or NULL. */
const struct mip_symbol *mip_symbol_at_or_below(const struct mip_symbol *symbols,
                                                size_t count, uint64_t addr);

/* A call of an allocation or deallocation function in instrumented code
 * (mip/layout/map_heap_site.inc). */
struct mip_map_heap_site {
  uint64_t site;     /* link-time address of its byte in __mip_site */
  uint64_t function; /* link-time address of its function's coverage byte */
  uint32_t line, column, allocator;
  const char *file; /* "" when unknown */
  const char *name; /* linkage name of the innermost (inlined) function */
};

struct mip_map {
  struct mip_build_id build_id;
  struct mip_extent extents[MIP_MAX_EXTENTS];
  size_t extent_count;
  struct mip_map_function *functions; /* sorted by cov_addr */
  size_t function_count;
  size_t discarded; /* records of functions the linker dropped */
  struct mip_block *blocks;
  size_t block_count;
  uint32_t *deps;
  size_t dep_count;
  struct mip_symbol *symbols; /* from the map file; sorted by addr */
  size_t symbol_count;
  struct mip_map_heap_site *heap_sites; /* sorted by site */
  size_t heap_site_count;
  size_t discarded_heap_sites; /* in functions the linker dropped */
  struct mip_file file; /* backing store of the strings */
};

/* Parses the bytes of a map section. The map keeps pointers into data,
 * which must outlive it. path is for messages. */
int mip_map_parse(const uint8_t *data, size_t size, const char *path,
                  struct mip_map *map, struct mip_error *err);

/* Reads a .mipmap file, or a map section dumped on its own (objcopy
 * --dump-section), which has no build-id and no symbols. */
int mip_mapfile_read(const char *path, struct mip_map *map,
                     struct mip_error *err);
int mip_mapfile_parse(struct mip_file *file, const char *path,
                      struct mip_map *map, struct mip_error *err);
int mip_mapfile_write(const char *path, const struct mip_build_id *id,
                      const uint8_t *section, size_t size,
                      const struct mip_symbol *symbols, size_t symbol_count,
                      struct mip_error *err);
void mip_map_free(struct mip_map *map);

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
};

struct mip_raw_heap {
  int present;   /* the raw profile has heap payloads */
  int has_stats; /* the raw profile has MIP_STAT_HEAP_* statistics */
  struct mip_raw_heap_context *contexts;
  size_t context_count;
  struct mip_raw_heap_stack *stacks; /* sorted by id */
  size_t stack_count;
  struct mip_raw_heap_segment *segments; /* sorted by start */
  size_t segment_count;
  struct mip_heap_stats stats;
};

struct mip_raw {
  struct mip_build_id build_id;
  uint64_t modes;
  uint32_t pid;
  struct mip_raw_payload sections[MIP_MAX_EXTENTS];
  size_t section_count;
  struct mip_raw_heap heap;
  struct mip_file file;
};

int mip_raw_read(const char *path, struct mip_raw *raw, struct mip_error *err);
int mip_raw_parse(struct mip_file *file, const char *path, struct mip_raw *raw,
                  struct mip_error *err);
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
  size_t heap_strings_at;
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

/* ---- profile view: an indexed profile, memory-mapped ---------------- */

/* One section of the view: count entries of entry_size bytes at data. */
struct mip_view_table {
  const uint8_t *data;
  uint64_t count;
  uint32_t entry_size;
  int present;
};

/* What mip_view_open checked and decoded up front; everything else is read
 * (and checked) entry by entry with the accessors below. Strings are
 * offsets, as in struct mip_profile. */
struct mip_view {
  const char *path; /* borrowed, for messages */
  const uint8_t *data;
  size_t size;
  uint32_t version; /* of the file */
  struct mip_build_id build_id;
  uint64_t modes;
  uint64_t runs;
  struct mip_extent extents[MIP_MAX_EXTENTS];
  size_t extent_count;
  struct mip_view_table tables[MIP_PROF_KIND_COUNT]; /* by MIP_PROF_* */
  int has_heap; /* a heap schema: the profile has heap data */
  /* Where each MemInfoBlock field this build knows lies in a heap context
   * entry; width 0: not in the file (reads as 0). */
  uint32_t mib_offset[MIP_MIB_COUNT];
  uint8_t mib_width[MIP_MIB_COUNT];
};

/* Maps path and checks its header, section table, string table, counter
 * extents, per-function tables and heap schema. */
int mip_view_open(const char *path, struct mip_view *v, struct mip_error *err);
int mip_view_parse(struct mip_file *file, const char *path, struct mip_view *v,
                   struct mip_error *err);
void mip_view_close(struct mip_view *v);
/* Checks every entry (profile_check.c): mip_view_open does, so that every
 * reader refuses the same files. */
int mip_view_check_all(const struct mip_view *v, struct mip_error *err);

static inline uint64_t mip_view_count(const struct mip_view *v,
                                      uint32_t kind) {
  return v->tables[kind].count;
}

/* The string at offset, or NULL when the offset is out of range. */
const char *mip_view_string(const struct mip_view *v, uint32_t offset);

/* Function i (i < its count), with its calls, order and blocks entries. */
int mip_view_function(const struct mip_view *v, uint64_t i,
                      struct mip_profile_function *f, struct mip_error *err);
/* The functions whose key is key: returns how many (keys are sorted, so
 * they follow each other from *first). */
uint64_t mip_view_find(const struct mip_view *v, const char *key,
                       uint64_t *first);
/* Block i of the block table, and dependency i (i < their counts). */
int mip_view_block(const struct mip_view *v, uint64_t i, struct mip_block *b,
                   struct mip_error *err);
uint32_t mip_view_dep(const struct mip_view *v, uint64_t i);
int mip_view_edge(const struct mip_view *v, uint64_t i, struct mip_edge *e,
                  struct mip_error *err);
struct mip_symbol mip_view_symbol(const struct mip_view *v, uint64_t i);
/* Whether STATS has key; its value in *value. */
int mip_view_stat(const struct mip_view *v, uint32_t key, uint64_t *value);
int mip_view_heap_site(const struct mip_view *v, uint64_t i,
                       struct mip_heap_site *s, struct mip_error *err);
int mip_view_heap_frame(const struct mip_view *v, uint64_t i,
                        struct mip_heap_frame *f, struct mip_error *err);
int mip_view_heap_stack(const struct mip_view *v, uint64_t i,
                        uint32_t *frame, struct mip_error *err);
int mip_view_heap_context(const struct mip_view *v, uint64_t i,
                          struct mip_heap_context *c, struct mip_error *err);
/* The contexts of heap site site: returns how many (contexts are sorted by
 * site, so they follow each other from *first). */
uint64_t mip_view_site_contexts(const struct mip_view *v, uint32_t site,
                                uint64_t *first);

/* ---- hot and cold: what a rebuild with the profile decides -------------
 * One definition for the compiler (-fmip-use), `mipdata annotate` and
 * `mipdata order` (docs/use.md gives the rules). */

struct mip_decide_options {
  /* Hot functions: the most-called ones that together make hot_share of
   * all calls, with every function called as often as the last of them. */
  double hot_share;
  /* Allocation contexts, with MemProf's rules: cold when the average
   * lifetime access density (accesses per byte per second of lifetime) is
   * below cold_max_density and the average lifetime is at least
   * cold_min_lifetime seconds; else hot when that density is above
   * hot_min_density; else notcold. */
  double cold_max_density;
  double cold_min_lifetime;
  double hot_min_density;
};

#define MIP_DEFAULT_HOT_SHARE 0.9
#define MIP_DEFAULT_COLD_MAX_DENSITY 0.05
#define MIP_DEFAULT_COLD_MIN_LIFETIME 200.0
#define MIP_DEFAULT_HOT_MIN_DENSITY 1000.0

void mip_decide_defaults(struct mip_decide_options *o);

/* The fewest calls a hot function has, from every function's calls in
 * runs merged runs (sorted in place, most first); UINT64_MAX when nothing
 * is hot. The most-called functions that make share of all calls are hot,
 * but never one called once per run or less: in a flat profile (start-up
 * code, each function called once) nothing is hot. */
uint64_t mip_hot_threshold(uint64_t *calls, size_t count, double share,
                           uint64_t runs);
/* The same over the functions of a profile; UINT64_MAX without counts. */
int mip_view_hot_threshold(const struct mip_view *v, double share,
                           uint64_t *threshold, struct mip_error *err);

enum mip_temperature {
  MIP_TEMP_UNKNOWN, /* no runs merged: nothing to decide */
  MIP_TEMP_COLD,    /* never ran in any merged run */
  MIP_TEMP_WARM,    /* ran, not hot */
  MIP_TEMP_HOT,     /* among the hot functions (needs call counts) */
};

const char *mip_temperature_name(enum mip_temperature t); /* "cold", ... */

enum mip_temperature mip_function_temperature(
    const struct mip_profile_function *f, uint64_t runs, uint64_t threshold);

enum mip_alloc_class {
  MIP_CLASS_NOTCOLD,
  MIP_CLASS_COLD,
  MIP_CLASS_HOT,
  MIP_CLASS_COUNT
};

const char *mip_alloc_class_name(enum mip_alloc_class c); /* "notcold", ... */

/* What a context's MemInfoBlock averages to (0 without allocations). */
struct mip_alloc_stats {
  uint64_t allocs;
  uint64_t bytes;
  double lifetime;      /* mean seconds a block lived */
  double density;       /* mean accesses per byte per second of lifetime */
};

void mip_mib_stats(const struct mip_mib *m, struct mip_alloc_stats *s);
enum mip_alloc_class mip_mib_class(const struct mip_mib *m,
                                   const struct mip_decide_options *o);

/* An allocation site's class over its contexts: their common class, or
 * notcold when they disagree (mixed). Counts per class, and the site's
 * totals, in the other fields. */
struct mip_site_decision {
  enum mip_alloc_class alloc_class;
  int mixed;
  uint64_t contexts[MIP_CLASS_COUNT]; /* contexts of each class */
  struct mip_alloc_stats total;       /* over all its contexts */
};

/* Decides heap site site (an index in HEAP_SITES); returns 0, or -1 for a
 * corrupt profile. A site with no allocation decides notcold with no
 * contexts. */
int mip_view_site_decision(const struct mip_view *v, uint32_t site,
                           const struct mip_decide_options *o,
                           struct mip_site_decision *d,
                           struct mip_error *err);

/* Whether allocator (MIP_ALLOC_*) allocates, so a hint could apply. */
int mip_allocator_allocates(uint32_t allocator);

/* How many allocation sites of the profile decide cold or hot, so that a
 * rebuild hints their calls; -1 for a corrupt profile. */
int64_t mip_view_hinted_sites(const struct mip_view *v,
                              const struct mip_decide_options *o,
                              struct mip_error *err);

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

/* What kind of MIP file data starts with (by magic); 0 if none. */
uint64_t mip_file_magic(const struct mip_file *file);

/* What every reader checks first: the file is not empty, starts with the
 * expected magic (else says what it is instead) and holds a whole header
 * of header_size bytes. what names the kind ("raw profile"). */
int mip_check_start(const struct mip_file *file, const char *path,
                    uint64_t magic, const char *what, size_t header_size,
                    struct mip_error *err);
/* The header fields every format shares: a version this build reads, a
 * header size within the file, a build-id that fits. */
int mip_check_header(const struct mip_file *file, const char *path,
                     const char *what, uint32_t version, uint32_t newest,
                     uint32_t header_size, size_t min_header_size,
                     uint32_t build_id_size, struct mip_error *err);

/* That section index, of size bytes from offset, lies within a file of
 * file_size bytes; else "truncated WHAT (section N needs bytes up to
 * END...)", or, when offset is past the end or offset + size does not fit
 * in 64 bits, "corrupt WHAT: section N lies outside the file (...)". */
int mip_check_section(size_t file_size, const char *path, const char *what,
                      uint32_t index, uint64_t offset, uint64_t size,
                      struct mip_error *err);

#ifdef __cplusplus
}
#endif

#endif
