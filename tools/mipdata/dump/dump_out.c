/* The writer of `mipdata dump`, and the layouts it prints (dump_out.h). */
#include <inttypes.h>
#include <string.h>

#include "dump_out.h"
#include "mip/format.h"
#include "mip/le.h"

/* ---- the layouts, from the X-macros ------------------------------------ */

#define MIP_U16(n) {#n, DUMP_U16, 2},
#define MIP_U32(n) {#n, DUMP_U32, 4},
#define MIP_U64(n) {#n, DUMP_U64, 8},
#define MIP_BYTES(n, count) {#n, DUMP_BYTES, count},
static const struct dump_field raw_header_fields[] = {
#include "mip/layout/raw_header.inc"
};
static const struct dump_field raw_section_fields[] = {
#include "mip/layout/raw_section.inc"
};
static const struct dump_field raw_extent_fields[] = {
#include "mip/layout/raw_extent.inc"
};
static const struct dump_field raw_edge_fields[] = {
#include "mip/layout/raw_edge.inc"
};
static const struct dump_field raw_stat_fields[] = {
#include "mip/layout/raw_stat.inc"
};
static const struct dump_field raw_heap_mibs_fields[] = {
#include "mip/layout/raw_heap_mibs.inc"
};
static const struct dump_field raw_heap_context_fields[] = {
#include "mip/layout/raw_heap_context.inc"
};
static const struct dump_field raw_heap_stack_fields[] = {
#include "mip/layout/raw_heap_stack.inc"
};
static const struct dump_field raw_heap_segment_fields[] = {
#include "mip/layout/raw_heap_segment.inc"
};
static const struct dump_field raw_heap_timeline_fields[] = {
#include "mip/layout/raw_heap_timeline.inc"
};
static const struct dump_field heap_peak_fields[] = {
#include "mip/layout/heap_peak.inc"
};
static const struct dump_field heap_point_fields[] = {
#include "mip/layout/heap_point.inc"
};
static const struct dump_field raw_pool_blocks_fields[] = {
#include "mip/layout/raw_pool_blocks.inc"
};
static const struct dump_field raw_pool_pattern_fields[] = {
#include "mip/layout/raw_pool_pattern.inc"
};
static const struct dump_field raw_pool_rank_fields[] = {
#include "mip/layout/raw_pool_rank.inc"
};
static const struct dump_field mapfile_header_fields[] = {
#include "mip/layout/mapfile_header.inc"
};
static const struct dump_field symbol_fields[] = {
#include "mip/layout/symbol.inc"
};
static const struct dump_field map_record_fields[] = {
#include "mip/layout/map_record.inc"
};
static const struct dump_field map_unit_fields[] = {
#include "mip/layout/map_unit.inc"
};
static const struct dump_field map_unit_section_fields[] = {
#include "mip/layout/map_unit_section.inc"
};
static const struct dump_field map_function_fields[] = {
#include "mip/layout/map_function.inc"
};
static const struct dump_field map_slot_fields[] = {
#include "mip/layout/map_slot.inc"
};
static const struct dump_field map_blocks_fields[] = {
#include "mip/layout/map_blocks.inc"
};
static const struct dump_field map_block_fields[] = {
#include "mip/layout/map_block.inc"
};
static const struct dump_field map_heap_site_fields[] = {
#include "mip/layout/map_heap_site.inc"
};
static const struct dump_field map_data_fields[] = {
#include "mip/layout/map_data.inc"
};
static const struct dump_field map_edge_counts_fields[] = {
#include "mip/layout/map_edge_counts.inc"
};
static const struct dump_field profile_header_fields[] = {
#include "mip/layout/profile_header.inc"
};
static const struct dump_field profile_section_fields[] = {
#include "mip/layout/profile_section.inc"
};
static const struct dump_field profile_function_fields[] = {
#include "mip/layout/profile_function.inc"
};
static const struct dump_field profile_calls_fields[] = {
#include "mip/layout/profile_calls.inc"
};
static const struct dump_field profile_order_fields[] = {
#include "mip/layout/profile_order.inc"
};
static const struct dump_field profile_blocks_fields[] = {
#include "mip/layout/profile_blocks.inc"
};
static const struct dump_field profile_block_fields[] = {
#include "mip/layout/profile_block.inc"
};
static const struct dump_field profile_edge_fields[] = {
#include "mip/layout/profile_edge.inc"
};
static const struct dump_field profile_stat_fields[] = {
#include "mip/layout/profile_stat.inc"
};
static const struct dump_field profile_heap_site_fields[] = {
#include "mip/layout/profile_heap_site.inc"
};
static const struct dump_field profile_heap_frame_fields[] = {
#include "mip/layout/profile_heap_frame.inc"
};
static const struct dump_field profile_heap_context_fields[] = {
#include "mip/layout/profile_heap_context.inc"
};
static const struct dump_field profile_data_fields[] = {
#include "mip/layout/profile_data.inc"
};
static const struct dump_field profile_edge_counts_fields[] = {
#include "mip/layout/profile_edge_counts.inc"
};
#undef MIP_U16
#undef MIP_U32
#undef MIP_U64
#undef MIP_BYTES

static uint32_t total_size(const struct dump_field *f, uint32_t n) {
  uint32_t size = 0;
  for (uint32_t i = 0; i < n; i++)
    size += f[i].size;
  return size;
}

#define FIELD_COUNT(name) ((uint32_t)(sizeof name##_fields / sizeof name##_fields[0]))

const struct dump_layout dump_layouts[DUMP_LAYOUT_COUNT] = {
#define DUMP_LAYOUT_ENTRY(name)                                                \
  [DUMP_##name] = {#name, name##_fields, FIELD_COUNT(name)},
    DUMP_LAYOUTS(DUMP_LAYOUT_ENTRY)
#undef DUMP_LAYOUT_ENTRY
};

uint32_t dump_layout_size(enum dump_layout_id id) {
  const struct dump_layout *l = &dump_layouts[id];
  return total_size(l->fields, l->count);
}

static const char *type_name(const struct dump_field *f) {
  static const char *const names[] = {"u16", "u32", "u64", "bytes"};
  return names[f->type];
}

/* ---- the writer ---------------------------------------------------------- */

void dump_begin(struct dump_out *d, FILE *out, enum emit_format format) {
  memset(d, 0, sizeof *d);
  d->format = format;
  d->out = out;
}

void dump_start(struct dump_out *d) {
  if (d->format != EMIT_TEXT)
    emit_begin(&d->e, d->out, d->format);
}

static void text_indent(struct dump_out *d) {
  for (int i = 0; i < d->depth; i++)
    fputs("  ", d->out);
}

/* Text: "KEY:" or "-" for an array member, then " @OFFSET" when known. */
static void text_key(struct dump_out *d, const char *key, uint64_t offset) {
  text_indent(d);
  if (key)
    fprintf(d->out, "%s:", key);
  else
    fputc('-', d->out);
  if (offset != DUMP_NO_OFFSET)
    fprintf(d->out, " @%" PRIu64, offset);
}

void dump_object_begin(struct dump_out *d, const char *key, uint64_t offset) {
  if (d->format != EMIT_TEXT) {
    emit_object_begin(&d->e, key);
    if (offset != DUMP_NO_OFFSET) /* "offset" is a field of some layouts */
      emit_u64(&d->e, "at", offset);
    return;
  }
  text_key(d, key, offset);
  fputc('\n', d->out);
  d->depth++;
}

void dump_object_end(struct dump_out *d) {
  if (d->format != EMIT_TEXT)
    emit_object_end(&d->e);
  else
    d->depth--;
}

void dump_array_begin(struct dump_out *d, const char *key) {
  if (d->format != EMIT_TEXT) {
    emit_array_begin(&d->e, key);
    return;
  }
  text_key(d, key, DUMP_NO_OFFSET);
  fputc('\n', d->out);
  d->depth++;
}

void dump_array_end(struct dump_out *d) {
  if (d->format != EMIT_TEXT)
    emit_array_end(&d->e);
  else
    d->depth--;
}

void dump_u64(struct dump_out *d, const char *key, uint64_t value,
              uint64_t offset) {
  if (d->format != EMIT_TEXT) {
    emit_u64(&d->e, key, value);
    return;
  }
  text_key(d, key, offset);
  fprintf(d->out, " %" PRIu64 "\n", value);
}

void dump_string(struct dump_out *d, const char *key, const char *value,
                 uint64_t offset) {
  if (d->format != EMIT_TEXT) {
    emit_string(&d->e, key, value);
    return;
  }
  /* quoted as JSON and YAML quote it: names are bytes from files */
  text_key(d, key, offset);
  fputc(' ', d->out);
  escape_json(d->out, value);
  fputc('\n', d->out);
}

void dump_hex(struct dump_out *d, const char *key, const uint8_t *bytes,
              size_t n, uint64_t offset) {
  char hex[2 * 256 + 1] = "";
  if (n > 256)
    n = 256; /* no field of MIP's is longer */
  for (size_t i = 0; i < n; i++)
    snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
  if (d->format != EMIT_TEXT)
    emit_string(&d->e, key, hex);
  else {
    text_key(d, key, offset);
    fprintf(d->out, " %s\n", hex);
  }
}

static uint64_t plus(uint64_t offset, uint64_t at) {
  return offset == DUMP_NO_OFFSET ? offset : offset + at;
}

void dump_record(struct dump_out *d, enum dump_layout_id id, const uint8_t *p,
                 uint64_t offset) {
  const struct dump_layout *l = &dump_layouts[id];
  d->used[id] = 1;
  if (d->format != EMIT_TEXT)
    emit_string(&d->e, "layout", l->name);
  uint32_t at = 0;
  for (uint32_t i = 0; i < l->count; i++) {
    const struct dump_field *f = &l->fields[i];
    uint64_t where = plus(offset, at);
    if (f->type == DUMP_U16)
      dump_u64(d, f->name, mip_get_le16(p + at), where);
    else if (f->type == DUMP_U32)
      dump_u64(d, f->name, mip_get_le32(p + at), where);
    else if (f->type == DUMP_U64)
      dump_u64(d, f->name, mip_get_le64(p + at), where);
    else
      dump_hex(d, f->name, p + at, f->size, where);
    at += f->size;
  }
}

void dump_record_begin(struct dump_out *d, const char *key,
                       enum dump_layout_id id, const uint8_t *p,
                       uint64_t offset) {
  if (d->format == EMIT_TEXT) {
    text_key(d, key, offset);
    fprintf(d->out, " %s\n", dump_layouts[id].name);
    d->depth++;
  } else {
    dump_object_begin(d, key, offset);
  }
  dump_record(d, id, p, offset);
}

static void emit_layout(struct dump_out *d, enum dump_layout_id id) {
  const struct dump_layout *l = &dump_layouts[id];
  emit_object_begin(&d->e, l->name);
  emit_u64(&d->e, "size", dump_layout_size(id));
  emit_array_begin(&d->e, "fields");
  uint32_t at = 0;
  for (uint32_t i = 0; i < l->count; i++) {
    emit_object_begin(&d->e, NULL);
    emit_string(&d->e, "name", l->fields[i].name);
    emit_string(&d->e, "type", type_name(&l->fields[i]));
    emit_u64(&d->e, "offset", at);
    emit_u64(&d->e, "size", l->fields[i].size);
    emit_object_end(&d->e);
    at += l->fields[i].size;
  }
  emit_array_end(&d->e);
  emit_object_end(&d->e);
}

void dump_end(struct dump_out *d) {
  if (d->format == EMIT_TEXT)
    return;
  emit_object_begin(&d->e, "layouts");
  for (int id = 0; id < DUMP_LAYOUT_COUNT; id++)
    if (d->used[id])
      emit_layout(d, (enum dump_layout_id)id);
  emit_object_end(&d->e);
  emit_end(&d->e);
}
