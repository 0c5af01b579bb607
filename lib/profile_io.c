/*
 * Indexed profiles (.mip) on disk: a header, a table of typed sections and
 * the sections (mip/layout/profile_*.inc). Readers skip section kinds they
 * do not know and fields past the ones they know (entry_size), so later
 * versions can add data without breaking this reader. Sections a profile
 * has no data for are left out, so a coverage-only profile is what the
 * coverage-only build wrote. Heap contexts carry a schema of MemInfoBlock
 * field ids, so fields can be added the same way.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "heap.h"

/* ---- writing -------------------------------------------------------- */

struct section_out {
  uint32_t kind;
  uint32_t entry_size;
  struct mip_buf data;
};

#define ENCODE(layout, out, ...)                                               \
  do {                                                                         \
    struct mip_rec_##layout r_ = {__VA_ARGS__};                                \
    mip_rec_##layout##_encode(&r_,                                             \
                              mip_buf_extend(out, mip_rec_##layout##_size));   \
  } while (0)

/* Heap contexts: the head, then every field this build knows, in mib.inc
 * order (the schema it writes), padded to 8. */
static uint32_t heap_context_size(void) {
  uint32_t size = mip_rec_profile_heap_context_size;
  for (int i = 0; i < MIP_MIB_COUNT; i++)
    size += mip_mib_defs[i].width;
  return (size + 7) & ~7u;
}

static void encode_heap(const struct mip_profile *p, uint32_t kind,
                        struct mip_buf *out) {
  for (size_t i = 0; kind == MIP_PROF_HEAP_SITES && i < p->heap_site_count;
       i++) {
    const struct mip_heap_site *s = &p->heap_sites[i];
    ENCODE(profile_heap_site, out, s->function, s->file, s->name, s->line,
           s->column, s->allocator, s->site_offset);
  }
  for (size_t i = 0; kind == MIP_PROF_HEAP_FRAMES && i < p->heap_frame_count;
       i++) {
    const struct mip_heap_frame *f = &p->heap_frames[i];
    ENCODE(profile_heap_frame, out, f->function, f->file, f->line, f->column,
           f->flags, 0);
  }
  for (size_t i = 0; kind == MIP_PROF_HEAP_STACKS && i < p->heap_stack_count;
       i++)
    mip_put_le32(mip_buf_extend(out, 4), p->heap_stack[i]);
  for (int i = 0; kind == MIP_PROF_HEAP_SCHEMA && i < MIP_MIB_COUNT; i++)
    mip_put_le32(mip_buf_extend(out, 4), mip_mib_defs[i].id);
  for (size_t i = 0;
       kind == MIP_PROF_HEAP_CONTEXTS && i < p->heap_context_count; i++) {
    const struct mip_heap_context *c = &p->heap_contexts[i];
    uint8_t *at = mip_buf_extend(out, heap_context_size());
    struct mip_rec_profile_heap_context head = {c->first_frame, c->frame_count,
                                                c->site, c->flags};
    mip_rec_profile_heap_context_encode(&head, at);
    at += mip_rec_profile_heap_context_size;
    for (int f = 0; f < MIP_MIB_COUNT; f++) {
      if (mip_mib_defs[f].width == 4)
        mip_put_le32(at, (uint32_t)c->mib.v[f]);
      else
        mip_put_le64(at, c->mib.v[f]);
      at += mip_mib_defs[f].width;
    }
  }
}

static void encode_section(const struct mip_profile *p, uint32_t kind,
                           struct mip_buf *out) {
  for (size_t i = 0; kind == MIP_PROF_EXTENTS && i < p->extent_count; i++) {
    const struct mip_extent *e = &p->extents[i];
    ENCODE(raw_extent, out, e->kind, e->elem_size, e->link_addr, e->size);
  }
  for (size_t i = 0; i < p->function_count; i++) {
    const struct mip_profile_function *f = &p->functions[i];
    if (kind == MIP_PROF_FUNCTIONS)
      ENCODE(profile_function, out, f->key, f->name, f->unit, f->flags,
             f->cfg_hash, f->entry, f->cov_offset, f->covered_runs);
    else if (kind == MIP_PROF_CALLS)
      ENCODE(profile_calls, out, f->cnt_offset, f->calls);
    else if (kind == MIP_PROF_ORDER)
      ENCODE(profile_order, out, f->ord_offset, f->rank_sum, f->ranked_runs);
    else if (kind == MIP_PROF_BLOCKS)
      ENCODE(profile_blocks, out, f->first_block, f->block_count,
             f->probe_offset);
  }
  for (size_t i = 0; kind == MIP_PROF_BLOCK_TABLE && i < p->block_count; i++) {
    const struct mip_block *b = &p->blocks[i];
    ENCODE(profile_block, out, b->line, b->probe, b->dep_first, b->dep_count,
           b->covered_runs);
  }
  for (size_t i = 0; kind == MIP_PROF_DEPS && i < p->dep_count; i++)
    mip_put_le32(mip_buf_extend(out, 4), p->deps[i]);
  for (size_t i = 0; kind == MIP_PROF_EDGES && i < p->edge_count; i++)
    ENCODE(profile_edge, out, p->edges[i].caller, p->edges[i].callee,
           p->edges[i].samples);
  for (size_t i = 0; kind == MIP_PROF_SYMBOLS && i < p->symbol_count; i++)
    ENCODE(symbol, out, p->symbols[i].addr, p->symbols[i].size);
  if (kind == MIP_PROF_STATS && p->edge_period) {
    ENCODE(profile_stat, out, MIP_STAT_EDGE_PERIOD, 0, p->edge_period);
    ENCODE(profile_stat, out, MIP_STAT_EDGE_SAMPLES_DROPPED, 0,
           p->edge_samples_dropped);
  }
  if (kind == MIP_PROF_STATS && p->has_heap) {
    const struct mip_heap_stats *h = &p->heap_stats;
    ENCODE(profile_stat, out, MIP_STAT_HEAP_UNSEEN_FREES, 0, h->unseen_frees);
    ENCODE(profile_stat, out, MIP_STAT_HEAP_FREED_UNSEEN, 0, h->freed_unseen);
    ENCODE(profile_stat, out, MIP_STAT_HEAP_TRUNCATED_STACKS, 0,
           h->truncated_stacks);
    ENCODE(profile_stat, out, MIP_STAT_HEAP_DROPPED, 0, h->dropped);
    ENCODE(profile_stat, out, MIP_STAT_HEAP_STACK_DEPTH, 0, h->stack_depth);
  }
  encode_heap(p, kind, out);
}

/* The sections this profile needs, in file order. */
static size_t plan_sections(const struct mip_profile *p,
                            struct section_out *out) {
  size_t n = 0;
  out[n++] = (struct section_out){MIP_PROF_STRINGS, 1, {0}};
  out[n++] = (struct section_out){MIP_PROF_EXTENTS, mip_rec_raw_extent_size, {0}};
  out[n++] = (struct section_out){MIP_PROF_FUNCTIONS,
                                  mip_rec_profile_function_size, {0}};
  if (mip_profile_has(p, MIP_RAW_CNT))
    out[n++] = (struct section_out){MIP_PROF_CALLS,
                                    mip_rec_profile_calls_size, {0}};
  if (mip_profile_has(p, MIP_RAW_ORD))
    out[n++] = (struct section_out){MIP_PROF_ORDER,
                                    mip_rec_profile_order_size, {0}};
  if (p->block_count) {
    out[n++] = (struct section_out){MIP_PROF_BLOCKS,
                                    mip_rec_profile_blocks_size, {0}};
    out[n++] = (struct section_out){MIP_PROF_BLOCK_TABLE,
                                    mip_rec_profile_block_size, {0}};
    out[n++] = (struct section_out){MIP_PROF_DEPS, 4, {0}};
  }
  if (p->edge_period)
    out[n++] = (struct section_out){MIP_PROF_EDGES,
                                    mip_rec_profile_edge_size, {0}};
  if (p->edge_period || p->has_heap)
    out[n++] = (struct section_out){MIP_PROF_STATS,
                                    mip_rec_profile_stat_size, {0}};
  if (p->symbol_count)
    out[n++] = (struct section_out){MIP_PROF_SYMBOLS, mip_rec_symbol_size, {0}};
  if (p->heap_site_count)
    out[n++] = (struct section_out){MIP_PROF_HEAP_SITES,
                                    mip_rec_profile_heap_site_size, {0}};
  if (p->has_heap) {
    out[n++] = (struct section_out){MIP_PROF_HEAP_FRAMES,
                                    mip_rec_profile_heap_frame_size, {0}};
    out[n++] = (struct section_out){MIP_PROF_HEAP_STACKS, 4, {0}};
    out[n++] = (struct section_out){MIP_PROF_HEAP_SCHEMA, 4, {0}};
    out[n++] = (struct section_out){MIP_PROF_HEAP_CONTEXTS,
                                    heap_context_size(), {0}};
  }
  return n;
}

static void layout(const struct mip_profile *p, struct mip_buf *file,
                   struct section_out *sections, size_t count) {
  struct mip_rec_profile_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_PROFILE_MAGIC;
  h.version = MIP_PROFILE_VERSION;
  h.header_size = mip_rec_profile_header_size;
  h.modes = p->modes;
  h.runs = p->runs;
  h.section_count = (uint32_t)count;
  h.build_id_size = p->build_id.size;
  memcpy(h.build_id, p->build_id.bytes, p->build_id.size);
  mip_rec_profile_header_encode(
      &h, mip_buf_extend(file, mip_rec_profile_header_size));
  size_t table = file->size;
  mip_buf_extend(file, count * mip_rec_profile_section_size);
  for (size_t i = 0; i < count; i++) {
    mip_buf_align(file, 8);
    struct mip_rec_profile_section s = {sections[i].kind,
                                        sections[i].entry_size, file->size,
                                        sections[i].data.size};
    mip_buf_append(file, sections[i].data.data, sections[i].data.size);
    mip_rec_profile_section_encode(
        &s, file->data + table + i * mip_rec_profile_section_size);
  }
  mip_buf_align(file, 8);
}

int mip_profile_write(const char *path, const struct mip_profile *p,
                      struct mip_error *err) {
  struct section_out sections[MIP_PROF_KIND_COUNT];
  size_t count = plan_sections(p, sections);
  mip_buf_append(&sections[0].data, p->strings.data, p->strings.size);
  for (size_t i = 1; i < count; i++)
    encode_section(p, sections[i].kind, &sections[i].data);
  struct mip_buf file = {0};
  layout(p, &file, sections, count);
  int rc = mip_file_write_atomic(path, file.data, file.size, err);
  mip_buf_free(&file);
  for (size_t i = 0; i < count; i++)
    mip_buf_free(&sections[i].data);
  return rc;
}

/* ---- reading -------------------------------------------------------- */

struct section_in {
  const uint8_t *data;
  uint64_t size;
  uint32_t entry_size;
  int present;
};

/* What a reader knows of each section kind: the smallest entry it can
 * read. */
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
};

static int read_table(const struct mip_file *f,
                      const struct mip_rec_profile_header *h,
                      struct section_in *known, const char *path,
                      struct mip_error *err) {
  uint64_t end = h->header_size +
                 (uint64_t)h->section_count * mip_rec_profile_section_size;
  if (end > f->size)
    return mip_fail(err, path,
                    "truncated profile (section table needs %" PRIu64
                    " bytes, file has %zu)",
                    end, f->size);
  for (uint32_t i = 0; i < h->section_count; i++) {
    struct mip_rec_profile_section s;
    mip_rec_profile_section_decode(&s, f->data + h->header_size +
                                           i * mip_rec_profile_section_size);
    if (s.offset > f->size || s.size > f->size - s.offset)
      return mip_fail(err, path,
                      "truncated profile (section %" PRIu32
                      " needs bytes up to %" PRIu64 ", file has %zu)",
                      i, s.offset + s.size, f->size);
    if (s.entry_size == 0 || s.size % s.entry_size)
      return mip_fail(err, path,
                      "corrupt profile: section %" PRIu32
                      " has a bad entry size",
                      i);
    if (s.kind == 0 || s.kind >= MIP_PROF_KIND_COUNT)
      continue; /* added by a later version */
    if (known[s.kind].present)
      return mip_fail(err, path,
                      "corrupt profile: section kind %" PRIu32 " twice",
                      s.kind);
    if (s.entry_size < min_entry[s.kind])
      return mip_fail(err, path,
                      "corrupt profile: section kind %" PRIu32
                      " has entries too small",
                      s.kind);
    known[s.kind] =
        (struct section_in){f->data + s.offset, s.size, s.entry_size, 1};
  }
  return 0;
}

static size_t entries(const struct section_in *s) {
  return s->present ? s->size / s->entry_size : 0;
}

static const uint8_t *entry(const struct section_in *s, size_t i) {
  return s->data + i * s->entry_size;
}

static int corrupt(const char *path, const char *what, struct mip_error *err) {
  return mip_fail(err, path, "corrupt profile: %s", what);
}

static int read_strings(struct mip_profile *p, const struct section_in *s,
                        const char *path, struct mip_error *err) {
  if (!s->present || s->size == 0 || s->data[0] != '\0' ||
      s->data[s->size - 1] != '\0')
    return corrupt(path, "bad string table", err);
  mip_buf_append(&p->strings, s->data, s->size);
  return 0;
}

static int read_extents(struct mip_profile *p, const struct section_in *s,
                        const char *path, struct mip_error *err) {
  if (!s->present || entries(s) > MIP_MAX_EXTENTS)
    return corrupt(path, "bad counter extents", err);
  for (size_t i = 0; i < entries(s); i++) {
    struct mip_rec_raw_extent r;
    mip_rec_raw_extent_decode(&r, entry(s, i));
    p->extents[p->extent_count++] =
        (struct mip_extent){r.kind, r.elem_size, r.link_addr, r.size};
  }
  return 0;
}

static int read_functions(struct mip_profile *p, const struct section_in *s,
                          const char *path, struct mip_error *err) {
  if (!s->present)
    return corrupt(path, "no function table", err);
  size_t count = entries(s);
  p->functions = mip_xcalloc(count, sizeof *p->functions);
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_profile_function r;
    mip_rec_profile_function_decode(&r, entry(s, i));
    if (r.key >= p->strings.size || r.name >= p->strings.size ||
        r.unit >= p->strings.size)
      return mip_fail(err, path,
                      "corrupt profile: function %zu names a string out of "
                      "range",
                      i);
    p->functions[i] = (struct mip_profile_function){
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
  }
  p->function_count = count;
  return 0;
}

/* A table with one entry per function must have exactly that many. */
static int parallel(const struct mip_profile *p, const struct section_in *s,
                    const char *what, const char *path,
                    struct mip_error *err) {
  if (s->present && entries(s) != p->function_count)
    return mip_fail(err, path,
                    "corrupt profile: %zu %s entries for %zu functions",
                    entries(s), what, p->function_count);
  return 0;
}

static int read_per_function(struct mip_profile *p,
                             const struct section_in *known,
                             const char *path, struct mip_error *err) {
  const struct section_in *calls = &known[MIP_PROF_CALLS];
  const struct section_in *order = &known[MIP_PROF_ORDER];
  const struct section_in *blocks = &known[MIP_PROF_BLOCKS];
  if (parallel(p, calls, "call", path, err) ||
      parallel(p, order, "order", path, err) ||
      parallel(p, blocks, "block", path, err))
    return -1;
  for (size_t i = 0; i < p->function_count; i++) {
    struct mip_profile_function *f = &p->functions[i];
    if (calls->present) {
      struct mip_rec_profile_calls r;
      mip_rec_profile_calls_decode(&r, entry(calls, i));
      f->cnt_offset = r.raw_offset;
      f->calls = r.calls;
    }
    if (order->present) {
      struct mip_rec_profile_order r;
      mip_rec_profile_order_decode(&r, entry(order, i));
      f->ord_offset = r.raw_offset;
      f->rank_sum = r.rank_sum;
      f->ranked_runs = r.ranked_runs;
    }
    if (blocks->present) {
      struct mip_rec_profile_blocks r;
      mip_rec_profile_blocks_decode(&r, entry(blocks, i));
      f->first_block = r.first_block;
      f->block_count = r.block_count;
      f->probe_offset = r.probe_offset;
    }
  }
  return 0;
}

static int read_blocks(struct mip_profile *p, const struct section_in *known,
                       const char *path, struct mip_error *err) {
  const struct section_in *table = &known[MIP_PROF_BLOCK_TABLE];
  const struct section_in *deps = &known[MIP_PROF_DEPS];
  p->block_count = entries(table);
  p->dep_count = entries(deps);
  p->blocks = mip_xcalloc(p->block_count, sizeof *p->blocks);
  p->deps = mip_xcalloc(p->dep_count, sizeof *p->deps);
  for (size_t i = 0; i < p->dep_count; i++)
    p->deps[i] = mip_get_le32(entry(deps, i));
  for (size_t i = 0; i < p->block_count; i++) {
    struct mip_rec_profile_block r;
    mip_rec_profile_block_decode(&r, entry(table, i));
    if (r.dep_first > p->dep_count || r.dep_count > p->dep_count - r.dep_first)
      return corrupt(path, "a block's dependencies are out of range", err);
    p->blocks[i] = (struct mip_block){r.line, r.probe, r.dep_first,
                                      r.dep_count, r.covered_runs};
  }
  for (size_t i = 0; i < p->function_count; i++) {
    const struct mip_profile_function *f = &p->functions[i];
    if (f->first_block > p->block_count ||
        f->block_count > p->block_count - f->first_block)
      return corrupt(path, "a function's blocks are out of range", err);
    for (uint32_t b = 0; b < f->block_count; b++) {
      const struct mip_block *blk = &p->blocks[f->first_block + b];
      for (uint32_t d = 0; d < blk->dep_count; d++)
        if (p->deps[blk->dep_first + d] >= f->block_count)
          return corrupt(path, "a block depends on another function", err);
    }
  }
  return 0;
}

static int read_edges(struct mip_profile *p, const struct section_in *known,
                      const char *path, struct mip_error *err) {
  const struct section_in *edges = &known[MIP_PROF_EDGES];
  const struct section_in *stats = &known[MIP_PROF_STATS];
  p->edge_count = entries(edges);
  p->edges = mip_xcalloc(p->edge_count, sizeof *p->edges);
  for (size_t i = 0; i < p->edge_count; i++) {
    struct mip_rec_profile_edge r;
    mip_rec_profile_edge_decode(&r, entry(edges, i));
    if (r.callee >= p->function_count ||
        (r.caller >= p->function_count && r.caller != MIP_NO_FUNCTION))
      return corrupt(path, "an edge names a function out of range", err);
    p->edges[i] = (struct mip_edge){r.caller, r.callee, r.samples};
  }
  for (size_t i = 0; i < entries(stats); i++) {
    struct mip_rec_profile_stat r;
    mip_rec_profile_stat_decode(&r, entry(stats, i));
    struct mip_heap_stats *h = &p->heap_stats;
    if (r.key == MIP_STAT_EDGE_PERIOD)
      p->edge_period = r.value;
    else if (r.key == MIP_STAT_EDGE_SAMPLES_DROPPED)
      p->edge_samples_dropped = r.value;
    else if (r.key == MIP_STAT_HEAP_UNSEEN_FREES)
      h->unseen_frees = r.value;
    else if (r.key == MIP_STAT_HEAP_FREED_UNSEEN)
      h->freed_unseen = r.value;
    else if (r.key == MIP_STAT_HEAP_TRUNCATED_STACKS)
      h->truncated_stacks = r.value;
    else if (r.key == MIP_STAT_HEAP_DROPPED)
      h->dropped = r.value;
    else if (r.key == MIP_STAT_HEAP_STACK_DEPTH)
      h->stack_depth = r.value;
  }
  return 0;
}

/* ---- heap ----------------------------------------------------------- */

static int read_heap_sites(struct mip_profile *p,
                           const struct section_in *s, const char *path,
                           struct mip_error *err) {
  size_t n = entries(s);
  if (!n)
    return 0;
  const struct mip_extent *ext =
      mip_extent_find(p->extents, p->extent_count, MIP_RAW_SITE);
  if (!ext)
    return corrupt(path, "heap sites without site counters", err);
  p->heap_sites = mip_xcalloc(n, sizeof *p->heap_sites);
  for (size_t i = 0; i < n; i++) {
    struct mip_rec_profile_heap_site r;
    mip_rec_profile_heap_site_decode(&r, entry(s, i));
    if (r.function >= p->function_count)
      return mip_fail(err, path,
                      "corrupt profile: heap site %zu names function %" PRIu32
                      " of %zu",
                      i, r.function, p->function_count);
    if (r.file >= p->strings.size || r.name >= p->strings.size)
      return mip_fail(err, path,
                      "corrupt profile: heap site %zu names a string out of "
                      "range",
                      i);
    if (r.site_offset >= ext->size)
      return mip_fail(err, path,
                      "corrupt profile: heap site %zu lies outside the site "
                      "counters",
                      i);
    if (i && r.site_offset <= p->heap_sites[i - 1].site_offset)
      return corrupt(path, "heap sites out of order", err);
    p->heap_sites[i] = (struct mip_heap_site){
        r.function, r.file,      r.name,       r.line,
        r.column,   r.allocator, r.site_offset};
    p->heap_site_count = i + 1;
  }
  return 0;
}

static int read_heap_frames(struct mip_profile *p,
                            const struct section_in *frames,
                            const struct section_in *stack, const char *path,
                            struct mip_error *err) {
  p->heap_frame_count = entries(frames);
  p->heap_frames = mip_xcalloc(p->heap_frame_count, sizeof *p->heap_frames);
  for (size_t i = 0; i < p->heap_frame_count; i++) {
    struct mip_rec_profile_heap_frame r;
    mip_rec_profile_heap_frame_decode(&r, entry(frames, i));
    if (r.function >= p->strings.size || r.file >= p->strings.size)
      return mip_fail(err, path,
                      "corrupt profile: heap frame %zu names a string out of "
                      "range",
                      i);
    p->heap_frames[i] =
        (struct mip_heap_frame){r.function, r.file, r.line, r.column, r.flags};
  }
  p->heap_stack_count = entries(stack);
  p->heap_stack = mip_xcalloc(p->heap_stack_count, sizeof *p->heap_stack);
  for (size_t i = 0; i < p->heap_stack_count; i++) {
    p->heap_stack[i] = mip_get_le32(entry(stack, i));
    if (p->heap_stack[i] >= p->heap_frame_count)
      return mip_fail(err, path,
                      "corrupt profile: heap stack entry %zu names frame "
                      "%" PRIu32 " of %zu",
                      i, p->heap_stack[i], p->heap_frame_count);
  }
  return 0;
}

/* Where each schema field lies in a context entry: its known index (-1:
 * unknown, skipped; fields this build does not know are 8 bytes wide). */
static int read_heap_schema(const struct section_in *s, int *index,
                            uint32_t *offset, uint32_t *width, uint32_t *end,
                            const char *path, struct mip_error *err) {
  uint64_t at = mip_rec_profile_heap_context_size;
  for (size_t i = 0; i < entries(s); i++) {
    uint32_t id = mip_get_le32(entry(s, i));
    if (id == 0)
      return corrupt(path, "heap schema has field id 0", err);
    for (size_t j = 0; j < i; j++)
      if (mip_get_le32(entry(s, j)) == id)
        return mip_fail(err, path,
                        "corrupt profile: heap schema names field %" PRIu32
                        " twice",
                        id);
    index[i] = mip_mib_index(id);
    width[i] = mip_mib_width(id);
    offset[i] = (uint32_t)at;
    at += width[i];
    if (at > UINT32_MAX)
      return corrupt(path, "heap schema too long", err);
  }
  *end = (uint32_t)at;
  return 0;
}

static int read_heap_contexts(struct mip_profile *p,
                              const struct section_in *schema,
                              const struct section_in *contexts,
                              const char *path, struct mip_error *err) {
  size_t fields = entries(schema);
  int *index = mip_xcalloc(fields, sizeof *index);
  uint32_t *offset = mip_xcalloc(fields, sizeof *offset);
  uint32_t *width = mip_xcalloc(fields, sizeof *width);
  uint32_t end = 0;
  int rc = read_heap_schema(schema, index, offset, width, &end, path, err);
  size_t n = entries(contexts);
  if (rc == 0 && n && contexts->entry_size < end)
    rc = mip_fail(err, path,
                  "corrupt profile: heap contexts of %" PRIu32
                  " bytes cannot hold their %" PRIu32 " bytes of fields",
                  contexts->entry_size, end);
  p->heap_contexts = mip_xcalloc(n, sizeof *p->heap_contexts);
  for (size_t i = 0; rc == 0 && i < n; i++) {
    const uint8_t *at = entry(contexts, i);
    struct mip_rec_profile_heap_context r;
    mip_rec_profile_heap_context_decode(&r, at);
    struct mip_heap_context *c = &p->heap_contexts[i];
    *c = (struct mip_heap_context){r.first_frame, r.frame_count, r.site,
                                   r.flags, {{0}}};
    if (r.first_frame > p->heap_stack_count ||
        r.frame_count > p->heap_stack_count - r.first_frame)
      rc = mip_fail(err, path,
                    "corrupt profile: heap context %zu has frames out of "
                    "range",
                    i);
    else if (r.site != MIP_NO_SITE && r.site >= p->heap_site_count)
      rc = mip_fail(err, path,
                    "corrupt profile: heap context %zu names site %" PRIu32
                    " of %zu",
                    i, r.site, p->heap_site_count);
    for (size_t f = 0; rc == 0 && f < fields; f++)
      if (index[f] >= 0)
        c->mib.v[index[f]] = width[f] == 4 ? mip_get_le32(at + offset[f])
                                           : mip_get_le64(at + offset[f]);
    p->heap_context_count = i + 1;
  }
  free(index);
  free(offset);
  free(width);
  return rc;
}

static int read_heap(struct mip_profile *p, const struct section_in *known,
                     const char *path, struct mip_error *err) {
  const struct section_in *schema = &known[MIP_PROF_HEAP_SCHEMA];
  if (read_heap_sites(p, &known[MIP_PROF_HEAP_SITES], path, err))
    return -1;
  p->heap_strings_at = mip_heap_strings_start(p);
  if (!schema->present) {
    if (known[MIP_PROF_HEAP_FRAMES].present ||
        known[MIP_PROF_HEAP_STACKS].present ||
        known[MIP_PROF_HEAP_CONTEXTS].present)
      return corrupt(path, "heap contexts without a heap schema", err);
    return 0;
  }
  p->has_heap = 1;
  if (read_heap_frames(p, &known[MIP_PROF_HEAP_FRAMES],
                       &known[MIP_PROF_HEAP_STACKS], path, err) ||
      read_heap_contexts(p, schema, &known[MIP_PROF_HEAP_CONTEXTS], path,
                         err))
    return -1;
  mip_heap_normalize(p);
  return 0;
}

/* Each function's counters lie inside their sections, so a merge can
 * read them without checking again. */
static int check_offsets(const struct mip_profile *p, const char *path,
                         struct mip_error *err) {
  static const uint32_t kinds[] = {MIP_RAW_COV, MIP_RAW_CNT, MIP_RAW_ORD,
                                   MIP_RAW_BLK};
  for (size_t i = 0; i < p->function_count; i++) {
    const struct mip_profile_function *f = &p->functions[i];
    const uint64_t offsets[] = {f->cov_offset, f->cnt_offset, f->ord_offset,
                                f->probe_offset};
    for (size_t k = 0; k < 4; k++) {
      if (offsets[k] == MIP_NO_OFFSET && kinds[k] != MIP_RAW_COV)
        continue;
      const struct mip_extent *e =
          mip_extent_find(p->extents, p->extent_count, kinds[k]);
      uint64_t elem = kinds[k] == MIP_RAW_BLK ? 0 : (e ? e->elem_size : 1);
      if (!e || offsets[k] > e->size || elem > e->size - offsets[k])
        return mip_fail(err, path,
                        "corrupt profile: counters of function %zu lie "
                        "outside their section",
                        i);
    }
  }
  return 0;
}

static void read_symbols(struct mip_profile *p,
                         const struct section_in *symbols) {
  p->symbol_count = entries(symbols);
  p->symbols = mip_xcalloc(p->symbol_count, sizeof *p->symbols);
  for (size_t i = 0; i < p->symbol_count; i++) {
    struct mip_rec_symbol r;
    mip_rec_symbol_decode(&r, entry(symbols, i));
    p->symbols[i] = (struct mip_symbol){r.addr, r.size};
  }
}

static int parse(struct mip_profile *p, const struct mip_file *f,
                 const char *path, struct mip_error *err) {
  if (mip_check_start(f, path, MIP_PROFILE_MAGIC, "indexed profile",
                      mip_rec_profile_header_size, err))
    return -1;
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, f->data);
  if (mip_check_header(f, path, "profile", h.version, MIP_PROFILE_VERSION,
                       h.header_size, mip_rec_profile_header_size,
                       h.build_id_size, err))
    return -1;
  p->modes = h.modes;
  p->runs = h.runs;
  p->build_id.size = h.build_id_size;
  memcpy(p->build_id.bytes, h.build_id, h.build_id_size);

  struct section_in known[MIP_PROF_KIND_COUNT] = {{0}};
  if (read_table(f, &h, known, path, err) ||
      read_strings(p, &known[MIP_PROF_STRINGS], path, err) ||
      read_extents(p, &known[MIP_PROF_EXTENTS], path, err) ||
      read_functions(p, &known[MIP_PROF_FUNCTIONS], path, err) ||
      read_per_function(p, known, path, err) ||
      read_blocks(p, known, path, err) || read_edges(p, known, path, err) ||
      check_offsets(p, path, err) || read_heap(p, known, path, err))
    return -1;
  read_symbols(p, &known[MIP_PROF_SYMBOLS]);
  return 0;
}

int mip_profile_read(const char *path, struct mip_profile *p,
                     struct mip_error *err) {
  memset(p, 0, sizeof *p);
  struct mip_file f;
  if (mip_file_read(path, &f, err))
    return -1;
  int rc = parse(p, &f, path, err);
  mip_file_free(&f);
  return rc;
}
