/*
 * The map: what the plugin wrote into the .debug_mip section of every
 * object file (mip/layout/map_*.inc), concatenated and relocated by the
 * linker. Records come in any order and may be separated by zero padding;
 * they are read in passes: units (where the counters are), then
 * functions, then the blocks of each function, the heap sites, the
 * global variables and the edge counters.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "mipfmt.h"

int mip_map_next_record(const uint8_t *data, size_t size, size_t *at,
                        struct mip_map_record *rec, const char *path,
                        struct mip_error *err) {
  while (*at + mip_rec_map_record_size <= size) {
    struct mip_rec_map_record hdr;
    mip_rec_map_record_decode(&hdr, data + *at);
    if (hdr.kind == 0 && hdr.size == 0) { /* linker padding */
      *at += 8;
      continue;
    }
    if (hdr.size < mip_rec_map_record_size || hdr.size % 8 ||
        hdr.size > size - *at)
      return mip_fail(err, path,
                      "corrupt map: record at offset %zu has size %" PRIu32,
                      *at, hdr.size);
    rec->hdr.kind = hdr.kind;
    rec->hdr.version = hdr.version;
    rec->hdr.size = hdr.size;
    rec->body = data + *at + mip_rec_map_record_size;
    rec->body_size = hdr.size - mip_rec_map_record_size;
    rec->offset = *at;
    *at += rec->hdr.size;
    return 1;
  }
  if (*at < size)
    return mip_fail(err, path, "corrupt map: %zu stray bytes at offset %zu",
                    size - *at, *at);
  return 0;
}

static int check_version(const struct mip_map_record *rec, unsigned newest,
                         const char *path, struct mip_error *err) {
  if (rec->hdr.version == 0 || rec->hdr.version > newest)
    return mip_fail(err, path,
                    "map record version %u is newer than this MIP reads "
                    "(%u); update MIP",
                    rec->hdr.version, newest);
  return 0;
}

/* A string of n bytes at p followed by a NUL, inside [p, end). */
static const char *string_at(const uint8_t *p, const uint8_t *end,
                             uint32_t n) {
  if ((size_t)(end - p) <= n || p[n] != '\0' || memchr(p, '\0', n))
    return NULL;
  return (const char *)p;
}

/* ---- units ---------------------------------------------------------- */

static int add_extent(struct mip_map *map, const struct mip_extent *e,
                      const char *path, struct mip_error *err) {
  for (size_t i = 0; i < map->extent_count; i++) {
    const struct mip_extent *have = &map->extents[i];
    if (have->kind != e->kind)
      continue;
    if (have->link_addr != e->link_addr || have->size != e->size ||
        have->elem_size != e->elem_size)
      return mip_fail(err, path,
                      "corrupt map: units disagree on where counter kind "
                      "%" PRIu32 " lives",
                      e->kind);
    return 0;
  }
  if (map->extent_count == MIP_MAX_EXTENTS || e->kind >= MIP_MAX_EXTENTS)
    return mip_fail(err, path, "corrupt map: counter kind %" PRIu32,
                    e->kind);
  map->extents[map->extent_count++] = *e;
  return 0;
}

static int parse_unit(struct mip_map *map, const struct mip_map_record *rec,
                      const char *path, struct mip_error *err) {
  if (check_version(rec, MIP_MAP_UNIT_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_unit_size)
    return mip_fail(err, path, "corrupt map: short unit record at %zu",
                    rec->offset);
  struct mip_rec_map_unit unit;
  mip_rec_map_unit_decode(&unit, rec->body);
  if (unit.flags & MIP_MAP_UNIT_HEAP_UNCOUNTED)
    map->heap_uncounted_units++;
  const uint8_t *p = rec->body + mip_rec_map_unit_size;
  const uint8_t *end = rec->body + rec->body_size;
  if (unit.section_count > (size_t)(end - p) / mip_rec_map_unit_section_size)
    return mip_fail(err, path, "corrupt map: unit record at %zu overflows",
                    rec->offset);
  for (uint32_t i = 0; i < unit.section_count; i++) {
    struct mip_rec_map_unit_section s;
    mip_rec_map_unit_section_decode(&s, p);
    p += mip_rec_map_unit_section_size;
    if (s.stop < s.start || s.elem_size == 0)
      return mip_fail(err, path,
                      "corrupt map: bad counter bounds in unit record at %zu",
                      rec->offset);
    uint32_t known = mip_raw_kind_elem_size(s.kind);
    if (known && s.elem_size != known)
      return mip_fail(err, path,
                      "corrupt map: counters of kind %" PRIu32 " of %" PRIu32
                      " bytes, not %" PRIu32,
                      s.kind, s.elem_size, known);
    struct mip_extent e = {s.kind, s.elem_size, s.start, s.stop - s.start};
    if (add_extent(map, &e, path, err))
      return -1;
  }
  if (!string_at(p, end, unit.name_size))
    return mip_fail(err, path, "corrupt map: bad unit name at %zu",
                    rec->offset);
  return 0;
}

/* ---- functions ------------------------------------------------------ */

/* Whether count elements at addr lie inside the extent. */
static int inside(const struct mip_extent *e, uint64_t addr, uint32_t count) {
  uint64_t bytes = (uint64_t)count * e->elem_size;
  return addr >= e->link_addr && addr - e->link_addr <= e->size &&
         bytes <= e->size - (addr - e->link_addr);
}

/* Records the slots of a function. Returns 1 when the function is in the
 * image, 0 when the linker discarded its code, -1 on error. */
static int read_slots(const struct mip_map *map, struct mip_map_function *fn,
                      const uint8_t *p, uint32_t count, const char *path,
                      size_t offset, struct mip_error *err) {
  for (uint32_t i = 0; i < count; i++, p += mip_rec_map_slot_size) {
    struct mip_rec_map_slot slot;
    mip_rec_map_slot_decode(&slot, p);
    if (slot.kind >= MIP_MAX_EXTENTS)
      continue; /* a kind from the future */
    fn->kinds |= MIP_MODE_BIT(slot.kind);
    fn->slots[slot.kind] = (struct mip_map_slot){slot.addr, slot.count};
  }
  const struct mip_extent *cov =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_COV);
  if (!(fn->kinds & MIP_MODE_BIT(MIP_RAW_COV)) || !cov)
    return mip_fail(err, path,
                    "corrupt map: function record at %zu has no coverage "
                    "counter",
                    offset);
  fn->cov_addr = fn->slots[MIP_RAW_COV].addr;
  /* A function the linker dropped (--gc-sections) keeps its record, but
   * the references to its counters resolve outside their sections. */
  if (!inside(cov, fn->cov_addr, 1))
    return 0;
  for (uint32_t kind = 0; kind < MIP_MAX_EXTENTS; kind++) {
    if (!(fn->kinds & MIP_MODE_BIT(kind)))
      continue;
    const struct mip_extent *e =
        mip_extent_find(map->extents, map->extent_count, kind);
    if (!e || !inside(e, fn->slots[kind].addr, fn->slots[kind].count))
      return mip_fail(err, path,
                      "corrupt map: function %s has counters of kind %" PRIu32
                      " outside their section",
                      fn->name, kind);
    /* Its one coverage byte, call count or rank, which a profile reads
     * (profile_check.c refuses a function without it). */
    int one = kind == MIP_RAW_COV || kind == MIP_RAW_CNT || kind == MIP_RAW_ORD;
    if (one && fn->slots[kind].count == 0)
      return mip_fail(err, path,
                      "corrupt map: function %s has an empty slot of "
                      "counter kind %" PRIu32,
                      fn->name, kind);
  }
  return 1;
}

/* Fills fn from a function record; returns as read_slots. */
static int parse_function(const struct mip_map *map, const struct mip_map_record *rec,
                          struct mip_map_function *fn, const char *path,
                          struct mip_error *err) {
  if (check_version(rec, MIP_MAP_FUNCTION_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_function_size)
    return mip_fail(err, path, "corrupt map: short function record at %zu",
                    rec->offset);
  struct mip_rec_map_function r;
  mip_rec_map_function_decode(&r, rec->body);
  const uint8_t *slots = rec->body + mip_rec_map_function_size;
  const uint8_t *end = rec->body + rec->body_size;
  if (r.slot_count > (size_t)(end - slots) / mip_rec_map_slot_size)
    return mip_fail(err, path, "corrupt map: function record at %zu overflows",
                    rec->offset);
  const uint8_t *p = slots + (size_t)r.slot_count * mip_rec_map_slot_size;
  memset(fn, 0, sizeof *fn);
  fn->name = string_at(p, end, r.name_size);
  if (!fn->name)
    return mip_fail(err, path, "corrupt map: bad function name at %zu",
                    rec->offset);
  p += r.name_size + 1;
  fn->unit = r.unit_size ? string_at(p, end, r.unit_size) : "";
  if (!fn->unit)
    return mip_fail(err, path, "corrupt map: bad unit name at %zu",
                    rec->offset);
  fn->flags = r.flags & ~(uint32_t)MIP_FN_THUMB_BIT;
  fn->cfg_hash = r.cfg_hash;
  fn->entry = r.flags & MIP_FN_THUMB_BIT ? r.entry & ~(uint64_t)1 : r.entry;
  return read_slots(map, fn, slots, r.slot_count, path, rec->offset, err);
}

static int by_cov_addr(const void *a, const void *b) {
  const struct mip_map_function *x = a, *y = b;
  return (x->cov_addr > y->cov_addr) - (x->cov_addr < y->cov_addr);
}

static struct mip_map_function *find_function(const struct mip_map *map,
                                              uint64_t cov_addr) {
  struct mip_map_function key = {.cov_addr = cov_addr};
  return map->function_count
             ? bsearch(&key, map->functions, map->function_count,
                       sizeof key, by_cov_addr)
             : NULL;
}

static int check_unique_counters(const struct mip_map *map, const char *path,
                                 struct mip_error *err) {
  for (size_t i = 1; i < map->function_count; i++)
    if (map->functions[i].cov_addr == map->functions[i - 1].cov_addr)
      return mip_fail(err, path,
                      "corrupt map: functions %s and %s share a counter",
                      map->functions[i - 1].name, map->functions[i].name);
  return 0;
}

/* ---- blocks --------------------------------------------------------- */

static int bad_blocks(const char *path, const struct mip_map_record *rec,
                      const char *why, struct mip_error *err) {
  return mip_fail(err, path, "corrupt map: blocks record at %zu: %s",
                  rec->offset, why);
}

/* Checks one block against its function: a probe it has, deps inside the
 * record and naming blocks of the same function. */
static int check_block(const struct mip_block *b, const uint32_t *deps,
                       uint32_t block_count, uint32_t dep_count,
                       uint32_t probe_count) {
  if (b->probe != MIP_PROBE_ENTRY && b->probe != MIP_PROBE_NONE &&
      b->probe >= probe_count)
    return -1;
  if (b->dep_first > dep_count || b->dep_count > dep_count - b->dep_first)
    return -1;
  for (uint32_t i = 0; i < b->dep_count; i++)
    if (deps[b->dep_first + i] >= block_count)
      return -1;
  return 0;
}

static void grow_blocks(struct mip_map *map, uint32_t blocks, uint32_t deps) {
  map->blocks = mip_xrealloc(map->blocks, map->block_count + blocks,
                             sizeof *map->blocks);
  map->deps =
      mip_xrealloc(map->deps, map->dep_count + deps, sizeof *map->deps);
}

static int parse_blocks(struct mip_map *map, const struct mip_map_record *rec,
                        const char *path, struct mip_error *err) {
  if (check_version(rec, MIP_MAP_BLOCKS_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_blocks_size)
    return bad_blocks(path, rec, "too short", err);
  struct mip_rec_map_blocks h;
  mip_rec_map_blocks_decode(&h, rec->body);
  uint64_t need = mip_rec_map_blocks_size +
                  (uint64_t)h.block_count * mip_rec_map_block_size +
                  (uint64_t)h.dep_count * 4;
  if (need > rec->body_size)
    return bad_blocks(path, rec, "overflows", err);
  struct mip_map_function *fn = find_function(map, h.cov_addr);
  if (!fn)
    return 0; /* its function was discarded */
  if (fn->block_count)
    return bad_blocks(path, rec, "a function's blocks twice", err);
  grow_blocks(map, h.block_count, h.dep_count);
  uint32_t *deps = map->deps + map->dep_count;
  const uint8_t *p = rec->body + mip_rec_map_blocks_size +
                     (size_t)h.block_count * mip_rec_map_block_size;
  for (uint32_t i = 0; i < h.dep_count; i++)
    deps[i] = mip_get_le32(p + 4 * i);
  uint32_t probes = (fn->kinds & MIP_MODE_BIT(MIP_RAW_BLK))
                        ? fn->slots[MIP_RAW_BLK].count
                        : 0;
  for (uint32_t i = 0; i < h.block_count; i++) {
    struct mip_rec_map_block r;
    mip_rec_map_block_decode(&r, rec->body + mip_rec_map_blocks_size +
                                     (size_t)i * mip_rec_map_block_size);
    struct mip_block b = {r.line, r.probe, r.dep_first, r.dep_count, 0};
    if (check_block(&b, deps, h.block_count, h.dep_count, probes))
      return bad_blocks(path, rec, "a block names what is not there", err);
    b.dep_first += (uint32_t)map->dep_count; /* into map->deps */
    map->blocks[map->block_count + i] = b;
  }
  fn->first_block = (uint32_t)map->block_count;
  fn->block_count = h.block_count;
  map->block_count += h.block_count;
  map->dep_count += h.dep_count;
  return 0;
}

/* ---- heap sites ----------------------------------------------------- */

static int bad_site(const char *path, const struct mip_map_record *rec,
                    const char *why, struct mip_error *err) {
  return mip_fail(err, path, "corrupt map: heap site record at %zu: %s",
                  rec->offset, why);
}

static int parse_heap_site(struct mip_map *map, const struct mip_map_record *rec,
                           const char *path, struct mip_error *err) {
  if (check_version(rec, MIP_MAP_HEAP_SITE_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_heap_site_size)
    return bad_site(path, rec, "too short", err);
  struct mip_rec_map_heap_site r;
  mip_rec_map_heap_site_decode(&r, rec->body);
  const uint8_t *p = rec->body + mip_rec_map_heap_site_size;
  const uint8_t *end = rec->body + rec->body_size;
  struct mip_map_heap_site site = {r.site,   r.function, r.line, r.column,
                                   r.allocator, NULL,     NULL};
  site.file = string_at(p, end, r.file_size);
  if (site.file)
    site.name = string_at(p + r.file_size + 1, end, r.name_size);
  if (!site.file || !site.name)
    return bad_site(path, rec, "bad file or function name", err);
  /* The site's byte went with its function's code: a function the linker
   * dropped leaves a record whose site resolves outside the section. */
  const struct mip_extent *sites =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_SITE);
  if (!sites)
    return bad_site(path, rec, "no unit has a site section", err);
  if (!inside(sites, site.site, 1)) {
    map->discarded_heap_sites++;
    return 0;
  }
  if (!find_function(map, site.function))
    return bad_site(path, rec, "its function is not in the map", err);
  map->heap_sites = mip_xrealloc(map->heap_sites, map->heap_site_count + 1,
                                 sizeof *map->heap_sites);
  map->heap_sites[map->heap_site_count++] = site;
  return 0;
}

static int by_site(const void *a, const void *b) {
  const struct mip_map_heap_site *x = a, *y = b;
  return (x->site > y->site) - (x->site < y->site);
}

static int sort_heap_sites(struct mip_map *map, const char *path,
                           struct mip_error *err) {
  if (map->heap_site_count)
    qsort(map->heap_sites, map->heap_site_count, sizeof *map->heap_sites,
          by_site);
  for (size_t i = 1; i < map->heap_site_count; i++)
    if (map->heap_sites[i].site == map->heap_sites[i - 1].site)
      return mip_fail(err, path,
                      "corrupt map: two heap sites share the byte at 0x%" PRIx64,
                      map->heap_sites[i].site);
  return 0;
}

/* ---- global variables (data mode) ------------------------------------ */

/* Every unit that counts accesses to a variable writes a record for it:
 * the unit that defines it (MIP_DATA_DEFINED) with its address and size,
 * the others with neither. They share the variable's one counter, so the
 * records of one counter describe one variable: the defining one gives
 * the address, size and kind, and any of them that saw the address escape
 * marks it MIP_DATA_ESCAPES. */

static int bad_data(const char *path, const struct mip_map_record *rec,
                    const char *why, struct mip_error *err) {
  return mip_fail(err, path, "corrupt map: data record at %zu: %s",
                  rec->offset, why);
}

static int parse_data(struct mip_map *map, const struct mip_map_record *rec,
                       const char *path, struct mip_error *err) {
  if (check_version(rec, MIP_MAP_DATA_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_data_size)
    return bad_data(path, rec, "too short", err);
  struct mip_rec_map_data r;
  mip_rec_map_data_decode(&r, rec->body);
  const uint8_t *p = rec->body + mip_rec_map_data_size;
  const uint8_t *end = rec->body + rec->body_size;
  struct mip_map_data d = {r.counter, r.object, r.size, r.flags, NULL, ""};
  d.name = string_at(p, end, r.name_size);
  if (d.name && r.unit_size)
    d.unit = string_at(p + r.name_size + 1, end, r.unit_size);
  if (!d.name || !d.unit || !d.name[0])
    return bad_data(path, rec, "bad variable or unit name", err);
  const struct mip_extent *counters =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_DATA);
  if (!counters)
    return bad_data(path, rec, "no unit has a data counter section", err);
  /* A counter the linker dropped with all the code that used it resolves
   * outside the section: nothing in the image accesses the variable. */
  if (d.counter < counters->link_addr ||
      d.counter - counters->link_addr >= counters->size ||
      (d.counter - counters->link_addr) % 8)
    return 0;
  map->data = mip_xrealloc(map->data, map->data_count + 1, sizeof *map->data);
  map->data[map->data_count++] = d;
  return 0;
}

static int by_counter(const void *a, const void *b) {
  const struct mip_map_data *x = a, *y = b;
  if (x->counter != y->counter)
    return x->counter < y->counter ? -1 : 1;
  /* The defining record first: it is the one kept. */
  int dx = (x->flags & MIP_DATA_DEFINED) != 0;
  int dy = (y->flags & MIP_DATA_DEFINED) != 0;
  return dy - dx;
}

static int merge_data(struct mip_map *map, const char *path,
                       struct mip_error *err) {
  if (!map->data_count)
    return 0;
  qsort(map->data, map->data_count, sizeof *map->data, by_counter);
  size_t out = 0;
  for (size_t i = 0; i < map->data_count; i++) {
    struct mip_map_data *d = &map->data[i];
    struct mip_map_data *kept = out ? &map->data[out - 1] : NULL;
    if (!kept || kept->counter != d->counter) {
      map->data[out++] = *d;
      continue;
    }
    if (strcmp(kept->name, d->name) || strcmp(kept->unit, d->unit))
      return mip_fail(err, path,
                      "corrupt map: variables %s and %s share a counter",
                      kept->name, d->name);
    kept->flags |= d->flags & MIP_DATA_ESCAPES;
  }
  map->data_count = out;
  return 0;
}

/* ---- edge counters (block-counts mode) -------------------------------- */

/* One record per function whose edges the plugin counted, in the same
 * section or group as its counters, so the linker keeps the record of the
 * counters it keeps; a record whose counters it dropped resolves outside
 * __mip_bcnt. Records of the same counters (a unit's own section naming a
 * COMDAT function's kept counters) must describe the same function. */

static int bad_edge_counts(const char *path, const struct mip_map_record *rec,
                           const char *why, struct mip_error *err) {
  return mip_fail(err, path, "corrupt map: edge-counts record at %zu: %s",
                  rec->offset, why);
}

/* A profile holds a total per edge counter, whether a record names it or
 * not (docs/formats.md): a map whose BCNT section is larger than any
 * build's would make every profile built from it that large. */
static int check_edge_counter_section(const struct mip_map *map,
                                      const char *path,
                                      struct mip_error *err) {
  const struct mip_extent *e =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_BCNT);
  if (e && e->size / 8 > MIP_MAX_EDGE_COUNTERS)
    return mip_fail(err, path,
                    "corrupt map: %" PRIu64 " edge counters, more than MIP "
                    "reads (%u)",
                    e->size / 8, MIP_MAX_EDGE_COUNTERS);
  return 0;
}

static int parse_edge_counts(struct mip_map *map,
                             const struct mip_map_record *rec,
                             const char *path, struct mip_error *err) {
  if (check_version(rec, MIP_MAP_EDGE_COUNTS_VERSION, path, err))
    return -1;
  if (rec->body_size < mip_rec_map_edge_counts_size)
    return bad_edge_counts(path, rec, "too short", err);
  struct mip_rec_map_edge_counts r;
  mip_rec_map_edge_counts_decode(&r, rec->body);
  const uint8_t *p = rec->body + mip_rec_map_edge_counts_size;
  const uint8_t *end = rec->body + rec->body_size;
  struct mip_map_edge_counts e = {r.cfg_hash, r.counters, r.count,
                                  r.flags,    NULL,       ""};
  e.name = string_at(p, end, r.name_size);
  if (e.name && r.unit_size)
    e.unit = string_at(p + r.name_size + 1, end, r.unit_size);
  if (!e.name || !e.unit || !e.name[0])
    return bad_edge_counts(path, rec, "bad function or unit name", err);
  if (r.count == 0)
    return bad_edge_counts(path, rec, "no counters", err);
  const struct mip_extent *section =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_BCNT);
  if (!section)
    return bad_edge_counts(path, rec, "no unit has an edge counter section",
                           err);
  /* Counters the linker dropped with their function resolve outside the
   * section (to 0): the function is not in the image. */
  if (e.counters < section->link_addr ||
      e.counters - section->link_addr >= section->size) {
    map->discarded_edge_counts++;
    return 0;
  }
  if ((e.counters - section->link_addr) % 8 || !inside(section, e.counters,
                                                       e.count))
    return bad_edge_counts(path, rec, "counters outside their section", err);
  map->edge_counts = mip_xrealloc(map->edge_counts, map->edge_counts_count + 1,
                                  sizeof *map->edge_counts);
  map->edge_counts[map->edge_counts_count++] = e;
  return 0;
}

static int by_edge_counters(const void *a, const void *b) {
  const struct mip_map_edge_counts *x = a, *y = b;
  return (x->counters > y->counters) - (x->counters < y->counters);
}

static int same_edge_counts(const struct mip_map_edge_counts *a,
                            const struct mip_map_edge_counts *b) {
  return a->cfg_hash == b->cfg_hash && a->count == b->count &&
         a->flags == b->flags && !strcmp(a->name, b->name) &&
         !strcmp(a->unit, b->unit);
}

/* Sorts the records by their counters, keeps one of several records of
 * the same counters and refuses counters two functions share. */
static int merge_edge_counts(struct mip_map *map, const char *path,
                             struct mip_error *err) {
  if (!map->edge_counts_count)
    return 0;
  qsort(map->edge_counts, map->edge_counts_count, sizeof *map->edge_counts,
        by_edge_counters);
  size_t out = 0;
  for (size_t i = 0; i < map->edge_counts_count; i++) {
    const struct mip_map_edge_counts *e = &map->edge_counts[i];
    const struct mip_map_edge_counts *kept =
        out ? &map->edge_counts[out - 1] : NULL;
    if (kept && kept->counters == e->counters && same_edge_counts(kept, e))
      continue;
    if (kept && kept->counters == e->counters && !strcmp(kept->name, e->name))
      return mip_fail(err, path,
                      "corrupt map: two records of %s's edge counters "
                      "disagree",
                      e->name);
    if (kept && (e->counters - kept->counters) / 8 < kept->count)
      return mip_fail(err, path,
                      "corrupt map: functions %s and %s share edge counters",
                      kept->name, e->name);
    map->edge_counts[out++] = *e;
  }
  map->edge_counts_count = out;
  return 0;
}

/* ---- passes --------------------------------------------------------- */

typedef int (*record_fn)(struct mip_map *map, const struct mip_map_record *rec,
                         const char *path, struct mip_error *err);

/* Calls fn on every record of kind. */
static int each_record(const uint8_t *data, size_t size, uint16_t kind,
                       record_fn fn, struct mip_map *map, const char *path,
                       struct mip_error *err) {
  struct mip_map_record rec;
  size_t at = 0;
  int more;
  while ((more = mip_map_next_record(data, size, &at, &rec, path, err)) > 0)
    if (rec.hdr.kind == kind && fn(map, &rec, path, err))
      return -1;
  return more;
}

static int add_function(struct mip_map *map, const struct mip_map_record *rec,
                        const char *path, struct mip_error *err) {
  struct mip_map_function fn;
  int in_image = parse_function(map, rec, &fn, path, err);
  if (in_image <= 0) {
    map->discarded += in_image == 0;
    return in_image;
  }
  map->functions = mip_xrealloc(map->functions, map->function_count + 1,
                                sizeof *map->functions);
  map->functions[map->function_count++] = fn;
  return 0;
}

int mip_map_parse(const uint8_t *data, size_t size, const char *path,
                  struct mip_map *map, struct mip_error *err) {
  memset(map, 0, sizeof *map);
  if (size == 0)
    return mip_fail(err, path, "empty map");
  if (each_record(data, size, MIP_MAP_UNIT, parse_unit, map, path, err) ||
      each_record(data, size, MIP_MAP_FUNCTION, add_function, map, path,
                  err))
    return -1;
  if (map->extent_count == 0)
    return mip_fail(err, path, "corrupt map: no unit record");
  if (map->function_count)
    qsort(map->functions, map->function_count, sizeof *map->functions,
          by_cov_addr);
  if (check_unique_counters(map, path, err) ||
      check_edge_counter_section(map, path, err) ||
      each_record(data, size, MIP_MAP_BLOCKS, parse_blocks, map, path, err) ||
      each_record(data, size, MIP_MAP_HEAP_SITE, parse_heap_site, map, path,
                  err) ||
      each_record(data, size, MIP_MAP_DATA, parse_data, map, path, err) ||
      merge_data(map, path, err) ||
      each_record(data, size, MIP_MAP_EDGE_COUNTS, parse_edge_counts, map,
                  path, err) ||
      merge_edge_counts(map, path, err))
    return -1;
  return sort_heap_sites(map, path, err);
}

void mip_map_free(struct mip_map *map) {
  free(map->functions);
  free(map->blocks);
  free(map->deps);
  free(map->symbols);
  free(map->heap_sites);
  free(map->data);
  free(map->edge_counts);
  map->edge_counts = NULL;
  map->edge_counts_count = 0;
  map->data = NULL;
  map->data_count = 0;
  map->heap_sites = NULL;
  map->heap_site_count = 0;
  map->functions = NULL;
  map->blocks = NULL;
  map->deps = NULL;
  map->symbols = NULL;
  mip_file_free(&map->file);
}
