/* A new indexed profile, with no runs yet, from a map: its functions, their
 * blocks and symbols, its global variables, edge counters and heap
 * sites. */
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "edge_counts.h"
#include "heap.h"

static uint32_t add_string(struct mip_buf *strings, const char *a,
                           const char *sep, const char *b) {
  uint32_t at = (uint32_t)strings->size;
  mip_buf_append(strings, a, strlen(a));
  mip_buf_append(strings, sep, strlen(sep));
  mip_buf_append(strings, b, strlen(b) + 1);
  return at;
}

static int by_key(const void *a, const void *b, void *profile) {
  const struct mip_profile_function *x = a, *y = b;
  int c = strcmp(mip_profile_string(profile, x->key),
                 mip_profile_string(profile, y->key));
  if (c)
    return c;
  return (x->entry > y->entry) - (x->entry < y->entry);
}

/* Where a function's counters of a kind start in that kind's section. */
static uint64_t offset_of(const struct mip_map *map,
                          const struct mip_map_function *m, uint32_t kind) {
  if (!(m->kinds & MIP_MODE_BIT(kind)))
    return MIP_NO_OFFSET;
  const struct mip_extent *e =
      mip_extent_find(map->extents, map->extent_count, kind);
  return m->slots[kind].addr - e->link_addr;
}

static void name_function(struct mip_profile *p,
                          const struct mip_map_function *m,
                          struct mip_profile_function *f) {
  int local = (m->flags & MIP_FN_LOCAL) && m->unit[0];
  /* Locals are keyed "unit;name"; name points into the same string. */
  f->key = add_string(&p->strings, local ? m->unit : "", local ? ";" : "",
                      m->name);
  f->name = local ? f->key + (uint32_t)strlen(m->unit) + 1 : f->key;
  f->unit = local ? add_string(&p->strings, m->unit, "", "") : 0;
}

static void copy_function(struct mip_profile *p, const struct mip_map *map,
                          const struct mip_map_function *m,
                          struct mip_profile_function *f) {
  name_function(p, m, f);
  f->flags = m->flags;
  f->cfg_hash = m->cfg_hash;
  f->entry = m->entry;
  f->cov_offset = offset_of(map, m, MIP_RAW_COV);
  f->cnt_offset = offset_of(map, m, MIP_RAW_CNT);
  f->ord_offset = offset_of(map, m, MIP_RAW_ORD);
  f->probe_offset = offset_of(map, m, MIP_RAW_BLK);
  f->first_block = m->first_block;
  f->block_count = m->block_count;
}

static void *copy_array(const void *from, size_t count, size_t size) {
  void *to = mip_xcalloc(count, size);
  if (count)
    memcpy(to, from, count * size);
  return to;
}

void mip_profile_from_map(const struct mip_map *map, struct mip_profile *p) {
  memset(p, 0, sizeof *p);
  p->build_id = map->build_id;
  memcpy(p->extents, map->extents, sizeof map->extents);
  p->extent_count = map->extent_count;
  for (size_t i = 0; i < p->extent_count; i++)
    p->modes |= MIP_MODE_BIT(p->extents[i].kind);
  mip_buf_extend(&p->strings, 1); /* offset 0: "" */
  p->functions = mip_xcalloc(map->function_count, sizeof *p->functions);
  p->function_count = map->function_count;
  for (size_t i = 0; i < map->function_count; i++)
    copy_function(p, map, &map->functions[i], &p->functions[i]);
  /* Blocks keep their places: functions point at them. */
  p->blocks = copy_array(map->blocks, map->block_count, sizeof *p->blocks);
  p->block_count = map->block_count;
  p->deps = copy_array(map->deps, map->dep_count, sizeof *p->deps);
  p->dep_count = map->dep_count;
  p->symbols =
      copy_array(map->symbols, map->symbol_count, sizeof *p->symbols);
  p->symbol_count = map->symbol_count;
  if (p->function_count)
    qsort_r(p->functions, p->function_count, sizeof *p->functions, by_key, p);
  /* Before the heap sites: their strings are the last before the heap
   * frames'. */
  mip_data_from_map(map, p);
  mip_edge_counts_from_map(map, p);
  mip_heap_sites_from_map(map, p);
  p->heap_stats.uncounted = map->heap_uncounted_units;
}

void mip_profile_free(struct mip_profile *p) {
  free(p->functions);
  free(p->blocks);
  free(p->deps);
  free(p->edges);
  free(p->symbols);
  mip_heap_free(p);
  mip_data_free(p);
  mip_edge_counts_free(p);
  mip_buf_free(&p->strings);
  memset(p, 0, sizeof *p);
}
