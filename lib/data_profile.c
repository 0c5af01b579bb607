/*
 * Global variables and their accesses (data mode): the profile's DATA
 * table (mip/layout/profile_data.inc), from the map's merged data records
 * (map.c); adding runs and profiles; their temperatures.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "intern.h"
#include "mip/layouts.h"
#include "mip/le.h"

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* ---- profile -------------------------------------------------------- */

void mip_data_from_map(const struct mip_map *map, struct mip_profile *p) {
  const struct mip_extent *counters =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_DATA);
  if (!map->data_count || !counters)
    return;
  struct mip_interner strings;
  mip_interner_init(&strings, &p->strings, p->strings.size);
  p->data = mip_xcalloc(map->data_count, sizeof *p->data);
  for (size_t i = 0; i < map->data_count; i++) {
    const struct mip_map_data *m = &map->data[i];
    struct mip_data_object *d = &p->data[p->data_count++];
    int local = (m->flags & MIP_DATA_LOCAL) && m->unit[0];
    d->name = mip_intern(&strings, m->name);
    d->unit = local ? mip_intern(&strings, m->unit) : 0;
    if (local) {
      size_t n = strlen(m->unit) + strlen(m->name) + 2;
      char *key = mip_xcalloc(n, 1);
      snprintf(key, n, "%s;%s", m->unit, m->name);
      d->key = mip_intern(&strings, key);
      free(key);
    } else {
      d->key = d->name;
    }
    d->flags = m->flags;
    d->size = m->size;
    d->addr = m->object;
    d->counter_offset = m->counter - counters->link_addr;
  }
  mip_interner_free(&strings);
}

/* A run's counters and a pooled file's totals alike hold accesses, a u64
 * per variable. */
void mip_data_add_raw(struct mip_profile *p, const struct mip_raw *raw) {
  const struct mip_raw_payload *s =
      mip_raw_find(raw, raw->pooled ? MIP_RAW_POOL_DATA : MIP_RAW_DATA);
  for (size_t i = 0; s && i < p->data_count; i++) {
    struct mip_data_object *d = &p->data[i];
    /* The extents were checked equal to the profile's: inside. */
    if (d->counter_offset + 8 <= s->extent.size)
      d->accesses = add_saturating(
          d->accesses, mip_get_le64(s->data + d->counter_offset));
  }
}

int mip_data_same(const struct mip_profile *a, const struct mip_profile *b) {
  if (a->data_count != b->data_count)
    return 0;
  for (size_t i = 0; i < a->data_count; i++)
    if (a->data[i].counter_offset != b->data[i].counter_offset ||
        strcmp(mip_profile_string(a, a->data[i].key),
               mip_profile_string(b, b->data[i].key)))
      return 0;
  return 1;
}

void mip_data_add_profile(struct mip_profile *p,
                          const struct mip_profile *other) {
  for (size_t i = 0; i < p->data_count; i++)
    p->data[i].accesses =
        add_saturating(p->data[i].accesses, other->data[i].accesses);
}

void mip_data_encode(const struct mip_profile *p, struct mip_buf *out) {
  for (size_t i = 0; i < p->data_count; i++) {
    const struct mip_data_object *d = &p->data[i];
    struct mip_rec_profile_data r = {d->key,  d->name, d->unit,
                                     d->flags, d->size, d->addr,
                                     d->counter_offset, d->accesses};
    mip_rec_profile_data_encode(&r,
                                mip_buf_extend(out, mip_rec_profile_data_size));
  }
}

/* ---- hot and cold ------------------------------------------------------ */

uint64_t mip_data_hot_threshold(const struct mip_data_object *data,
                                size_t count, double share, uint64_t runs) {
  uint64_t *accesses = mip_xcalloc(count ? count : 1, sizeof *accesses);
  for (size_t i = 0; i < count; i++)
    accesses[i] = data[i].accesses;
  uint64_t threshold = mip_hot_threshold(accesses, count, share, runs);
  free(accesses);
  return threshold;
}

enum mip_temperature mip_data_temperature(const struct mip_data_object *d,
                                          uint64_t runs, uint64_t threshold) {
  if (runs == 0)
    return MIP_TEMP_UNKNOWN;
  if (d->accesses == 0)
    return d->flags & MIP_DATA_ESCAPES ? MIP_TEMP_WARM : MIP_TEMP_COLD;
  return d->accesses >= threshold ? MIP_TEMP_HOT : MIP_TEMP_WARM;
}

/* ---- view ----------------------------------------------------------- */

int mip_view_data(const struct mip_view *v, uint64_t i,
                  struct mip_data_object *d, struct mip_error *err) {
  const struct mip_view_table *t = &v->tables[MIP_PROF_DATA];
  struct mip_rec_profile_data r;
  mip_rec_profile_data_decode(&r, t->data + i * t->entry_size);
  if (!mip_view_string(v, r.key) || !mip_view_string(v, r.name) ||
      !mip_view_string(v, r.unit))
    return mip_fail(err, v->path,
                    "corrupt profile: variable %" PRIu64
                    " names a string out of range",
                    i);
  const struct mip_extent *ext =
      mip_extent_find(v->extents, v->extent_count, MIP_RAW_DATA);
  if (!ext || r.counter_offset % 8 || r.counter_offset >= ext->size)
    return mip_fail(err, v->path,
                    "corrupt profile: variable %" PRIu64
                    " lies outside the data counters",
                    i);
  *d = (struct mip_data_object){r.key,  r.name, r.unit,
                                r.flags, r.size, r.addr,
                                r.counter_offset, r.accesses};
  return 0;
}

int mip_view_check_data(const struct mip_view *v, struct mip_error *err) {
  uint64_t n = mip_view_count(v, MIP_PROF_DATA), last = 0;
  for (uint64_t i = 0; i < n; i++) {
    struct mip_data_object d;
    if (mip_view_data(v, i, &d, err))
      return -1;
    if (i && d.counter_offset <= last)
      return mip_fail(err, v->path, "corrupt profile: variables out of order");
    last = d.counter_offset;
  }
  return 0;
}

int mip_data_read(struct mip_profile *p, const struct mip_view *v,
                  struct mip_error *err) {
  size_t n = mip_view_count(v, MIP_PROF_DATA);
  p->data = mip_xcalloc(n ? n : 1, sizeof *p->data);
  for (size_t i = 0; i < n; i++) {
    if (mip_view_data(v, i, &p->data[i], err))
      return -1;
    p->data_count = i + 1;
  }
  return 0;
}

void mip_data_free(struct mip_profile *p) {
  free(p->data);
  p->data = NULL;
  p->data_count = 0;
}
