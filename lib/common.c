#include <stdio.h>
#include <string.h>

#include "mipfmt.h"

const char *mip_build_id_hex(const struct mip_build_id *id, char *out,
                             size_t size) {
  if (!id->size) {
    snprintf(out, size, "(none)");
    return out;
  }
  size_t at = 0;
  for (uint32_t i = 0; i < id->size && at + 3 <= size; i++, at += 2)
    snprintf(out + at, size - at, "%02x", id->bytes[i]);
  return out;
}

int mip_build_id_equal(const struct mip_build_id *a,
                       const struct mip_build_id *b) {
  return a->size == b->size && memcmp(a->bytes, b->bytes, a->size) == 0;
}

const struct mip_extent *mip_extent_find(const struct mip_extent *extents,
                                         size_t count, uint32_t kind) {
  for (size_t i = 0; i < count; i++)
    if (extents[i].kind == kind)
      return &extents[i];
  return NULL;
}

const char *mip_raw_kind_section(uint32_t kind) {
  switch (kind) {
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  case id:                                                                     \
    return #section;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  }
  return NULL;
}

const char *mip_raw_kind_name(uint32_t kind) {
  switch (kind) {
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  case id:                                                                     \
    return #NAME;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  }
  return NULL;
}
