/*
 * MIP file formats: magics, versions and the numbers stored in files.
 * The field layouts themselves live in mip/layout/\*.inc (one definition
 * shared by every writer and reader); docs/formats.md describes them.
 */
#ifndef MIP_FORMAT_H
#define MIP_FORMAT_H

#include <stdint.h>

#define MIP_BUILD_ID_MAX 64

/* 8-byte magics, stored little-endian: the first byte on disk is 0x7f. */
#define MIP_MAGIC(a, b, c, d, e, f, g)                                         \
  (0x7fULL | (uint64_t)(a) << 8 | (uint64_t)(b) << 16 |                        \
   (uint64_t)(c) << 24 | (uint64_t)(d) << 32 | (uint64_t)(e) << 40 |           \
   (uint64_t)(f) << 48 | (uint64_t)(g) << 56)
#define MIP_RAW_MAGIC MIP_MAGIC('M', 'I', 'P', 'R', 'A', 'W', 0)
#define MIP_MAPFILE_MAGIC MIP_MAGIC('M', 'I', 'P', 'M', 'A', 'P', 0)
#define MIP_PROFILE_MAGIC MIP_MAGIC('M', 'I', 'P', 'P', 'R', 'O', 0)

/* Versions this build writes and the newest it reads. */
#define MIP_RAW_VERSION 1
#define MIP_MAPFILE_VERSION 1
#define MIP_PROFILE_VERSION 1
#define MIP_MAP_UNIT_VERSION 1
#define MIP_MAP_FUNCTION_VERSION 1

/* The map section's name in object files and linked images. A .debug_
 * name makes linkers keep it under --gc-sections without keeping what it
 * refers to, and makes strip and objcopy --only-keep-debug treat it like
 * the rest of the build-time data. */
#define MIP_MAP_SECTION ".debug_mip"

/* Counter kinds (mip/layout/raw_kinds.inc). */
enum mip_raw_kind {
#define MIP_RAW_KIND(id, NAME, section, elem_size) MIP_RAW_##NAME = id,
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
};
#define MIP_MODE_BIT(kind) (1ULL << (kind))

/* Map record kinds. */
enum mip_map_kind {
  MIP_MAP_UNIT = 1,
  MIP_MAP_FUNCTION = 2,
};

/* Function flags (map records and profile entries). */
enum mip_function_flags {
  MIP_FN_LOCAL = 1u << 0,  /* local linkage: key is "unit;name" */
  MIP_FN_COMDAT = 1u << 1, /* in a COMDAT group (inline, template) */
};

/* Indexed profile section kinds. A reader skips kinds it does not know. */
enum mip_profile_kind {
  MIP_PROF_STRINGS = 1,   /* NUL-terminated strings; offset 0 is "" */
  MIP_PROF_EXTENTS = 2,   /* raw_extent entries: the image's counters */
  MIP_PROF_FUNCTIONS = 3, /* profile_function entries */
};

#endif
