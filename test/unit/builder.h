/* Builds map sections and raw profiles byte by byte, through the same
 * layout encoders the real writers use, so tests can craft any input. */
#ifndef TEST_BUILDER_H
#define TEST_BUILDER_H

#include "mipfmt.h"

/* A counter slot of a function record, or a counter section of a unit. */
struct slot_spec {
  uint32_t kind;
  uint32_t count; /* elements */
  uint64_t addr;  /* a unit's section: its start */
  uint64_t stop;  /* a unit's section: its end */
};

/* A payload of a raw profile. */
struct payload_spec {
  uint32_t kind;
  uint32_t elem_size;
  uint64_t link_addr;
  const void *data;
  uint64_t size;
};

void build_unit_sections(struct mip_buf *map, const char *name,
                         const struct slot_spec *sections, size_t count);
void build_function_slots(struct mip_buf *map, const char *name,
                          const char *unit, uint32_t flags, uint64_t cfg_hash,
                          uint64_t entry, const struct slot_spec *slots,
                          size_t count);
void build_blocks(struct mip_buf *map, uint64_t cov_addr,
                  const struct mip_block *blocks, uint32_t block_count,
                  const uint32_t *deps, uint32_t dep_count);
/* An edge-counts record (map_edge_counts.inc): count counters of a
 * function from counters, in __mip_bcnt; and one of another version. */
void build_edge_counts(struct mip_buf *map, const char *name,
                       const char *unit, uint32_t flags, uint64_t cfg_hash,
                       uint64_t counters, uint32_t count);
void build_edge_counts_version(struct mip_buf *map, uint16_t version,
                               const char *name, const char *unit,
                               uint32_t flags, uint64_t cfg_hash,
                               uint64_t counters, uint32_t count);
void build_raw_payloads(struct mip_buf *raw, const struct mip_build_id *id,
                        const struct payload_spec *payloads, size_t count);

/* Coverage only: one unit, a function with its byte, a raw file. */
void build_unit(struct mip_buf *map, const char *name, uint64_t cov_start,
                uint64_t cov_stop);
void build_function(struct mip_buf *map, const char *name, const char *unit,
                    uint32_t flags, uint64_t cfg_hash, uint64_t entry,
                    uint64_t cov_addr);
void build_raw(struct mip_buf *raw, const struct mip_build_id *id,
               uint64_t cov_link_addr, const uint8_t *cov, size_t count);

/* A heap site record of a map (map_heap_site.inc). */
void build_heap_site(struct mip_buf *map, uint64_t site, uint64_t function,
                     uint32_t line, uint32_t column, uint32_t allocator,
                     const char *file, const char *name);

/* Heap payloads of a raw profile, to pass as payload_spec data (element
 * size 1). */
struct heap_context_spec {
  uint64_t stack, site;
  struct mip_mib mib; /* fields the schema names; unknown ones get 0xab.. */
};
void build_heap_mibs(struct mip_buf *out, const uint32_t *schema,
                     uint32_t field_count,
                     const struct heap_context_spec *contexts, size_t count);
/* The schema of every field this build knows, in mib.inc order. */
uint32_t full_schema(uint32_t *schema);

struct heap_stack_spec {
  uint64_t id;
  uint32_t flags;
  uint32_t depth;
  const uint64_t *frames;
};
void build_heap_stacks(struct mip_buf *out, const struct heap_stack_spec *s,
                       size_t count);

struct heap_segment_spec {
  uint64_t start, end, load_bias;
  const struct mip_build_id *id;
  const char *path;
};
void build_heap_segments(struct mip_buf *out,
                         const struct heap_segment_spec *s, size_t count);

/* A fresh directory for one test's files, and a path inside it. */
const char *test_dir(void);
const char *test_path(const char *name);
void write_file(const char *path, const void *data, size_t size);

/* A map of two functions in a.c: main (entry 0x1000; COV, CNT and ORD
 * slots and four blocks: the entry, two probed arms and a join inferred
 * from them) and leaf (0x1100; COV, CNT and ORD slots). */
void build_two_function_map(struct mip_buf *m);

#endif
