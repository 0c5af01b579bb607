/* The heap side of a diff (diff.h): contexts matched by key, summed per
 * group, compared metric by metric after normalization. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

double diff_value(const struct diff_heap *h, const struct diff_context *c,
                  enum report_side s, enum report_metric m) {
  const struct report_match_group *g = c->group;
  struct report_amount a = {0, 0};
  for (size_t k = 0; k < g->count[s]; k++) {
    size_t at = report_match_member(&h->match, g, s, k);
    report_amount_add(&a, m, &h->r[s]->contexts[at].mib);
  }
  double v = report_amount_value(m, &a);
  return s == REPORT_BASE ? v * h->factor[m] : v;
}

static void list_groups(struct diff_heap *h) {
  h->context_count = h->match.group_count;
  h->contexts = mip_xcalloc(h->context_count + 1, sizeof *h->contexts);
  for (size_t i = 0; i < h->context_count; i++)
    h->contexts[i].group = &h->match.groups[i];
}

static void totals(struct diff_heap *h,
                   const struct report *const r[REPORT_SIDES]) {
  for (int m = 0; m < REPORT_METRICS; m++) {
    struct report_amount b = report_total(r[REPORT_BASE], (enum report_metric)m);
    struct report_amount c = report_total(r[REPORT_NEW], (enum report_metric)m);
    struct diff_total *t = &h->total[m];
    t->base = report_amount_value((enum report_metric)m, &b) * h->factor[m];
    t->cur = report_amount_value((enum report_metric)m, &c);
    t->delta = t->cur - t->base;
    t->change = diff_percent(t->base, t->cur);
  }
}

/* Paired groups above the noise floor (either side allocated at least
 * min_bytes): the distribution of each metric's ratios. */
static void distributions(struct diff_heap *h, uint64_t min_bytes) {
  double *ratios = mip_xcalloc(h->context_count + 1, sizeof *ratios);
  unsigned char *above = mip_xcalloc(h->context_count + 1, 1);
  h->above_floor = 0;
  for (size_t i = 0; i < h->context_count; i++) {
    const struct diff_context *c = &h->contexts[i];
    above[i] = report_match_paired(c->group) &&
               fmax(diff_value(h, c, REPORT_BASE, REPORT_BYTES),
                    diff_value(h, c, REPORT_NEW, REPORT_BYTES)) >=
                   (double)min_bytes;
    h->above_floor += above[i];
  }
  for (int m = 0; m < REPORT_METRICS; m++) {
    struct diff_ratios *r = &h->ratios[m];
    memset(r, 0, sizeof *r);
    for (size_t i = 0; i < h->context_count; i++)
      if (above[i])
        diff_ratios_add(
            r, ratios,
            diff_value(h, &h->contexts[i], REPORT_BASE, (enum report_metric)m),
            diff_value(h, &h->contexts[i], REPORT_NEW, (enum report_metric)m));
    diff_ratios_finish(r, ratios);
  }
  free(above);
  free(ratios);
}

/* Ranking a list: the key of each group, largest first, ties by key
 * (group order). */
struct ranked {
  double key;
  size_t at;
};

static int largest_first(const void *a, const void *b) {
  const struct ranked *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? 1 : -1;
  return (x->at > y->at) - (x->at < y->at);
}

enum list_kind { REGRESSIONS, IMPROVEMENTS, ADDED, VANISHED };

/* Whether group c belongs in list kind, and its ranking key. */
static int in_list(const struct diff_heap *h, const struct diff_context *c,
                   enum list_kind kind, enum report_metric m, double *key) {
  const struct report_match_group *g = c->group;
  double b = diff_value(h, c, REPORT_BASE, m), n = diff_value(h, c, REPORT_NEW, m);
  switch (kind) {
  case REGRESSIONS:
    *key = n - b;
    return report_match_paired(g) && !diff_same(b, n) && n > b;
  case IMPROVEMENTS:
    *key = b - n;
    return report_match_paired(g) && !diff_same(b, n) && n < b;
  case ADDED:
    *key = n;
    return !g->count[REPORT_BASE];
  case VANISHED:
    *key = b;
    return !g->count[REPORT_NEW];
  }
  return 0;
}

static void make_list(struct diff_heap *h, struct diff_list *l,
                      enum list_kind kind, enum report_metric m, size_t top) {
  struct ranked *rank = mip_xcalloc(h->context_count + 1, sizeof *rank);
  size_t n = 0;
  l->sum = 0;
  for (size_t i = 0; i < h->context_count; i++) {
    double key;
    if (in_list(h, &h->contexts[i], kind, m, &key)) {
      rank[n++] = (struct ranked){key, i};
      l->sum += key;
    }
  }
  qsort(rank, n, sizeof *rank, largest_first);
  l->count = n;
  l->shown = n < top ? n : (size_t)top;
  l->at = mip_xcalloc(l->shown + 1, sizeof *l->at);
  for (size_t i = 0; i < l->shown; i++)
    l->at[i] = rank[i].at;
  free(rank);
}

/* The share of both sides' contexts, and of their bytes, that matched. */
static void matched_share(struct diff_heap *h,
                          const struct report *const r[REPORT_SIDES]) {
  double all = 0, matched = 0, all_bytes = 0, matched_bytes = 0;
  for (int s = 0; s < REPORT_SIDES; s++) {
    all += (double)h->match.total[s];
    matched += (double)h->match.matched[s];
  }
  for (size_t i = 0; i < h->context_count; i++) {
    const struct report_match_group *g = h->contexts[i].group;
    for (int s = 0; s < REPORT_SIDES; s++)
      for (size_t k = 0; k < g->count[s]; k++) {
        size_t at = report_match_member(&h->match, g, (enum report_side)s, k);
        double bytes = (double)r[s]->contexts[at].mib.v[MIP_MIBI_TotalSize];
        all_bytes += bytes;
        if (report_match_paired(g))
          matched_bytes += bytes;
      }
  }
  h->matched_count = all > 0 ? matched / all : 1;
  h->matched_bytes = all_bytes > 0 ? matched_bytes / all_bytes : 1;
}

void diff_heap(struct diff_heap *h, const struct report *const r[REPORT_SIDES],
               const struct diff_options *o) {
  memset(h, 0, sizeof *h);
  h->compared = r[REPORT_BASE]->has_heap && r[REPORT_NEW]->has_heap;
  h->r[REPORT_BASE] = r[REPORT_BASE];
  h->r[REPORT_NEW] = r[REPORT_NEW];
  if (!h->compared)
    return;
  for (int m = 0; m < REPORT_METRICS; m++)
    h->factor[m] = report_scale(r[REPORT_BASE], r[REPORT_NEW], o->normalize,
                                (enum report_metric)m);
  report_match(&h->match, r[REPORT_BASE], r[REPORT_NEW], REPORT_CONTEXTS,
               o->match);
  list_groups(h);
  totals(h, r);
  distributions(h, o->min_bytes);
  make_list(h, &h->regressions, REGRESSIONS, o->metric, o->top);
  make_list(h, &h->improvements, IMPROVEMENTS, o->metric, o->top);
  make_list(h, &h->added, ADDED, o->metric, o->top);
  make_list(h, &h->vanished, VANISHED, o->metric, o->top);
  matched_share(h, r);
}

void diff_sampled_text(const struct diff_heap *h, char *line, size_t size) {
  char side[REPORT_SIDES][REPORT_HEAP_NOTE_SIZE];
  for (int s = 0; s < REPORT_SIDES; s++)
    report_heap_note(h->r[s], side[s], sizeof side[s]);
  if (!side[REPORT_BASE][0] && !side[REPORT_NEW][0])
    snprintf(line, size, "%s", "");
  else
    snprintf(line, size, "base %s, new %s", side[REPORT_BASE][0] ? side[REPORT_BASE] : "exact",
             side[REPORT_NEW][0] ? side[REPORT_NEW] : "exact");
}

int diff_measured(const struct diff_heap *h, enum report_metric m) {
  return report_metric_compared(h->r[REPORT_BASE], h->r[REPORT_NEW], m);
}

void diff_heap_free(struct diff_heap *h) {
  report_match_free(&h->match);
  free(h->contexts);
  free(h->regressions.at);
  free(h->improvements.at);
  free(h->added.at);
  free(h->vanished.at);
  memset(h, 0, sizeof *h);
}
