/*
 * A read-only view of an indexed profile (.mip), read into memory (not
 * mapped: a file truncated while a compiler maps it would kill the
 * compiler with SIGBUS; a file that changes while it is read is refused
 * instead, see mip_file_read). Opening it checks what every accessor
 * needs (the header, the section table, the string table, the tables that
 * run parallel to the functions, the heap schema), then every entry
 * through the accessors, which check one entry each, and what only the
 * whole profile shows (profile_check.c): so the profile-use pass, which
 * looks up the few functions of one translation unit, and annotate refuse
 * exactly what mip_profile_read (profile_read.c) refuses.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heap.h"
#include "mip/layouts.h"
#include "mipfmt.h"

/* ---- reading ---------------------------------------------------------- */

void mip_view_close(struct mip_view *v) {
  free((void *)v->data);
  memset(v, 0, sizeof *v);
}

/* ---- what opening checks ---------------------------------------------- */

static int corrupt(const struct mip_view *v, const char *what,
                   struct mip_error *err) {
  return mip_fail(err, v->path, "corrupt profile: %s", what);
}

/* The smallest entry this reader can read, per section kind. */
static const uint32_t min_entry[MIP_PROF_KIND_COUNT] = {
    [MIP_PROF_STRINGS] = 1,
    [MIP_PROF_EXTENTS] = mip_rec_raw_extent_size,
    [MIP_PROF_FUNCTIONS] = mip_rec_profile_function_size,
    [MIP_PROF_CALLS] = mip_rec_profile_calls_size,
    [MIP_PROF_ORDER] = mip_rec_profile_order_size,
    [MIP_PROF_BLOCKS] = mip_rec_profile_blocks_size,
    [MIP_PROF_BLOCK_TABLE] = mip_rec_profile_block_size,
    [MIP_PROF_DEPS] = 4,
    [MIP_PROF_EDGES] = mip_rec_profile_edge_size,
    [MIP_PROF_SYMBOLS] = mip_rec_symbol_size,
    [MIP_PROF_STATS] = mip_rec_profile_stat_size,
    [MIP_PROF_HEAP_SITES] = mip_rec_profile_heap_site_size,
    [MIP_PROF_HEAP_FRAMES] = mip_rec_profile_heap_frame_size,
    [MIP_PROF_HEAP_STACKS] = 4,
    [MIP_PROF_HEAP_SCHEMA] = 4,
    [MIP_PROF_HEAP_CONTEXTS] = mip_rec_profile_heap_context_size,
    [MIP_PROF_HEAP_PEAKS] = mip_rec_heap_peak_size,
    [MIP_PROF_HEAP_TIMELINE] = mip_rec_heap_point_size,
    [MIP_PROF_DATA] = mip_rec_profile_data_size,
    [MIP_PROF_EDGE_COUNTS] = mip_rec_profile_edge_counts_size,
    [MIP_PROF_EDGE_COUNTERS] = 8,
};

static int read_header(struct mip_view *v, struct mip_rec_profile_header *h,
                       struct mip_error *err) {
  struct mip_file f = {(uint8_t *)v->data, v->size};
  if (mip_check_start(&f, v->path, MIP_PROFILE_MAGIC, "indexed profile",
                      mip_rec_profile_header_size, err))
    return -1;
  mip_rec_profile_header_decode(h, v->data);
  if (mip_check_header(&f, v->path, "profile", h->version,
                       MIP_PROFILE_VERSION, h->header_size,
                       mip_rec_profile_header_size, h->build_id_size, err))
    return -1;
  v->version = h->version;
  v->modes = h->modes;
  v->runs = h->runs;
  v->build_id.size = h->build_id_size;
  memcpy(v->build_id.bytes, h->build_id, h->build_id_size);
  return 0;
}

static int read_table(struct mip_view *v,
                      const struct mip_rec_profile_header *h,
                      struct mip_error *err) {
  uint64_t end = h->header_size +
                 (uint64_t)h->section_count * mip_rec_profile_section_size;
  if (end > v->size)
    return mip_fail(err, v->path,
                    "truncated profile (section table needs %" PRIu64
                    " bytes, file has %zu)",
                    end, v->size);
  for (uint32_t i = 0; i < h->section_count; i++) {
    struct mip_rec_profile_section s;
    mip_rec_profile_section_decode(&s, v->data + h->header_size +
                                           i * mip_rec_profile_section_size);
    if (mip_check_section(v->size, v->path, "profile", i, s.offset, s.size,
                          err))
      return -1;
    if (s.entry_size == 0 || s.size % s.entry_size)
      return mip_fail(err, v->path,
                      "corrupt profile: section %" PRIu32
                      " has a bad entry size",
                      i);
    if (s.kind == 0 || s.kind >= MIP_PROF_KIND_COUNT)
      continue; /* added by a later version */
    if (v->tables[s.kind].present)
      return mip_fail(err, v->path,
                      "corrupt profile: section kind %" PRIu32 " twice",
                      s.kind);
    if (s.entry_size < min_entry[s.kind])
      return mip_fail(err, v->path,
                      "corrupt profile: section kind %" PRIu32
                      " has entries too small",
                      s.kind);
    v->tables[s.kind] = (struct mip_view_table){
        v->data + s.offset, s.size / s.entry_size, s.entry_size, 1};
  }
  return 0;
}

const uint8_t *mip_view_entry(const struct mip_view *v, uint32_t kind,
                              uint64_t i) {
  const struct mip_view_table *t = &v->tables[kind];
  return t->data + i * t->entry_size;
}


/* Strings end with a NUL, so any offset inside is a C string. */
static int check_strings(const struct mip_view *v, struct mip_error *err) {
  const struct mip_view_table *s = &v->tables[MIP_PROF_STRINGS];
  if (!s->present || s->count == 0 || s->data[0] != '\0' ||
      s->data[s->count - 1] != '\0')
    return corrupt(v, "bad string table", err);
  return 0;
}

static int read_extents(struct mip_view *v, struct mip_error *err) {
  const struct mip_view_table *t = &v->tables[MIP_PROF_EXTENTS];
  if (!t->present || t->count > MIP_MAX_EXTENTS)
    return corrupt(v, "bad counter extents", err);
  for (uint64_t i = 0; i < t->count; i++) {
    struct mip_rec_raw_extent r;
    mip_rec_raw_extent_decode(&r, mip_view_entry(v, MIP_PROF_EXTENTS, i));
    uint32_t known = mip_raw_kind_elem_size(r.kind);
    if (known && r.elem_size != known)
      return mip_fail(err, v->path,
                      "corrupt profile: counters of kind %" PRIu32
                      " of %" PRIu32 " bytes, not %" PRIu32,
                      r.kind, r.elem_size, known);
    v->extents[v->extent_count++] =
        (struct mip_extent){r.kind, r.elem_size, r.link_addr, r.size};
  }
  return 0;
}

/* A table with one entry per function must have exactly that many. */
static int check_parallel(const struct mip_view *v, uint32_t kind,
                          const char *what, struct mip_error *err) {
  uint64_t functions = v->tables[MIP_PROF_FUNCTIONS].count;
  const struct mip_view_table *t = &v->tables[kind];
  if (t->present && t->count != functions)
    return mip_fail(err, v->path,
                    "corrupt profile: %" PRIu64 " %s entries for %" PRIu64
                    " functions",
                    t->count, what, functions);
  return 0;
}

static int check_functions(const struct mip_view *v, struct mip_error *err) {
  if (!v->tables[MIP_PROF_FUNCTIONS].present)
    return corrupt(v, "no function table", err);
  return check_parallel(v, MIP_PROF_CALLS, "call", err) ||
                 check_parallel(v, MIP_PROF_ORDER, "order", err) ||
                 check_parallel(v, MIP_PROF_BLOCKS, "block", err)
             ? -1
             : 0;
}

/* Where each field of the heap schema lies in a context entry. Fields
 * this build does not know are skipped (they are 8 bytes wide). */
static int read_schema(struct mip_view *v, struct mip_error *err) {
  const struct mip_view_table *s = &v->tables[MIP_PROF_HEAP_SCHEMA];
  uint64_t at = mip_rec_profile_heap_context_size;
  for (uint64_t i = 0; i < s->count; i++) {
    uint32_t id = mip_get_le32(mip_view_entry(v, MIP_PROF_HEAP_SCHEMA, i));
    if (id == 0)
      return corrupt(v, "heap schema has field id 0", err);
    for (uint64_t j = 0; j < i; j++)
      if (mip_get_le32(mip_view_entry(v, MIP_PROF_HEAP_SCHEMA, j)) == id)
        return mip_fail(err, v->path,
                        "corrupt profile: heap schema names field %" PRIu32
                        " twice",
                        id);
    int known = mip_mib_index(id);
    if (known >= 0) {
      v->mib_offset[known] = (uint32_t)at;
      v->mib_width[known] = (uint8_t)mip_mib_width(id);
    }
    at += mip_mib_width(id);
    if (at > UINT32_MAX)
      return corrupt(v, "heap schema too long", err);
  }
  const struct mip_view_table *c = &v->tables[MIP_PROF_HEAP_CONTEXTS];
  if (c->count && c->entry_size < at)
    return mip_fail(err, v->path,
                    "corrupt profile: heap contexts of %" PRIu32
                    " bytes cannot hold their %" PRIu64 " bytes of fields",
                    c->entry_size, at);
  return 0;
}

static uint32_t context_site(const struct mip_view *v, uint64_t i);

/* Contexts are looked up by site with a binary search: they must be in
 * site order, or a lookup would quietly miss some. */
static int check_context_order(const struct mip_view *v,
                               struct mip_error *err) {
  uint64_t n = v->tables[MIP_PROF_HEAP_CONTEXTS].count;
  for (uint64_t i = 1; i < n; i++)
    if (context_site(v, i) < context_site(v, i - 1))
      return corrupt(v, "heap contexts out of order", err);
  return 0;
}

/* Each context's frames follow the previous context's in the stacks
 * table, which they fill (the writer lays them out so): ranges that
 * overlap or leave gaps would make every reader that copies stacks size
 * its copy wrongly. */
static int check_context_stacks(const struct mip_view *v,
                                struct mip_error *err) {
  uint64_t n = v->tables[MIP_PROF_HEAP_CONTEXTS].count, next = 0;
  uint64_t stack = v->tables[MIP_PROF_HEAP_STACKS].count;
  for (uint64_t i = 0; i < n; i++) {
    struct mip_rec_profile_heap_context r;
    mip_rec_profile_heap_context_decode(&r, mip_view_entry(v, MIP_PROF_HEAP_CONTEXTS, i));
    if (r.first_frame != next)
      return mip_fail(err, v->path,
                      "corrupt profile: heap context %" PRIu64
                      "'s frames start at %" PRIu32 ", not right after the "
                      "previous context's (%" PRIu64 ")",
                      i, r.first_frame, next);
    if (r.frame_count > stack - next)
      return mip_fail(err, v->path,
                      "corrupt profile: heap context %" PRIu64
                      " has frames out of range",
                      i);
    next += r.frame_count;
  }
  if (next != stack)
    return mip_fail(err, v->path,
                    "corrupt profile: the heap contexts use %" PRIu64
                    " stack entries, the stacks table has %" PRIu64,
                    next, stack);
  return 0;
}

/* Every run's peak passes the raw profile's checks, the highest first
 * (the one whose timeline is kept); the timeline passes them against it. */
static int check_timeline(const struct mip_view *v, struct mip_error *err) {
  uint64_t n = v->tables[MIP_PROF_HEAP_PEAKS].count;
  uint64_t points = v->tables[MIP_PROF_HEAP_TIMELINE].count;
  if (!n) {
    if (points)
      return corrupt(v, "a heap timeline without a peak", err);
    return 0;
  }
  struct mip_heap_peak first, k;
  for (uint64_t i = 0; i < n; i++) {
    mip_view_heap_peak(v, i, &k);
    const char *why = mip_heap_peak_check(&k);
    if (why)
      return mip_fail(err, v->path, "corrupt profile: heap peak %" PRIu64
                                    " %s", i, why);
    if (i && (k.bytes > first.bytes ||
              (k.bytes == first.bytes && k.blocks > first.blocks)))
      return corrupt(v, "heap peaks not highest first", err);
    if (!i)
      first = k;
  }
  for (uint64_t i = 0; i < points; i++) {
    struct mip_heap_point pt[2];
    mip_view_heap_point(v, i, &pt[1]);
    if (i)
      mip_view_heap_point(v, i - 1, &pt[0]);
    const char *why = i ? mip_heap_points_check(&first, pt, 2)
                        : mip_heap_points_check(&first, pt + 1, 1);
    if (why)
      return mip_fail(err, v->path, "corrupt profile: heap timeline %s", why);
  }
  return 0;
}

void mip_view_heap_peak(const struct mip_view *v, uint64_t i,
                        struct mip_heap_peak *k) {
  struct mip_rec_heap_peak r;
  mip_rec_heap_peak_decode(&r, mip_view_entry(v, MIP_PROF_HEAP_PEAKS, i));
  *k = (struct mip_heap_peak){r.bytes,    r.blocks, r.event,
                              r.events,   r.interval, r.ms};
}

void mip_view_heap_point(const struct mip_view *v, uint64_t i,
                         struct mip_heap_point *pt) {
  struct mip_rec_heap_point r;
  mip_rec_heap_point_decode(&r, mip_view_entry(v, MIP_PROF_HEAP_TIMELINE, i));
  *pt = (struct mip_heap_point){r.event, r.ms, r.bytes, r.blocks};
}

static int check_heap(struct mip_view *v, struct mip_error *err) {
  if (v->tables[MIP_PROF_HEAP_SITES].count &&
      !mip_extent_find(v->extents, v->extent_count, MIP_RAW_SITE))
    return corrupt(v, "heap sites without site counters", err);
  if (!v->tables[MIP_PROF_HEAP_SCHEMA].present) {
    if (v->tables[MIP_PROF_HEAP_FRAMES].present ||
        v->tables[MIP_PROF_HEAP_STACKS].present ||
        v->tables[MIP_PROF_HEAP_CONTEXTS].present)
      return corrupt(v, "heap contexts without a heap schema", err);
    return 0;
  }
  v->has_heap = 1;
  return read_schema(v, err) || check_context_order(v, err) ||
                 check_context_stacks(v, err) || check_timeline(v, err)
             ? -1
             : 0;
}

int mip_view_open(const char *path, struct mip_view *v,
                  struct mip_error *err) {
  struct mip_file f;
  if (mip_file_read(path, &f, err)) {
    memset(v, 0, sizeof *v);
    return -1;
  }
  return mip_view_parse(&f, path, v, err);
}

int mip_view_parse(struct mip_file *file, const char *path, struct mip_view *v,
                   struct mip_error *err) {
  memset(v, 0, sizeof *v);
  v->path = path;
  v->data = file->data; /* freed by mip_view_close */
  v->size = file->size;
  *file = (struct mip_file){0};
  if (v->size == 0) {
    mip_view_close(v);
    return mip_fail(err, path, "empty file");
  }
  struct mip_rec_profile_header h;
  if (read_header(v, &h, err) || read_table(v, &h, err) ||
      check_strings(v, err) || read_extents(v, err) ||
      check_functions(v, err) || check_heap(v, err) ||
      mip_view_check_all(v, err)) {
    mip_view_close(v);
    return -1;
  }
  return 0;
}

/* ---- strings and functions ------------------------------------------- */

const char *mip_view_string(const struct mip_view *v, uint32_t offset) {
  const struct mip_view_table *s = &v->tables[MIP_PROF_STRINGS];
  return offset < s->count ? (const char *)s->data + offset : NULL;
}

static int strings_ok(const struct mip_view *v, const uint32_t *offsets,
                      size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!mip_view_string(v, offsets[i]))
      return 0;
  return 1;
}

static void read_per_function(const struct mip_view *v, uint64_t i,
                              struct mip_profile_function *f) {
  if (v->tables[MIP_PROF_CALLS].present) {
    struct mip_rec_profile_calls r;
    mip_rec_profile_calls_decode(&r, mip_view_entry(v, MIP_PROF_CALLS, i));
    f->cnt_offset = r.raw_offset;
    f->calls = r.calls;
  }
  if (v->tables[MIP_PROF_ORDER].present) {
    struct mip_rec_profile_order r;
    mip_rec_profile_order_decode(&r, mip_view_entry(v, MIP_PROF_ORDER, i));
    f->ord_offset = r.raw_offset;
    f->rank_sum = r.rank_sum;
    f->ranked_runs = r.ranked_runs;
  }
  if (v->tables[MIP_PROF_BLOCKS].present) {
    struct mip_rec_profile_blocks r;
    mip_rec_profile_blocks_decode(&r, mip_view_entry(v, MIP_PROF_BLOCKS, i));
    f->first_block = r.first_block;
    f->block_count = r.block_count;
    f->probe_offset = r.probe_offset;
  }
}

int mip_view_function(const struct mip_view *v, uint64_t i,
                      struct mip_profile_function *f, struct mip_error *err) {
  struct mip_rec_profile_function r;
  mip_rec_profile_function_decode(&r, mip_view_entry(v, MIP_PROF_FUNCTIONS, i));
  const uint32_t strings[] = {r.key, r.name, r.unit};
  if (!strings_ok(v, strings, 3))
    return mip_fail(err, v->path,
                    "corrupt profile: function %" PRIu64
                    " names a string out of range",
                    i);
  *f = (struct mip_profile_function){
      .key = r.key,
      .name = r.name,
      .unit = r.unit,
      .flags = r.flags,
      .cfg_hash = r.cfg_hash,
      .entry = r.entry,
      .cov_offset = r.cov_offset,
      .covered_runs = r.covered_runs,
      .cnt_offset = MIP_NO_OFFSET,
      .ord_offset = MIP_NO_OFFSET,
      .probe_offset = MIP_NO_OFFSET,
  };
  read_per_function(v, i, f);
  uint64_t blocks = v->tables[MIP_PROF_BLOCK_TABLE].count;
  if (f->first_block > blocks || f->block_count > blocks - f->first_block)
    return corrupt(v, "a function's blocks are out of range", err);
  return 0;
}

static const char *key_at(const struct mip_view *v, uint32_t kind,
                           uint64_t i) {
  const uint8_t *e = mip_view_entry(v, kind, i);
  const char *key = mip_view_string(v, mip_get_le32(e)); /* key: first */
  return key ? key : "";
}

uint64_t mip_view_find_key(const struct mip_view *v, uint32_t kind,
                           const char *key, uint64_t *first) {
  uint64_t count = v->tables[kind].count;
  uint64_t lo = 0, hi = count;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (strcmp(key_at(v, kind, mid), key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *first = lo;
  uint64_t end = lo;
  while (end < count && strcmp(key_at(v, kind, end), key) == 0)
    end++;
  return end - lo;
}

uint64_t mip_view_find(const struct mip_view *v, const char *key,
                       uint64_t *first) {
  return mip_view_find_key(v, MIP_PROF_FUNCTIONS, key, first);
}

/* ---- blocks ------------------------------------------------------------ */

int mip_view_block(const struct mip_view *v, uint64_t i, struct mip_block *b,
                   struct mip_error *err) {
  if (i >= v->tables[MIP_PROF_BLOCK_TABLE].count)
    return corrupt(v, "a block out of range", err);
  struct mip_rec_profile_block r;
  mip_rec_profile_block_decode(&r, mip_view_entry(v, MIP_PROF_BLOCK_TABLE, i));
  uint64_t deps = v->tables[MIP_PROF_DEPS].count;
  if (r.dep_first > deps || r.dep_count > deps - r.dep_first)
    return corrupt(v, "a block's dependencies are out of range", err);
  *b = (struct mip_block){r.line, r.probe, r.dep_first, r.dep_count,
                          r.covered_runs};
  return 0;
}

uint32_t mip_view_dep(const struct mip_view *v, uint64_t i) {
  return mip_get_le32(mip_view_entry(v, MIP_PROF_DEPS, i));
}

/* ---- edges, symbols, statistics --------------------------------------- */

int mip_view_edge(const struct mip_view *v, uint64_t i, struct mip_edge *e,
                  struct mip_error *err) {
  struct mip_rec_profile_edge r;
  mip_rec_profile_edge_decode(&r, mip_view_entry(v, MIP_PROF_EDGES, i));
  uint64_t functions = v->tables[MIP_PROF_FUNCTIONS].count;
  if (r.callee >= functions ||
      (r.caller >= functions && r.caller != MIP_NO_FUNCTION))
    return corrupt(v, "an edge names a function out of range", err);
  *e = (struct mip_edge){r.caller, r.callee, r.samples};
  return 0;
}

struct mip_symbol mip_view_symbol(const struct mip_view *v, uint64_t i) {
  struct mip_rec_symbol r;
  mip_rec_symbol_decode(&r, mip_view_entry(v, MIP_PROF_SYMBOLS, i));
  return (struct mip_symbol){r.addr, r.size};
}

int mip_view_stat(const struct mip_view *v, uint32_t key, uint64_t *value) {
  for (uint64_t i = 0; i < v->tables[MIP_PROF_STATS].count; i++) {
    struct mip_rec_profile_stat r;
    mip_rec_profile_stat_decode(&r, mip_view_entry(v, MIP_PROF_STATS, i));
    if (r.key == key) {
      *value = r.value;
      return 1;
    }
  }
  return 0;
}

/* ---- heap ----------------------------------------------------------------- */

int mip_view_heap_site(const struct mip_view *v, uint64_t i,
                       struct mip_heap_site *s, struct mip_error *err) {
  struct mip_rec_profile_heap_site r;
  mip_rec_profile_heap_site_decode(&r, mip_view_entry(v, MIP_PROF_HEAP_SITES, i));
  uint64_t functions = v->tables[MIP_PROF_FUNCTIONS].count;
  if (r.function >= functions)
    return mip_fail(err, v->path,
                    "corrupt profile: heap site %" PRIu64
                    " names function %" PRIu32 " of %" PRIu64,
                    i, r.function, functions);
  const uint32_t strings[] = {r.file, r.name};
  if (!strings_ok(v, strings, 2))
    return mip_fail(err, v->path,
                    "corrupt profile: heap site %" PRIu64
                    " names a string out of range",
                    i);
  const struct mip_extent *ext =
      mip_extent_find(v->extents, v->extent_count, MIP_RAW_SITE);
  if (r.site_offset >= ext->size) /* ext: checked when opened */
    return mip_fail(err, v->path,
                    "corrupt profile: heap site %" PRIu64
                    " lies outside the site counters",
                    i);
  *s = (struct mip_heap_site){r.function, r.file,      r.name,
                              r.line,     r.column,    r.allocator,
                              r.site_offset};
  return 0;
}

int mip_view_heap_frame(const struct mip_view *v, uint64_t i,
                        struct mip_heap_frame *f, struct mip_error *err) {
  struct mip_rec_profile_heap_frame r;
  mip_rec_profile_heap_frame_decode(&r, mip_view_entry(v, MIP_PROF_HEAP_FRAMES, i));
  if (v->version < 2)
    r.object = 0; /* reserved: every frame was the image's or outside */
  const uint32_t strings[] = {r.function, r.file, r.object};
  if (!strings_ok(v, strings, 3))
    return mip_fail(err, v->path,
                    "corrupt profile: heap frame %" PRIu64
                    " names a string out of range",
                    i);
  if (r.object && (r.flags & MIP_FRAME_OUTSIDE))
    return mip_fail(err, v->path,
                    "corrupt profile: heap frame %" PRIu64
                    " is outside the image and names an object",
                    i);
  *f = (struct mip_heap_frame){r.function, r.file,  r.line,
                               r.column,   r.flags, r.object};
  return 0;
}

int mip_view_heap_stack(const struct mip_view *v, uint64_t i,
                        uint32_t *frame, struct mip_error *err) {
  *frame = mip_get_le32(mip_view_entry(v, MIP_PROF_HEAP_STACKS, i));
  uint64_t frames = v->tables[MIP_PROF_HEAP_FRAMES].count;
  if (*frame >= frames)
    return mip_fail(err, v->path,
                    "corrupt profile: heap stack entry %" PRIu64
                    " names frame %" PRIu32 " of %" PRIu64,
                    i, *frame, frames);
  return 0;
}

static void read_mib(const struct mip_view *v, const uint8_t *at,
                     struct mip_mib *mib) {
  for (int f = 0; f < MIP_MIB_COUNT; f++) {
    if (!v->mib_width[f])
      mib->v[f] = 0;
    else if (v->mib_width[f] == 4)
      mib->v[f] = mip_get_le32(at + v->mib_offset[f]);
    else
      mib->v[f] = mip_get_le64(at + v->mib_offset[f]);
  }
}

int mip_view_heap_context(const struct mip_view *v, uint64_t i,
                          struct mip_heap_context *c, struct mip_error *err) {
  const uint8_t *at = mip_view_entry(v, MIP_PROF_HEAP_CONTEXTS, i);
  struct mip_rec_profile_heap_context r;
  mip_rec_profile_heap_context_decode(&r, at);
  uint64_t stack = v->tables[MIP_PROF_HEAP_STACKS].count;
  uint64_t sites = v->tables[MIP_PROF_HEAP_SITES].count;
  if (r.first_frame > stack || r.frame_count > stack - r.first_frame)
    return mip_fail(err, v->path,
                    "corrupt profile: heap context %" PRIu64
                    " has frames out of range",
                    i);
  if (r.site != MIP_NO_SITE && r.site >= sites)
    return mip_fail(err, v->path,
                    "corrupt profile: heap context %" PRIu64
                    " names site %" PRIu32 " of %" PRIu64,
                    i, r.site, sites);
  *c = (struct mip_heap_context){r.first_frame, r.frame_count, r.site,
                                 r.flags, {{0}}};
  read_mib(v, at, &c->mib);
  return 0;
}

static uint32_t context_site(const struct mip_view *v, uint64_t i) {
  struct mip_rec_profile_heap_context r;
  mip_rec_profile_heap_context_decode(&r, mip_view_entry(v, MIP_PROF_HEAP_CONTEXTS, i));
  return r.site;
}

uint64_t mip_view_site_contexts(const struct mip_view *v, uint32_t site,
                                uint64_t *first) {
  uint64_t count = v->tables[MIP_PROF_HEAP_CONTEXTS].count;
  uint64_t lo = 0, hi = count;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (context_site(v, mid) < site)
      lo = mid + 1;
    else
      hi = mid;
  }
  *first = lo;
  uint64_t end = lo;
  while (end < count && context_site(v, end) == site)
    end++;
  return end - lo;
}
