/* The profile view: an indexed profile checked whole and read in place, as the compiler reads it.
 * Part of libmipfmt's interface: include "mipfmt.h", which includes every
 * part in order. */
#ifndef MIPFMT_VIEW_H
#define MIPFMT_VIEW_H

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
/* The whole profile of an open view (mip_profile_read opens one): for a
 * reader that also decides through the view (the report model of
 * mipdata), from the same bytes. */
int mip_profile_read_view(const struct mip_view *v,
                          struct mip_profile *profile, struct mip_error *err);

static inline uint64_t mip_view_count(const struct mip_view *v,
                                      uint32_t kind) {
  return v->tables[kind].count;
}

/* The string at offset, or NULL when the offset is out of range. */
const char *mip_view_string(const struct mip_view *v, uint32_t offset);

/* Entry i of table kind, as the file holds it (i < its count). */
const uint8_t *mip_view_entry(const struct mip_view *v, uint32_t kind,
                              uint64_t i);
/* The entries of table kind, sorted by key (a string offset, each entry's
 * first field), whose key is key: returns how many, from *first. */
uint64_t mip_view_find_key(const struct mip_view *v, uint32_t kind,
                           const char *key, uint64_t *first);

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
/* The runs' global peaks (highest first) and the kept run's timeline,
 * checked when the view was opened. */
void mip_view_heap_peak(const struct mip_view *v, uint64_t i,
                        struct mip_heap_peak *k);
void mip_view_heap_point(const struct mip_view *v, uint64_t i,
                         struct mip_heap_point *pt);
/* Global variable i of the DATA table (data_profile.c). */
int mip_view_data(const struct mip_view *v, uint64_t i,
                  struct mip_data_object *d, struct mip_error *err);

/* Block counts (edge_counts.c). The EDGE_COUNTS entries whose key is key
 * (a function's, as mip_view_find takes it): returns how many (entries
 * are sorted by key, then cfg_hash, so they follow each other from
 * *first). */
uint64_t mip_view_find_edge_counts(const struct mip_view *v, const char *key,
                                   uint64_t *first);
/* Entry i (i < mip_view_count(v, MIP_PROF_EDGE_COUNTS)); its counters are
 * mip_view_edge_counter(v, e->first + j) for j < e->count. */
int mip_view_edge_counts(const struct mip_view *v, uint64_t i,
                         struct mip_profile_edge_counts *e,
                         struct mip_error *err);
/* Total i of EDGE_COUNTERS (i < mip_view_count(v,
 * MIP_PROF_EDGE_COUNTERS)), summed over the runs. */
uint64_t mip_view_edge_counter(const struct mip_view *v, uint64_t i);

/* The contexts of heap site site: returns how many (contexts are sorted by
 * site, so they follow each other from *first). */
uint64_t mip_view_site_contexts(const struct mip_view *v, uint32_t site,
                                uint64_t *first);

#endif
