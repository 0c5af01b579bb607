/* The build-time map: its units, functions, slots, blocks and heap sites.
 * Part of libmipfmt's interface: include "mipfmt.h", which includes every
 * part in order. */
#ifndef MIPFMT_MAP_H
#define MIPFMT_MAP_H

/* ---- map ------------------------------------------------------------ */

/* A function's counters of one kind: count elements at addr. */
struct mip_map_slot {
  uint64_t addr; /* link-time */
  uint32_t count;
};

/* A basic block (mip/layout/map_block.inc); deps index the owner's deps
 * array, holding block numbers within the function. */
struct mip_block {
  uint32_t line;
  uint32_t probe; /* BLK index, MIP_PROBE_ENTRY or MIP_PROBE_NONE */
  uint32_t dep_first;
  uint32_t dep_count;
  uint64_t covered_runs; /* in profiles */
};

struct mip_map_function {
  const char *name; /* mangled */
  const char *unit; /* source of a local function, else "" */
  uint32_t flags;   /* MIP_FN_* */
  uint64_t cfg_hash;
  uint64_t entry;    /* link-time address */
  uint64_t cov_addr; /* link-time address of the coverage byte */
  uint64_t kinds;    /* MIP_MODE_BIT of each counter kind it has */
  struct mip_map_slot slots[MIP_MAX_EXTENTS]; /* indexed by kind */
  /* Its blocks: block_count from map->blocks[first_block]. */
  uint32_t first_block, block_count;
};

/* A function symbol of the image. */
struct mip_symbol {
  uint64_t addr;
  uint64_t size;
};

/* In symbols sorted by address: the last one at or below addr, or NULL. */
const struct mip_symbol *mip_symbol_at_or_below(const struct mip_symbol *symbols,
                                                size_t count, uint64_t addr);

/* A call of an allocation or deallocation function in instrumented code
 * (mip/layout/map_heap_site.inc). */
struct mip_map_heap_site {
  uint64_t site;     /* link-time address of its byte in __mip_site */
  uint64_t function; /* link-time address of its function's coverage byte */
  uint32_t line, column, allocator;
  const char *file; /* "" when unknown */
  const char *name; /* linkage name of the innermost (inlined) function */
};

/* A global variable instrumented code accesses (mip/layout/map_data.inc),
 * its records merged: one per counter. */
struct mip_map_data {
  uint64_t counter; /* link-time address of its counter in __mip_data */
  uint64_t object;  /* link-time address; 0 unless a record is DEFINED */
  uint64_t size;
  uint32_t flags; /* MIP_DATA_* */
  const char *name;
  const char *unit; /* of a local variable, else "" */
};

/* A function's edge counters (block-counts mode,
 * mip/layout/map_edge_counts.inc): count u64 counters from counters, on
 * the edges of its control-flow graph before inlining that a spanning
 * tree leaves out. */
struct mip_map_edge_counts {
  uint64_t cfg_hash; /* of the graph the counters saw */
  uint64_t counters; /* link-time address of the first, in __mip_bcnt */
  uint32_t count;
  uint32_t flags;   /* MIP_FN_LOCAL */
  const char *name; /* linkage name */
  const char *unit; /* of a local function, else "" */
};

/* The most edge counters (the BCNT section's u64 elements) a map may
 * have: a profile holds one total per counter, so a corrupt map that
 * claimed more would make every profile built from it that large. */
#define MIP_MAX_EDGE_COUNTERS (1u << 24)

struct mip_map {
  struct mip_build_id build_id;
  struct mip_extent extents[MIP_MAX_EXTENTS];
  size_t extent_count;
  struct mip_map_function *functions; /* sorted by cov_addr */
  size_t function_count;
  size_t discarded; /* records of functions the linker dropped */
  struct mip_block *blocks;
  size_t block_count;
  uint32_t *deps;
  size_t dep_count;
  struct mip_symbol *symbols; /* from the map file; sorted by addr */
  size_t symbol_count;
  struct mip_map_heap_site *heap_sites; /* sorted by site */
  size_t heap_site_count;
  size_t discarded_heap_sites; /* in functions the linker dropped */
  size_t heap_uncounted_units; /* MIP_MAP_UNIT_HEAP_UNCOUNTED units */
  struct mip_map_data *data; /* sorted by counter, one per counter */
  size_t data_count;
  /* Edge counters (block-counts mode), sorted by counters, one record
   * per function; discarded_edge_counts: records whose counters the
   * linker dropped. */
  struct mip_map_edge_counts *edge_counts;
  size_t edge_counts_count;
  size_t discarded_edge_counts;
  struct mip_file file; /* backing store of the strings */
};

/* One record of a map section: its header (mip/layout/map_record.inc)
 * and where its body lies. */
struct mip_map_record {
  struct {
    uint16_t kind, version;
    uint32_t size;
  } hdr;
  const uint8_t *body; /* after the record header */
  size_t body_size;
  size_t offset; /* of the record, in the section */
};

/* Steps to the record at *at in a map section, over linker padding.
 * Returns 1 and fills rec, 0 at the end, -1 on a malformed record. */
int mip_map_next_record(const uint8_t *data, size_t size, size_t *at,
                        struct mip_map_record *rec, const char *path,
                        struct mip_error *err);

/* Parses the bytes of a map section. The map keeps pointers into data,
 * which must outlive it. path is for messages. */
int mip_map_parse(const uint8_t *data, size_t size, const char *path,
                  struct mip_map *map, struct mip_error *err);

/* Reads a .mipmap file, or a map section dumped on its own (objcopy
 * --dump-section), which has no build-id and no symbols. */
int mip_mapfile_read(const char *path, struct mip_map *map,
                     struct mip_error *err);
int mip_mapfile_parse(struct mip_file *file, const char *path,
                      struct mip_map *map, struct mip_error *err);
int mip_mapfile_write(const char *path, const struct mip_build_id *id,
                      const uint8_t *section, size_t size,
                      const struct mip_symbol *symbols, size_t symbol_count,
                      struct mip_error *err);
/* The bytes mip_mapfile_write writes, into out (empty). */
void mip_mapfile_encode(const struct mip_build_id *id, const uint8_t *section,
                        size_t size, const struct mip_symbol *symbols,
                        size_t symbol_count, struct mip_buf *out);
void mip_map_free(struct mip_map *map);

#endif
