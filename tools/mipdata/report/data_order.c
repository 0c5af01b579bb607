/*
 * The order of a profile's global variables for the linker (data_order.h).
 * Hot ones first, so that they share pages and cache lines; cold ones
 * last, after every variable that was touched.
 */
#include <stdlib.h>

#include "data_order.h"

struct sort_ctx {
  const struct mip_profile *p;
};

static int rank_of(enum mip_temperature t) {
  return t == MIP_TEMP_HOT ? 0 : t == MIP_TEMP_COLD ? 2 : 1;
}

static int by_place(const void *x, const void *y, void *arg) {
  const struct data_entry *a = x, *b = y;
  const struct mip_profile *p = ((const struct sort_ctx *)arg)->p;
  int ra = rank_of(a->temperature), rb = rank_of(b->temperature);
  if (ra != rb)
    return ra - rb;
  uint64_t ca = p->data[a->data].accesses, cb = p->data[b->data].accesses;
  if (ca != cb)
    return ca > cb ? -1 : 1;
  return (a->data > b->data) - (a->data < b->data);
}

void data_order(const struct mip_profile *p, double hot_share,
                struct data_order *out) {
  uint64_t threshold =
      mip_data_hot_threshold(p->data, p->data_count, hot_share, p->runs);
  out->entries = mip_xcalloc(p->data_count ? p->data_count : 1,
                             sizeof *out->entries);
  out->count = 0;
  for (int t = 0; t <= MIP_TEMP_HOT; t++)
    out->by_temperature[t] = 0;
  for (size_t i = 0; i < p->data_count; i++) {
    const struct mip_data_object *d = &p->data[i];
    if (!(d->flags & MIP_DATA_DEFINED))
      continue;
    enum mip_temperature t = mip_data_temperature(d, p->runs, threshold);
    out->entries[out->count++] = (struct data_entry){(uint32_t)i, t};
    out->by_temperature[t]++;
  }
  struct sort_ctx c = {p};
  if (out->count)
    qsort_r(out->entries, out->count, sizeof *out->entries, by_place, &c);
}

void data_order_free(struct data_order *o) {
  free(o->entries);
  o->entries = NULL;
  o->count = 0;
}

const char *data_section(const struct mip_data_object *d) {
  if (d->flags & MIP_DATA_ZERO)
    return ".bss";
  return d->flags & MIP_DATA_CONSTANT ? ".rodata" : ".data";
}
