/* What every format of diff says the same way (diff.h): values and
 * changes for people, a context's site, the headline. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "report_text.h"

const struct report_context *diff_context_of(const struct diff *d,
                                             const struct diff_context *c,
                                             enum report_side *side) {
  const struct report_match_group *g = c->group;
  enum report_side s = g->count[REPORT_NEW] ? REPORT_NEW : REPORT_BASE;
  if (side)
    *side = s;
  return &d->r[s]->contexts[report_match_member(&d->heap.match, g, s, 0)];
}

const struct report_function *diff_function_of(const struct diff *d,
                                               size_t group) {
  const struct report_match *m = &d->functions.match;
  const struct report_match_group *g = &m->groups[group];
  enum report_side s = g->count[REPORT_NEW] ? REPORT_NEW : REPORT_BASE;
  return &d->r[s]->functions[report_match_member(m, g, s, 0)];
}

/* A count: whole when it is (normalization can make it a fraction). */
static void count_text(double v, char *out, size_t size) {
  if (v == floor(v) && fabs(v) < 1e15)
    snprintf(out, size, "%.0f", v);
  else
    snprintf(out, size, "%.2f", v);
}

void diff_value_text(enum report_metric m, double v, char *out, size_t size) {
  const char *unit = report_metrics[m].unit;
  if (strcmp(unit, "bytes") != 0) {
    if (report_metrics[m].mean)
      snprintf(out, size, "%.3g %s", v, !strcmp(unit, "seconds") ? "s" : unit);
    else
      count_text(v, out, size);
    return;
  }
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double a = fabs(v);
  int u = 0;
  while (a >= 1024 && u < 4) {
    a /= 1024;
    v /= 1024;
    u++;
  }
  if (u == 0) {
    count_text(v, out, size);
    strncat(out, " B", size - strlen(out) - 1);
  } else {
    snprintf(out, size, "%.1f %s", v, units[u]);
  }
}

void diff_change_text(double base, double cur, char *out, size_t size) {
  if (diff_same(base, cur))
    snprintf(out, size, "0%%");
  else if (base <= 0)
    snprintf(out, size, "new");
  else if (cur <= 0)
    snprintf(out, size, "gone");
  else
    snprintf(out, size, "%+.1f%%", diff_percent(base, cur));
}

/* "bytes allocated +12.0%" into out at *used. */
static void put_total(const struct diff *d, enum report_metric m, char *out,
                      size_t size, size_t *used) {
  const struct diff_total *t = &d->heap.total[m];
  char change[32];
  diff_change_text(t->base, t->cur, change, sizeof change);
  if (*used < size)
    *used += (size_t)snprintf(out + *used, size - *used, "%s%s %s",
                              *used ? ", " : "", report_metrics[m].label,
                              change);
}

void diff_headline(const struct diff *d, char *out, size_t size) {
  size_t used = 0;
  out[0] = 0;
  if (d->heap.compared) {
    put_total(d, REPORT_BYTES, out, size, &used);
    put_total(d, REPORT_PEAK, out, size, &used);
    put_total(d, REPORT_LIVE_BYTES, out, size, &used);
  }
  if (d->functions.compared && used < size)
    used += (size_t)snprintf(out + used, size - used, "%scoverage %+.1f pt",
                             used ? ", " : "", d->functions.coverage_delta);
  if (!used && used < size)
    used += (size_t)snprintf(out, size, "nothing to compare");
  if (d->o->condition_count && used < size)
    snprintf(out + used, size - used, d->failed ? "; FAILED %zu of %zu conditions"
                                                : "; passed %zu of %zu conditions",
             d->failed ? d->failed : d->o->condition_count,
             d->o->condition_count);
}
