/* Builds map sections and raw profiles byte by byte, through the same
 * layout encoders the real writers use, so tests can craft any input. */
#ifndef TEST_BUILDER_H
#define TEST_BUILDER_H

#include "mipfmt.h"

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
