/*
 * What `mipdata dump` prints with, and the record layouts it prints: the
 * field lists of mip/layout/\*.inc, generated from the same X-macros the
 * readers and writers are made of, so a dump names every field as the
 * layout does and cannot drift from it.
 */
#ifndef MIPDATA_DUMP_OUT_H
#define MIPDATA_DUMP_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "emit.h"
#include "escape.h"

enum dump_type { DUMP_U16, DUMP_U32, DUMP_U64, DUMP_BYTES };

struct dump_field {
  const char *name;
  enum dump_type type;
  uint32_t size; /* bytes in files */
};

struct dump_layout {
  const char *name; /* the layout file's name, without .inc */
  const struct dump_field *fields;
  uint32_t count;
};

/* One constant per layout of mip/layout/\*.inc (mib.inc, raw_kinds.inc
 * are lists of another kind). */
#define DUMP_LAYOUTS(X)                                                        \
  X(raw_header)                                                                \
  X(raw_section)                                                               \
  X(raw_extent)                                                                \
  X(raw_edge)                                                                  \
  X(raw_stat)                                                                  \
  X(raw_heap_mibs)                                                             \
  X(raw_heap_context)                                                          \
  X(raw_heap_stack)                                                            \
  X(raw_heap_segment)                                                          \
  X(raw_heap_timeline)                                                         \
  X(heap_peak)                                                                 \
  X(heap_point)                                                                \
  X(raw_pool_blocks)                                                           \
  X(raw_pool_pattern)                                                          \
  X(raw_pool_rank)                                                             \
  X(mapfile_header)                                                            \
  X(symbol)                                                                    \
  X(map_record)                                                                \
  X(map_unit)                                                                  \
  X(map_unit_section)                                                          \
  X(map_function)                                                              \
  X(map_slot)                                                                  \
  X(map_blocks)                                                                \
  X(map_block)                                                                 \
  X(map_heap_site)                                                             \
  X(map_data)                                                                  \
  X(map_edge_counts)                                                           \
  X(profile_header)                                                            \
  X(profile_section)                                                           \
  X(profile_function)                                                          \
  X(profile_calls)                                                             \
  X(profile_order)                                                             \
  X(profile_blocks)                                                            \
  X(profile_block)                                                             \
  X(profile_edge)                                                              \
  X(profile_stat)                                                              \
  X(profile_heap_site)                                                         \
  X(profile_heap_frame)                                                        \
  X(profile_heap_context)                                                      \
  X(profile_data)                                                              \
  X(profile_edge_counts)

enum dump_layout_id {
#define DUMP_LAYOUT_ID(name) DUMP_##name,
  DUMP_LAYOUTS(DUMP_LAYOUT_ID)
#undef DUMP_LAYOUT_ID
      DUMP_LAYOUT_COUNT
};

extern const struct dump_layout dump_layouts[DUMP_LAYOUT_COUNT];

/* A layout's encoded size: the sum of its fields'. */
uint32_t dump_layout_size(enum dump_layout_id id);

/* ---- the writer ----------------------------------------------------------
 * JSON and YAML go through the emitter; text is the same tree, indented,
 * each value with the offset in the file where it is ("@OFFSET"). Keys
 * are NULL for members of arrays. */

#define DUMP_NO_OFFSET UINT64_MAX

struct dump_out {
  enum emit_format format;
  struct emitter e;
  FILE *out;
  int depth;                              /* text */
  unsigned char used[DUMP_LAYOUT_COUNT]; /* layouts printed */
};

/* dump_begin writes nothing: dump_start opens the document, once the file
 * has been checked, so that a bad one prints nothing. */
void dump_begin(struct dump_out *d, FILE *out, enum emit_format format);
void dump_start(struct dump_out *d);
/* JSON and YAML: ends with "layouts", each layout printed with its fields
 * (name, type, offset, size), so a field's place in the file is the
 * record's ("at") plus the field's offset. */
void dump_end(struct dump_out *d);

void dump_object_begin(struct dump_out *d, const char *key, uint64_t offset);
void dump_object_end(struct dump_out *d);
void dump_array_begin(struct dump_out *d, const char *key);
void dump_array_end(struct dump_out *d);
void dump_u64(struct dump_out *d, const char *key, uint64_t value,
              uint64_t offset);
void dump_string(struct dump_out *d, const char *key, const char *value,
                 uint64_t offset);
void dump_hex(struct dump_out *d, const char *key, const uint8_t *bytes,
              size_t n, uint64_t offset);

/* Inside an object begun for it (whose "at" is where the record lies in
 * the file): "layout" and every field of the layout, decoded from the
 * bytes at p. */
void dump_record(struct dump_out *d, enum dump_layout_id id, const uint8_t *p,
                 uint64_t offset);
/* dump_object_begin, then dump_record. */
void dump_record_begin(struct dump_out *d, const char *key,
                       enum dump_layout_id id, const uint8_t *p,
                       uint64_t offset);

#endif
