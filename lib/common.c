#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mip/layouts.h"
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

uint32_t mip_raw_kind_elem_size(uint32_t kind) {
  return mip_raw_counter_size(kind);
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

static const char *what_it_is(uint64_t magic) {
  switch (magic) {
  case MIP_RAW_MAGIC:
    return "this is a raw profile";
  case MIP_MAPFILE_MAGIC:
    return "this is a map file";
  case MIP_PROFILE_MAGIC:
    return "this is an indexed profile";
  default:
    return "bad magic";
  }
}

int mip_check_start(const struct mip_file *file, const char *path,
                    uint64_t magic, const char *what, size_t header_size,
                    struct mip_error *err) {
  if (file->size == 0)
    return mip_fail(err, path, "empty file");
  uint64_t found = mip_file_magic(file);
  if (found != magic)
    return mip_fail(err, path, "not a MIP %s (%s)", what, what_it_is(found));
  if (file->size < header_size)
    return mip_fail(err, path,
                    "truncated %s (header needs %zu bytes, file has %zu)", what,
                    header_size, file->size);
  return 0;
}

int mip_check_header(const struct mip_file *file, const char *path,
                     const char *what, uint32_t version, uint32_t newest,
                     uint32_t header_size, size_t min_header_size,
                     uint32_t build_id_size, struct mip_error *err) {
  if (version == 0 || version > newest)
    return mip_fail(err, path,
                    "%s version %" PRIu32
                    " is newer than this MIP reads (%" PRIu32
                    "); update MIP",
                    what, version, newest);
  if (header_size < min_header_size || header_size > file->size ||
      build_id_size > MIP_BUILD_ID_MAX)
    return mip_fail(err, path, "corrupt %s header", what);
  return 0;
}

int mip_check_section(size_t file_size, const char *path, const char *what,
                      uint32_t index, uint64_t offset, uint64_t size,
                      struct mip_error *err) {
  if (offset <= file_size && size <= file_size - offset)
    return 0;
  /* offset + size may not even fit in 64 bits: say what the file says */
  if (offset > file_size || size > UINT64_MAX - offset)
    return mip_fail(err, path,
                    "corrupt %s: section %" PRIu32 " lies outside the file "
                    "(offset %" PRIu64 ", size %" PRIu64 "; file has %zu "
                    "bytes)",
                    what, index, offset, size, file_size);
  return mip_fail(err, path,
                  "truncated %s (section %" PRIu32 " needs bytes up to "
                  "%" PRIu64 ", file has %zu)",
                  what, index, offset + size, file_size);
}

const struct mip_symbol *mip_symbol_at_or_below(const struct mip_symbol *symbols,
                                                size_t count, uint64_t addr) {
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (symbols[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? &symbols[lo - 1] : NULL;
}
