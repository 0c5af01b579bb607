/*
 * Block counts (block-counts mode): the profile's EDGE_COUNTS table
 * (mip/layout/profile_edge_counts.inc), one entry per function whose
 * edges the plugin counted, from the map's edge-counts records (map.c),
 * and its EDGE_COUNTERS table, one u64 total per counter of the image's
 * BCNT section, in the section's order: an entry's first is its first
 * counter's index in the section, so a run's counters add to the totals
 * element by element, as a pooled file's totals do. A rebuild reads an
 * entry's counters (the edges its spanning tree left out) and works out
 * every block and edge count of the function from them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_counts.h"
#include "intern.h"
#include "mip/layouts.h"
#include "mip/le.h"

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#define CORRUPT(v, err, ...)                                                   \
  mip_fail(err, (v)->path, "corrupt profile: " __VA_ARGS__)

/* ---- from the map --------------------------------------------------- */

/* Keys as a function's (profile_build.c): "unit;name" for a local
 * function, whose name is then the key's tail. */
static void name_entry(struct mip_interner *strings,
                       const struct mip_map_edge_counts *m,
                       struct mip_profile_edge_counts *e) {
  int local = (m->flags & MIP_FN_LOCAL) && m->unit[0];
  if (!local) {
    e->key = e->name = mip_intern(strings, m->name);
    e->unit = 0;
    return;
  }
  size_t n = strlen(m->unit) + strlen(m->name) + 2;
  char *key = mip_xcalloc(n, 1);
  snprintf(key, n, "%s;%s", m->unit, m->name);
  e->key = mip_intern(strings, key);
  e->name = e->key + (uint32_t)strlen(m->unit) + 1;
  e->unit = mip_intern(strings, m->unit);
  free(key);
}

static int by_key(const void *a, const void *b, void *profile) {
  const struct mip_profile_edge_counts *x = a, *y = b;
  int c = strcmp(mip_profile_string(profile, x->key),
                 mip_profile_string(profile, y->key));
  if (c)
    return c;
  if (x->cfg_hash != y->cfg_hash)
    return x->cfg_hash < y->cfg_hash ? -1 : 1;
  return (x->first > y->first) - (x->first < y->first);
}

void mip_edge_counts_from_map(const struct mip_map *map,
                              struct mip_profile *p) {
  const struct mip_extent *section =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_BCNT);
  if (!section)
    return;
  /* The map's reader bounded the section (MIP_MAX_EDGE_COUNTERS). */
  p->edge_counter_count = section->size / 8;
  p->edge_counters =
      mip_xcalloc(p->edge_counter_count, sizeof *p->edge_counters);
  p->edge_counts =
      mip_xcalloc(map->edge_counts_count, sizeof *p->edge_counts);
  p->edge_counts_count = map->edge_counts_count;
  /* The functions' strings are there already: their keys are shared. */
  struct mip_interner strings;
  mip_interner_init(&strings, &p->strings, 1);
  for (size_t i = 0; i < map->edge_counts_count; i++) {
    const struct mip_map_edge_counts *m = &map->edge_counts[i];
    struct mip_profile_edge_counts *e = &p->edge_counts[i];
    name_entry(&strings, m, e);
    e->count = m->count;
    e->cfg_hash = m->cfg_hash;
    e->first = (m->counters - section->link_addr) / 8;
  }
  mip_interner_free(&strings);
  if (p->edge_counts_count)
    qsort_r(p->edge_counts, p->edge_counts_count, sizeof *p->edge_counts,
            by_key, p);
}

/* ---- runs and profiles ---------------------------------------------- */

/* A run's counters count up from 0, so they and a pooled file's totals
 * alike add to the profile's totals. */
void mip_edge_counts_add_raw(struct mip_profile *p, const struct mip_raw *raw) {
  const struct mip_raw_payload *s =
      mip_raw_find(raw, raw->pooled ? MIP_RAW_POOL_BCNT : MIP_RAW_BCNT);
  if (!s)
    return;
  /* The extents were checked equal to the profile's: the same count. */
  size_t n = s->extent.size / 8;
  if (n > p->edge_counter_count)
    n = p->edge_counter_count;
  for (size_t i = 0; i < n; i++)
    p->edge_counters[i] =
        add_saturating(p->edge_counters[i], mip_get_le64(s->data + 8 * i));
}

/* One build's profiles have the same entries, as they have the same
 * functions: a function whose graph changed (another cfg_hash) is
 * another build's, whose counters mean other edges. */
int mip_edge_counts_same(const struct mip_profile *a,
                         const struct mip_profile *b) {
  if (a->edge_counts_count != b->edge_counts_count ||
      a->edge_counter_count != b->edge_counter_count)
    return 0;
  for (size_t i = 0; i < a->edge_counts_count; i++) {
    const struct mip_profile_edge_counts *x = &a->edge_counts[i];
    const struct mip_profile_edge_counts *y = &b->edge_counts[i];
    if (x->cfg_hash != y->cfg_hash || x->count != y->count ||
        x->first != y->first ||
        strcmp(mip_profile_string(a, x->key), mip_profile_string(b, y->key)))
      return 0;
  }
  return 1;
}

void mip_edge_counts_add_profile(struct mip_profile *p,
                                 const struct mip_profile *other) {
  for (size_t i = 0; i < p->edge_counter_count; i++)
    p->edge_counters[i] =
        add_saturating(p->edge_counters[i], other->edge_counters[i]);
}

/* ---- writing -------------------------------------------------------- */

void mip_edge_counts_encode(const struct mip_profile *p, uint32_t kind,
                            struct mip_buf *out) {
  for (size_t i = 0; kind == MIP_PROF_EDGE_COUNTS && i < p->edge_counts_count;
       i++) {
    const struct mip_profile_edge_counts *e = &p->edge_counts[i];
    struct mip_rec_profile_edge_counts r = {e->key,   e->name,     e->unit,
                                            e->count, e->cfg_hash, e->first};
    mip_rec_profile_edge_counts_encode(
        &r, mip_buf_extend(out, mip_rec_profile_edge_counts_size));
  }
  for (size_t i = 0;
       kind == MIP_PROF_EDGE_COUNTERS && i < p->edge_counter_count; i++)
    mip_put_le64(mip_buf_extend(out, 8), p->edge_counters[i]);
}

/* ---- view ----------------------------------------------------------- */

int mip_view_edge_counts(const struct mip_view *v, uint64_t i,
                         struct mip_profile_edge_counts *e,
                         struct mip_error *err) {
  struct mip_rec_profile_edge_counts r;
  mip_rec_profile_edge_counts_decode(&r, mip_view_entry(v, MIP_PROF_EDGE_COUNTS, i));
  if (!mip_view_string(v, r.key) || !mip_view_string(v, r.name) ||
      !mip_view_string(v, r.unit))
    return CORRUPT(v, err, "edge counts %" PRIu64 " name a string out of range",
                   i);
  uint64_t counters = mip_view_count(v, MIP_PROF_EDGE_COUNTERS);
  if (r.first > counters || r.count > counters - r.first)
    return CORRUPT(v, err,
                   "edge counts %" PRIu64 " lie outside the edge counters",
                   i);
  *e = (struct mip_profile_edge_counts){r.key,   r.name,     r.unit,
                                        r.count, r.cfg_hash, r.first};
  return 0;
}

uint64_t mip_view_edge_counter(const struct mip_view *v, uint64_t i) {
  return mip_get_le64(mip_view_entry(v, MIP_PROF_EDGE_COUNTERS, i));
}

uint64_t mip_view_find_edge_counts(const struct mip_view *v, const char *key,
                                   uint64_t *first) {
  return mip_view_find_key(v, MIP_PROF_EDGE_COUNTS, key, first);
}

/* EDGE_COUNTERS holds one total per counter of the BCNT section, which a
 * merge adds a run's counters to element by element: no section, no
 * counters. */
static int check_counter_table(const struct mip_view *v,
                               struct mip_error *err) {
  const struct mip_extent *section =
      mip_extent_find(v->extents, v->extent_count, MIP_RAW_BCNT);
  uint64_t want = section ? section->size / 8 : 0;
  uint64_t have = mip_view_count(v, MIP_PROF_EDGE_COUNTERS);
  if (have != want)
    return CORRUPT(v, err,
                   "%" PRIu64 " edge counters for %" PRIu64
                   " counters in the BCNT section",
                   have, want);
  if (mip_view_count(v, MIP_PROF_EDGE_COUNTS) && !section)
    return CORRUPT(v, err, "edge counts without edge counters");
  return 0;
}

/* Entries in order of key, then cfg_hash: mip_view_find_edge_counts
 * searches them. */
static int in_order(const struct mip_view *v,
                    const struct mip_profile_edge_counts *a,
                    const struct mip_profile_edge_counts *b) {
  int c = strcmp(mip_view_string(v, a->key), mip_view_string(v, b->key));
  return c < 0 || (c == 0 && a->cfg_hash <= b->cfg_hash);
}

int mip_view_check_edge_counts(const struct mip_view *v,
                               struct mip_error *err) {
  if (check_counter_table(v, err))
    return -1;
  uint64_t n = mip_view_count(v, MIP_PROF_EDGE_COUNTS);
  struct mip_profile_edge_counts last = {0}, e;
  for (uint64_t i = 0; i < n; i++) {
    if (mip_view_edge_counts(v, i, &e, err))
      return -1;
    if (i && !in_order(v, &last, &e))
      return CORRUPT(v, err, "edge counts out of order");
    last = e;
  }
  return 0;
}

int mip_edge_counts_read(struct mip_profile *p, const struct mip_view *v,
                         struct mip_error *err) {
  size_t n = mip_view_count(v, MIP_PROF_EDGE_COUNTS);
  size_t counters = mip_view_count(v, MIP_PROF_EDGE_COUNTERS);
  p->edge_counts = mip_xcalloc(n, sizeof *p->edge_counts);
  p->edge_counters = mip_xcalloc(counters, sizeof *p->edge_counters);
  for (size_t i = 0; i < counters; i++)
    p->edge_counters[i] = mip_view_edge_counter(v, i);
  p->edge_counter_count = counters;
  for (size_t i = 0; i < n; i++) {
    if (mip_view_edge_counts(v, i, &p->edge_counts[i], err))
      return -1;
    p->edge_counts_count = i + 1;
  }
  return 0;
}

void mip_edge_counts_free(struct mip_profile *p) {
  free(p->edge_counts);
  free(p->edge_counters);
  p->edge_counts = NULL;
  p->edge_counters = NULL;
  p->edge_counts_count = p->edge_counter_count = 0;
}
