/* Walking the report model: a context's frames either way, contexts in
 * the orders of report.h. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

void report_frames_begin(struct report_frame_iter *it, const struct report *r,
                         const struct report_context *c,
                         enum report_direction direction) {
  *it = (struct report_frame_iter){r, c, direction, 0};
}

const struct report_frame *report_frames_next(struct report_frame_iter *it) {
  const struct report_context *c = it->c;
  if (it->next >= c->depth)
    return NULL;
  uint32_t k = it->next++;
  if (it->direction == REPORT_ROOT_FIRST)
    k = c->depth - 1 - k;
  return &it->r->frames[c->stack[k]];
}

/* ---- contexts ---------------------------------------------------------- */

struct sort_ctx {
  const struct report *r;
  enum report_order order;
};

/* Larger first by one MemInfoBlock field. */
static int larger(uint64_t x, uint64_t y) { return (x < y) - (x > y); }

static int compare(const void *a, const void *b, void *arg) {
  const struct sort_ctx *s = arg;
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  const struct report_context *x = &s->r->contexts[i], *y = &s->r->contexts[j];
  int c = 0;
  if (s->order == REPORT_BY_BYTES)
    c = larger(x->mib.v[MIP_MIBI_TotalSize], y->mib.v[MIP_MIBI_TotalSize]);
  else if (s->order == REPORT_BY_COUNT)
    c = larger(x->mib.v[MIP_MIBI_AllocCount], y->mib.v[MIP_MIBI_AllocCount]);
  else if (s->order == REPORT_BY_KEY)
    c = strcmp(x->key[REPORT_FINE], y->key[REPORT_FINE]);
  return c ? c : (i > j) - (i < j);
}

void report_contexts_begin(struct report_context_iter *it,
                           const struct report *r,
                           const struct report_site *site,
                           enum report_order order) {
  size_t first = site ? site->first_context : 0;
  size_t count = site ? site->context_count : r->context_count;
  *it = (struct report_context_iter){r, NULL, count, 0};
  it->order = mip_xcalloc(count + 1, sizeof *it->order);
  for (size_t i = 0; i < count; i++)
    it->order[i] = first + i;
  struct sort_ctx s = {r, order};
  if (count && order != REPORT_BY_PROFILE)
    qsort_r(it->order, count, sizeof *it->order, compare, &s);
}

const struct report_context *
report_contexts_next(struct report_context_iter *it) {
  return it->next < it->count ? &it->r->contexts[it->order[it->next++]]
                              : NULL;
}

void report_contexts_end(struct report_context_iter *it) {
  free(it->order);
  it->order = NULL;
}
