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

/* A fresh directory for one test's files, and a path inside it. */
const char *test_dir(void);
const char *test_path(const char *name);
void write_file(const char *path, const void *data, size_t size);

#endif
