/* The tables and lines diff prints the same way as text and as markdown
 * (diff.h): built once here, laid out by each format. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "report_text.h"

/* A change in the metric's unit, signed: "+1.5 KiB", "-12", "0". */
static void delta_text(enum report_metric m, double base, double cur,
                       char *out, size_t size) {
  if (diff_same(base, cur)) {
    snprintf(out, size, "0");
    return;
  }
  out[0] = '+';
  diff_value_text(m, cur - base, out + (cur > base), size - 1);
}

void diff_table_totals(const struct diff *d, struct table *t) {
  static const char *const heading[] = {"METRIC", "BASE", "NEW", "DELTA",
                                        "CHANGE"};
  table_init(t, 5, heading);
  for (int i = 1; i < 5; i++)
    t->right_align[i] = 1;
  for (int m = 0; m < REPORT_METRICS; m++) {
    if (!diff_measured(&d->heap, (enum report_metric)m))
      continue;
    const struct diff_total *x = &d->heap.total[m];
    char b[64], n[64], delta[64], change[32];
    diff_value_text((enum report_metric)m, x->base, b, sizeof b);
    diff_value_text((enum report_metric)m, x->cur, n, sizeof n);
    delta_text((enum report_metric)m, x->base, x->cur, delta, sizeof delta);
    diff_change_text(x->base, x->cur, change, sizeof change);
    const char *cells[] = {report_metrics[m].label, b, n, delta, change};
    table_add(t, cells);
  }
}

static void ratios_row(struct table *t, const char *name,
                       const struct diff_ratios *r) {
  char c[7][32];
  snprintf(c[0], 32, "%zu", r->improved);
  snprintf(c[1], 32, "%zu", r->regressed);
  snprintf(c[2], 32, "%zu", r->unchanged);
  snprintf(c[3], 32, "%.3f", r->geomean);
  snprintf(c[4], 32, "%.3f", r->p10);
  snprintf(c[5], 32, "%.3f", r->p50);
  snprintf(c[6], 32, "%.3f", r->p90);
  const char *cells[] = {name, c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
  table_add(t, cells);
}

static void ratios_table(struct table *t) {
  static const char *const heading[] = {"METRIC",  "DOWN", "UP",  "SAME",
                                        "GEOMEAN", "P10",  "P50", "P90"};
  table_init(t, 8, heading);
  for (int i = 1; i < 8; i++)
    t->right_align[i] = 1;
}

void diff_table_ratios(const struct diff *d, struct table *t) {
  ratios_table(t);
  for (int m = 0; m < REPORT_METRICS; m++)
    if (diff_measured(&d->heap, (enum report_metric)m))
      ratios_row(t, report_metrics[m].label, &d->heap.ratios[m]);
}

/* The row of one group: its values, and the site of the context it
 * stands for, named by the caller above the allocation wrappers. */
static void context_row(const struct diff *d, const struct diff_context *c,
                        struct table *t) {
  enum report_metric m = d->o->metric;
  double total = d->heap.total[m].base;
  enum report_side side;
  const struct report_context *ctx = diff_context_of(d, c, &side);
  double b = diff_value(&d->heap, c, REPORT_BASE, m);
  double n = diff_value(&d->heap, c, REPORT_NEW, m);
  char change[32], delta[64], bs[64], ns[64], share[32], site[4096];
  diff_change_text(b, n, change, sizeof change);
  delta_text(m, b, n, delta, sizeof delta);
  diff_value_text(m, b, bs, sizeof bs);
  diff_value_text(m, n, ns, sizeof ns);
  snprintf(share, sizeof share, "%+.1f%%",
           total > 0 ? 100.0 * (n - b) / total : 0.0);
  diff_site_text(d, d->r[side], ctx, site, sizeof site);
  size_t k = c->group->count[REPORT_BASE] > c->group->count[REPORT_NEW]
                 ? c->group->count[REPORT_BASE]
                 : c->group->count[REPORT_NEW];
  if (k > 1)
    snprintf(site + strlen(site), sizeof site - strlen(site),
             " [%zu contexts summed]", k);
  const char *cells[] = {change, delta, bs, ns, share, site};
  table_add(t, cells);
}

void diff_table_contexts(const struct diff *d, const struct diff_list *l,
                         struct table *t) {
  static const char *const heading[] = {"CHANGE", "DELTA", "BASE",
                                        "NEW",    "SHARE", "SITE"};
  table_init(t, 6, heading);
  for (int i = 0; i < 5; i++)
    t->right_align[i] = 1;
  /* SITE: "ALLOCATOR in FUNCTION (FILE:LINE)", or "ALLOCATOR in WRAPPER
   * <- CALLER (FILE:LINE)" */
  t->names[5] = 1;
  for (size_t i = 0; i < l->shown; i++)
    context_row(d, &d->heap.contexts[l->at[i]], t);
}

void diff_table_calls(const struct diff *d, struct table *t) {
  static const char *const heading[] = {"CHANGE", "BASE", "NEW", "RATIO",
                                        "FUNCTION"};
  table_init(t, 5, heading);
  for (int i = 0; i < 4; i++)
    t->right_align[i] = 1;
  t->names[4] = 1;
  const struct diff_functions *f = &d->functions;
  for (size_t i = 0; i < f->top_call_count; i++) {
    const struct diff_call *c = &f->top_calls[i];
    char change[32], b[32], n[32], ratio[32] = "-";
    diff_change_text(c->base, c->cur, change, sizeof change);
    snprintf(b, sizeof b, "%.0f", c->base);
    snprintf(n, sizeof n, "%.0f", c->cur);
    if (c->base > 0 && c->cur > 0)
      snprintf(ratio, sizeof ratio, "%.3f", c->cur / c->base);
    const char *cells[] = {change, b, n, ratio,
                           diff_function_of(d, c->group)->demangled};
    table_add(t, cells);
  }
}

void diff_table_conditions(const struct diff *d, struct table *t) {
  static const char *const heading[] = {"RESULT", "CONDITION", "MEASURED"};
  table_init(t, 3, heading);
  for (size_t i = 0; i < d->o->condition_count; i++) {
    const char *result = diff_condition_skipped(d, i)  ? "skipped"
                         : diff_condition_failed(d, i) ? "FAILED"
                                                       : "passed";
    const char *cells[] = {result, diff_condition_text(d, i),
                           diff_condition_measured(d, i)};
    table_add(t, cells);
  }
}

void diff_function_names(const struct diff *d, const struct diff_list *l,
                         char *out, size_t size) {
  size_t used = 0;
  out[0] = 0;
  for (size_t i = 0; i < l->shown && used < size; i++)
    used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "",
                             diff_function_of(d, l->at[i])->demangled);
  if (l->count > l->shown && used < size)
    snprintf(out + used, size - used, " (and %zu more)",
             l->count - l->shown);
}

void diff_matching_text(const struct diff *d, char *out, size_t size) {
  const struct diff_heap *h = &d->heap;
  const struct report_match *m = &h->match;
  snprintf(out, size,
           "contexts: base %zu, new %zu; matched %zu and %zu (%.1f%% of "
           "contexts, %.1f%% of bytes, by %s); collapsed under one key: %zu "
           "base, %zu new",
           m->total[REPORT_BASE], m->total[REPORT_NEW],
           m->matched[REPORT_BASE], m->matched[REPORT_NEW],
           100.0 * h->matched_count, 100.0 * h->matched_bytes,
           d->o->match == REPORT_MATCH_LINES ? "source lines"
                                             : "source, lines left out",
           m->collapsed[REPORT_BASE], m->collapsed[REPORT_NEW]);
}

void diff_normalization_text(const struct diff *d, char *out, size_t size) {
  const struct report *b = d->r[REPORT_BASE], *n = d->r[REPORT_NEW];
  if (d->o->normalize == REPORT_NORMALIZE_TOTAL)
    snprintf(out, size,
             "normalized to equal totals: base %s x %.6g (each metric its "
             "own factor)",
             report_metrics[d->o->metric].key, d->heap.factor[d->o->metric]);
  else
    snprintf(out, size,
             "normalized %s: base values x %.6g (base %" PRIu64
             " run%s, new %" PRIu64 ")",
             d->o->normalize == REPORT_NORMALIZE_RUNS ? "per run" : "not",
             d->heap.factor[REPORT_BYTES], b->runs, report_plural(b->runs),
             n->runs);
}

void diff_coverage_text(const struct diff *d, char *out, size_t size) {
  const struct diff_functions *f = &d->functions;
  snprintf(out, size,
           "base %zu functions, %zu covered (%.1f%%); new %zu, %zu covered "
           "(%.1f%%): %+.2f pt; %zu added, %zu removed",
           f->count[REPORT_BASE], f->covered[REPORT_BASE],
           f->coverage[REPORT_BASE], f->count[REPORT_NEW],
           f->covered[REPORT_NEW], f->coverage[REPORT_NEW], f->coverage_delta,
           f->added, f->removed);
}

/* format's text into out at *used, as far as it goes. */
static void put(char *out, size_t size, size_t *used, const char *format,
                ...) __attribute__((format(printf, 4, 5)));
static void put(char *out, size_t size, size_t *used, const char *format,
                ...) {
  if (*used >= size)
    return;
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(out + *used, size - *used, format, ap);
  va_end(ap);
  if (n > 0)
    *used += (size_t)n;
}

void diff_files_text(const struct diff *d, char *out, size_t size) {
  const struct report *b = d->r[REPORT_BASE], *n = d->r[REPORT_NEW];
  size_t used = 0;
  out[0] = '\0';
  put(out, size, &used,
      "files by name relative to the build root (base %s, new %s)",
      b->root ? b->root : "none", n->root ? n->root : "none");
  const struct report_paths *p = &d->o->paths;
  for (size_t i = 0; i < p->count; i++)
    put(out, size, &used, "; --path-map %s=%s renamed %zu of base, %zu of new",
        p->maps[i].from, p->maps[i].to, b->path_hits[i], n->path_hits[i]);
  if (b->image_frames_only)
    put(out, size, &used,
        "; both of build-id %s: contexts by the frames of that image, "
        "other objects' left out",
        b->build_id);
}

void diff_wrappers_text(const struct diff *d, char *out, size_t size) {
  const struct diff_wrappers *w = &d->wrappers;
  size_t used = 0;
  out[0] = '\0';
  if (!w->detected_count && !d->o->wrapper_count)
    return;
  put(out, size, &used, "rows through allocation wrappers named by the "
                        "caller above them; wrappers:");
  for (size_t i = 0; i < d->o->wrapper_count; i++)
    put(out, size, &used, "%s %s", i ? "," : "", d->o->wrappers[i]);
  for (size_t i = 0; i < w->detected_count; i++)
    put(out, size, &used, "%s %s", i || d->o->wrapper_count ? "," : "",
        w->detected[i]);
  if (w->more)
    put(out, size, &used, " (and %zu more)", w->more);
}
