/*
 * Writing indexed profiles (.mip): a header, a table of typed sections and
 * the sections (mip/layout/profile_*.inc). Readers skip section kinds they
 * do not know and fields past the ones they know (entry_size), so later
 * versions can add data without breaking old readers. Sections a profile
 * has no data for are left out, so a coverage-only profile is what the
 * coverage-only build wrote. Heap contexts carry a schema of MemInfoBlock
 * field ids, so fields can be added the same way. Reading: profile_view.c
 * and profile_read.c.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "data.h"
#include "edge_counts.h"
#include "heap.h"

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
           f->flags, f->object);
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

static void encode_timeline(const struct mip_profile *p, uint32_t kind,
                            struct mip_buf *out) {
  for (size_t i = 0; kind == MIP_PROF_HEAP_PEAKS && i < p->heap_peak_count;
       i++) {
    const struct mip_heap_peak *k = &p->heap_peaks[i];
    ENCODE(heap_peak, out, k->bytes, k->blocks, k->event, k->events,
           k->interval, k->ms, 0);
  }
  for (size_t i = 0; kind == MIP_PROF_HEAP_TIMELINE && i < p->heap_point_count;
       i++) {
    const struct mip_heap_point *q = &p->heap_points[i];
    ENCODE(heap_point, out, q->event, q->ms, 0, q->bytes, q->blocks);
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
    ENCODE(profile_stat, out, MIP_STAT_HEAP_UNINTERPOSED, 0, h->uninterposed);
    ENCODE(profile_stat, out, MIP_STAT_HEAP_LIVE_UNINTERPOSED, 0,
           h->live_uninterposed);
    if (h->sample_bytes)
      ENCODE(profile_stat, out, MIP_STAT_HEAP_SAMPLE_BYTES, 0,
             h->sample_bytes);

  }
  /* From the map: kept by a profile that has no run yet, too. */
  if (kind == MIP_PROF_STATS && p->heap_stats.uncounted)
    ENCODE(profile_stat, out, MIP_STAT_HEAP_UNCOUNTED, 0,
           p->heap_stats.uncounted);
  encode_heap(p, kind, out);
  encode_timeline(p, kind, out);
  if (kind == MIP_PROF_DATA)
    mip_data_encode(p, out);
  mip_edge_counts_encode(p, kind, out);
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
  if (p->edge_period || p->has_heap || p->heap_stats.uncounted)
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
  if (p->has_heap && p->heap_peak_count) {
    out[n++] = (struct section_out){MIP_PROF_HEAP_PEAKS,
                                    mip_rec_heap_peak_size, {0}};
    out[n++] = (struct section_out){MIP_PROF_HEAP_TIMELINE,
                                    mip_rec_heap_point_size, {0}};
  }
  if (p->data_count)
    out[n++] = (struct section_out){MIP_PROF_DATA, mip_rec_profile_data_size,
                                    {0}};
  if (p->edge_counter_count || p->edge_counts_count) {
    out[n++] = (struct section_out){MIP_PROF_EDGE_COUNTS,
                                    mip_rec_profile_edge_counts_size, {0}};
    out[n++] = (struct section_out){MIP_PROF_EDGE_COUNTERS, 8, {0}};
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

void mip_profile_encode(const struct mip_profile *p, struct mip_buf *out) {
  struct section_out sections[MIP_PROF_KIND_COUNT];
  size_t count = plan_sections(p, sections);
  mip_buf_append(&sections[0].data, p->strings.data, p->strings.size);
  for (size_t i = 1; i < count; i++)
    encode_section(p, sections[i].kind, &sections[i].data);
  layout(p, out, sections, count);
  for (size_t i = 0; i < count; i++)
    mip_buf_free(&sections[i].data);
}

int mip_profile_write(const char *path, const struct mip_profile *p,
                      struct mip_error *err) {
  struct mip_buf file = {0};
  mip_profile_encode(p, &file);
  int rc = mip_file_write_atomic(path, file.data, file.size, err);
  mip_buf_free(&file);
  return rc;
}
