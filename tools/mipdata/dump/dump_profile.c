/*
 * mipdata dump of an indexed profile (.mip): the header, the section
 * table and every entry of every section, opened and checked first by
 * the view (mip_view_parse, as merge, show, annotate and the compiler
 * check it).
 * Entries longer than this build's layout (fields a later version
 * appended) show the fields it knows.
 */
#include <string.h>

#include "dump.h"
#include "mip/layouts.h"

/* Section kinds by the names docs/formats.md gives them. */
static const char *const kind_names[MIP_PROF_KIND_COUNT] = {
    [MIP_PROF_STRINGS] = "STRINGS",
    [MIP_PROF_EXTENTS] = "EXTENTS",
    [MIP_PROF_FUNCTIONS] = "FUNCTIONS",
    [MIP_PROF_CALLS] = "CALLS",
    [MIP_PROF_ORDER] = "ORDER",
    [MIP_PROF_BLOCKS] = "BLOCKS",
    [MIP_PROF_BLOCK_TABLE] = "BLOCK_TABLE",
    [MIP_PROF_DEPS] = "DEPS",
    [MIP_PROF_EDGES] = "EDGES",
    [MIP_PROF_SYMBOLS] = "SYMBOLS",
    [MIP_PROF_STATS] = "STATS",
    [MIP_PROF_HEAP_SITES] = "HEAP_SITES",
    [MIP_PROF_HEAP_FRAMES] = "HEAP_FRAMES",
    [MIP_PROF_HEAP_STACKS] = "HEAP_STACKS",
    [MIP_PROF_HEAP_SCHEMA] = "HEAP_SCHEMA",
    [MIP_PROF_HEAP_CONTEXTS] = "HEAP_CONTEXTS",
    [MIP_PROF_HEAP_PEAKS] = "HEAP_PEAKS",
    [MIP_PROF_HEAP_TIMELINE] = "HEAP_TIMELINE",
    [MIP_PROF_DATA] = "DATA",
    [MIP_PROF_EDGE_COUNTS] = "EDGE_COUNTS",
    [MIP_PROF_EDGE_COUNTERS] = "EDGE_COUNTERS",
};

/* The layout of each kind whose entries are records. */
static const int kind_layout[MIP_PROF_KIND_COUNT] = {
    [MIP_PROF_EXTENTS] = DUMP_raw_extent + 1,
    [MIP_PROF_FUNCTIONS] = DUMP_profile_function + 1,
    [MIP_PROF_CALLS] = DUMP_profile_calls + 1,
    [MIP_PROF_ORDER] = DUMP_profile_order + 1,
    [MIP_PROF_BLOCKS] = DUMP_profile_blocks + 1,
    [MIP_PROF_BLOCK_TABLE] = DUMP_profile_block + 1,
    [MIP_PROF_EDGES] = DUMP_profile_edge + 1,
    [MIP_PROF_SYMBOLS] = DUMP_symbol + 1,
    [MIP_PROF_STATS] = DUMP_profile_stat + 1,
    [MIP_PROF_HEAP_SITES] = DUMP_profile_heap_site + 1,
    [MIP_PROF_HEAP_FRAMES] = DUMP_profile_heap_frame + 1,
    [MIP_PROF_HEAP_CONTEXTS] = DUMP_profile_heap_context + 1,
    [MIP_PROF_HEAP_PEAKS] = DUMP_heap_peak + 1,
    [MIP_PROF_HEAP_TIMELINE] = DUMP_heap_point + 1,
    [MIP_PROF_DATA] = DUMP_profile_data + 1,
    [MIP_PROF_EDGE_COUNTS] = DUMP_profile_edge_counts + 1,
}; /* (+ 1: 0 is none) */

/* Each string with its offset in the table (string_offset: what string
 * fields hold) and in the file. */
static void strings(struct dump_out *d, const struct mip_view_table *t,
                    uint64_t offset) {
  dump_array_begin(d, "entries");
  for (uint64_t at = 0; at < t->count;) {
    const char *s = (const char *)t->data + at;
    dump_object_begin(d, NULL, offset + at);
    dump_u64(d, "string_offset", at, DUMP_NO_OFFSET);
    dump_string(d, "string", s, offset + at);
    dump_object_end(d);
    at += strlen(s) + 1; /* the table ends with a NUL: checked */
  }
  dump_array_end(d);
}

static void contexts(struct dump_out *d, const struct mip_view *v,
                     const struct mip_view_table *t, uint64_t offset) {
  const struct mip_view_table *schema = &v->tables[MIP_PROF_HEAP_SCHEMA];
  dump_array_begin(d, "entries");
  for (uint64_t i = 0; i < t->count; i++) {
    uint64_t at = i * t->entry_size;
    dump_record_begin(d, NULL, DUMP_profile_heap_context, t->data + at,
                      offset + at);
    dump_mib_fields(d, schema->data, schema->count, t->data + at,
                    mip_rec_profile_heap_context_size, offset + at);
    dump_object_end(d);
  }
  dump_array_end(d);
}

static void section_entries(struct dump_out *d, const struct mip_view *v,
                            uint32_t kind, uint64_t offset) {
  const struct mip_view_table *t = &v->tables[kind];
  if (kind == MIP_PROF_STRINGS)
    strings(d, t, offset);
  else if (kind == MIP_PROF_HEAP_SCHEMA)
    dump_mib_schema(d, "entries", t->data, t->count, offset);
  else if (kind == MIP_PROF_DEPS || kind == MIP_PROF_HEAP_STACKS)
    dump_elements(d, "entries", t->data, t->count, 4, offset); /* u32 */
  else if (kind == MIP_PROF_EDGE_COUNTERS)
    dump_elements(d, "entries", t->data, t->count, 8, offset); /* u64 */
  else if (kind == MIP_PROF_HEAP_CONTEXTS)
    contexts(d, v, t, offset);
  else {
    dump_array_begin(d, "entries");
    for (uint64_t i = 0; i < t->count; i++) {
      uint64_t at = i * t->entry_size;
      dump_record_begin(d, NULL, (enum dump_layout_id)(kind_layout[kind] - 1),
                        t->data + at, offset + at);
      dump_object_end(d);
    }
    dump_array_end(d);
  }
}

static void print_profile(struct dump_out *d, const char *path,
                          const struct mip_view *v) {
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, v->data);
  dump_start(d);
  dump_string(d, "file", path, DUMP_NO_OFFSET);
  dump_string(d, "kind", "indexed profile", DUMP_NO_OFFSET);
  dump_u64(d, "size", v->size, DUMP_NO_OFFSET);
  dump_record_begin(d, "header", DUMP_profile_header, v->data, 0);
  dump_object_end(d);
  dump_array_begin(d, "sections");
  for (uint32_t i = 0; i < h.section_count; i++) {
    uint64_t entry = h.header_size + i * (uint64_t)mip_rec_profile_section_size;
    struct mip_rec_profile_section s;
    mip_rec_profile_section_decode(&s, v->data + entry);
    int known = s.kind > 0 && s.kind < MIP_PROF_KIND_COUNT;
    dump_record_begin(d, NULL, DUMP_profile_section, v->data + entry, entry);
    dump_string(d, "name", known ? kind_names[s.kind] : "unknown",
                DUMP_NO_OFFSET);
    if (known) /* the view has every known kind at most once: checked */
      section_entries(d, v, s.kind, s.offset);
    dump_object_end(d);
  }
  dump_array_end(d);
  dump_end(d);
}

int dump_profile(const char *path, struct mip_file *f, struct dump_out *d,
                 struct mip_error *err) {
  struct mip_view v;
  if (mip_view_parse(f, path, &v, err))
    return -1;
  print_profile(d, path, &v);
  mip_view_close(&v);
  return 0;
}
