/*
 * The report model: what one profile says, ready to print or to compare
 * with another profile. Its functions, allocation sites and heap contexts
 * (each frame symbolized and demangled), the runtime's statistics, and,
 * when asked for, what a rebuild with the profile decides (annotate's
 * view). Every entity has keys that name it by source, not by index or
 * address, so that the entities of two builds can be matched
 * (docs/report.md). Commands read the model, not the profile's tables.
 */
#ifndef MIPDATA_REPORT_H
#define MIPDATA_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "mipfmt.h"

/* Keys (docs/report.md): the fine key names an entity by function, file,
 * line and column and is unique in its profile; the coarse key leaves out
 * line and column, so that it survives edits that move code, and is
 * shared by entities that differ only there. */
enum report_key { REPORT_FINE, REPORT_COARSE, REPORT_KEYS };

struct report_function {
  uint32_t index;   /* in the profile, which is in profile-key order */
  const char *name; /* linkage name */
  char *demangled;
  const char *unit; /* a local (static) function's source; NULL else */
  char *file;       /* declaration, from a debug binary; NULL unknown */
  const char *key_file; /* file as keys name it (report_path.c) */
  const char *key_unit; /* unit as keys name it */
  uint32_t line;
  uint64_t cfg_hash; /* of its control-flow graph: changes with its code */
  uint64_t runs;   /* merged runs that entered it */
  int counted;     /* built with call counts */
  uint64_t calls;  /* 0 when not counted */
  int ranked;      /* built with first-call order, and called */
  double order;    /* mean rank of its first call, when ranked */
  uint64_t order_runs;
  const struct mip_block *blocks; /* block_count, in the profile */
  uint32_t block_count;
  enum mip_temperature temperature; /* MIP_TEMP_UNKNOWN undecided */
  uint64_t entry;                   /* link-time address: lookups only */
  char *key[REPORT_KEYS];
};

/* Sampled calls from one function to another. */
struct report_edge {
  const struct report_function *caller; /* NULL: from outside MIP's code */
  const struct report_function *callee;
  uint64_t samples;
};

struct report_site {
  uint32_t index; /* in the profile's heap sites */
  /* The function the call was compiled into (whose rebuild hints it). */
  const struct report_function *instrumented;
  const char *function; /* innermost, maybe inlined; "" unknown (no -g) */
  char *demangled;
  const char *file; /* NULL unknown */
  const char *key_file; /* file as keys name it (report_path.c) */
  uint32_t line, column;
  uint32_t allocator;        /* MIP_ALLOC_* */
  char allocator_name[32];   /* "malloc", ...; "allocator N" unknown */
  size_t first_context;      /* its contexts: context_count from here */
  size_t context_count;
  struct mip_site_decision decision; /* when decided */
  char *key[REPORT_KEYS];
};

/* One symbolized frame, shared by every context it is in. */
struct report_frame {
  const char *function; /* linkage name, "" unknown; outside: the object */
  char *demangled;
  const char *file; /* NULL unknown */
  const char *key_file; /* file as keys name it (report_path.c) */
  uint32_t line, column;
  int inlined; /* inlined into the next frame (towards the root) */
  int outside; /* in an object that was not symbolized */
  /* The object of a symbolized frame of another image than the
   * profile's; NULL for the profile's own code. See report_frame_object. */
  const char *object;
};

struct report_context {
  uint32_t index;                 /* in the profile: by site, then frames */
  const struct report_site *site; /* NULL: allocated outside MIP's code */
  const uint32_t *stack;          /* depth frame indices, leaf first */
  uint32_t depth;
  int truncated; /* the runtime cut the stack at its depth limit */
  struct mip_mib mib;
  struct mip_alloc_stats stats;
  enum mip_alloc_class alloc_class; /* when decided */
  char *key[REPORT_KEYS];
};

/* The runtime's heap statistics, and what show derives from them. */
struct report_stats {
  struct mip_heap_stats heap;
  uint64_t blocks;            /* all blocks (at least unknown_lifetimes) */
  uint64_t unknown_lifetimes; /* freed_unseen + live_uninterposed */
  uint64_t recorded_blocks;   /* a sampled profile's: the blocks its
                                 estimates come from (heap.sample_bytes) */
};

struct report {
  const char *path; /* as given */
  char build_id[2 * MIP_BUILD_ID_MAX + 1];
  uint64_t runs;
  int counted;  /* the profile has call counts */
  int ordered;  /* the profile has first-call order */
  size_t block_count; /* blocks of all functions (built with blocks) */
  int has_block_counts; /* the profile has block counts (edge counters) */
  size_t block_counted; /* functions with block counts */
  int has_heap; /* heap data: contexts, frames, statistics */
  struct report_function *functions;
  size_t function_count;
  struct report_edge *edges; /* by caller, then callee */
  size_t edge_count;
  uint64_t edge_period;          /* calls per sample; 0 without edges */
  uint64_t edge_samples_dropped; /* the runtime's table was full */
  struct report_site *sites;
  size_t site_count;
  struct report_frame *frames;
  size_t frame_count;
  struct report_context *contexts;
  size_t context_count;
  struct report_stats stats;
  /* How keys name files (report_path.c): relative to root, the build's
   * root (NULL: none found), after the caller's --path-map rules (paths,
   * NULL: none), each of which renamed path_hits[i] files; and whether
   * contexts are keyed by the frames of the profile's image alone. */
  char *root;
  const struct report_paths *paths;
  size_t *path_hits;
  int image_frames_only;
  /* Names the model made (tidied file names, mapped key names): freed
   * with it. */
  char **names;
  size_t name_count, name_cap;
  int located; /* functions' declarations looked up (report_locate) */
  /* report_decide: */
  int decided;
  struct mip_decide_options decide;
  uint64_t hot_threshold; /* UINT64_MAX: nothing is hot */
  size_t temperatures[MIP_TEMP_HOT + 1];
  /* What it was read from: the profile, and the view the compiler reads
   * (the decisions are made through it). */
  struct mip_profile profile;
  struct mip_view view;
};

/* What a reader of r's heap figures must know, in buf: "sampled
 * (heap_sample=N): estimates" for a sampled profile, "accesses not
 * counted (heap-allocs)" for a build that counted none, both joined by
 * "; ", or "" for an exact profile of a counting build. */
#define REPORT_HEAP_NOTE_SIZE 128
const char *report_heap_note(const struct report *r, char *buf, size_t size);

/* Reads and checks the profile at path (kept as r->path) into r: on
 * failure, one line in err and nothing to free. */
int report_open(const char *path, struct report *r, struct mip_error *err);
/* The same from a profile's bytes already in memory (mip_view_parse takes
 * file); path names them in messages. */
int report_parse(struct mip_file *file, const char *path, struct report *r,
                 struct mip_error *err);
void report_free(struct report *r);

/* Where a function starting at link-time address entry was declared:
 * 0 with *file (copied) and *line set, -1 when unknown. */
struct report_locator {
  int (*lookup)(void *ctx, uint64_t entry, const char **file,
                uint32_t *line);
  void *ctx;
};

/* Sets each function's file and line (and so its keys) from l.
 * report_debug.h does it from a debug binary. */
void report_locate(struct report *r, const struct report_locator *l);

/* Lets go of the profile's bytes, which the model no longer needs once
 * built (every name is copied), but report_decide reads: a command that
 * holds two models and decides nothing (diff) holds the bytes of
 * neither. report_decide fails after it. */
void report_drop_view(struct report *r);

/* What a rebuild with the profile decides, with the compiler's calls
 * (lib/decide.c) on the compiler's view: each function's temperature,
 * each site's decision and each context's class. */
int report_decide(struct report *r, const struct mip_decide_options *o,
                  struct mip_error *err);

/* Keeps the contexts whose keep[i] is set, in order (report_filter.c):
 * the sites' contexts and the statistics follow. */
void report_keep_contexts(struct report *r, const uint8_t *keep);

/* The object a frame's code is in: an outside frame's, a symbolized frame
 * of another image's, NULL for the profile's own code. */
const char *report_frame_object(const struct report_frame *f);

/* ---- file names in keys (report_path.c) ------------------------------- */

/* A --path-map rule, OLD=NEW: a file named OLD or OLD/... is named NEW
 * or NEW/... in keys. An absolute OLD renames a file's name as the
 * profile has it, before the root is found and taken off; a relative
 * one renames the name relative to the root. */
struct report_path_map {
  const char *from, *to;
};

struct report_paths {
  const struct report_path_map *maps;
  size_t count;
};

/* Splits text (OLD=NEW, both tidied into *m's own copies, freed with
 * report_path_map_free): 0, or -1 with why in msg. */
int report_path_map_parse(const char *text, struct report_path_map *m,
                          char *msg, size_t size);
void report_path_map_free(struct report_path_map *m);

/* r's root and every function's, site's and frame's key_file: what
 * report_key_all calls first. */
void report_key_files(struct report *r);

/* A name the model keeps until report_free: s tidied (lib/path.h) when
 * it needs to be, else s. NULL stays NULL. */
const char *report_tidy_name(struct report *r, const char *s);

/* Keys again, after paths or image_frames_only changed. */
void report_rekey(struct report *r, const struct report_paths *paths,
                  int image_frames_only);

/* ---- iteration ---------------------------------------------------------- */

enum report_direction { REPORT_LEAF_FIRST, REPORT_ROOT_FIRST };

struct report_frame_iter {
  const struct report *r;
  const struct report_context *c;
  enum report_direction direction;
  uint32_t next;
};

void report_frames_begin(struct report_frame_iter *it, const struct report *r,
                         const struct report_context *c,
                         enum report_direction direction);
/* The next frame, NULL after the last. */
const struct report_frame *report_frames_next(struct report_frame_iter *it);

/* Orders of contexts; ties always go in profile order. */
enum report_order {
  REPORT_BY_PROFILE, /* by site (in site order; none last), then frames */
  REPORT_BY_BYTES,   /* TotalSize, largest first */
  REPORT_BY_COUNT,   /* AllocCount, most first */
  REPORT_BY_KEY,     /* fine key, bytewise: two profiles merge-join */
};

struct report_context_iter {
  const struct report *r;
  size_t *order; /* context indices */
  size_t count, next;
};

/* Every context of r, or of site only (site not NULL), in order. */
void report_contexts_begin(struct report_context_iter *it,
                           const struct report *r,
                           const struct report_site *site,
                           enum report_order order);
const struct report_context *
report_contexts_next(struct report_context_iter *it);
void report_contexts_end(struct report_context_iter *it);

/* ---- keys (report_key.c) ------------------------------------------------ */

/* Computes every key of r; report_open and report_locate do. */
void report_key_all(struct report *r);

/* Appends frame f's key to b: FUNCTION@FILE:LINE:COLUMN[@OBJECT] (fine)
 * or FUNCTION@FILE (coarse), as in a context's key; not NUL-terminated. */
void report_frame_key(struct mip_buf *b, const struct report_frame *f,
                      enum report_key kind);
/* Keys to numbers, by hash: how equal keys are found among hundreds of
 * thousands without sorting them (long keys that share long prefixes
 * make sorting slow). The keys stay the caller's. */
struct report_key_index {
  struct report_key_slot {
    const char *key; /* NULL: empty */
    uint64_t hash;
    size_t value;
  } *slots;
  size_t cap, count;
};

void report_key_index_init(struct report_key_index *x);
void report_key_index_free(struct report_key_index *x);
/* The value stored for key, after storing value for it when it had
 * none (*found says which). */
size_t *report_key_index_get(struct report_key_index *x, const char *key,
                             size_t value, int *found);
/* The value stored for key, NULL when none is. */
size_t *report_key_index_find(const struct report_key_index *x,
                              const char *key);

#endif
