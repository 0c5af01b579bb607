/* The heap metrics of a report, and how two profiles' values are scaled
 * to compare (report_metric.h). */
#include "report_metric.h"

#include <string.h>

const struct report_metric_def report_metrics[REPORT_METRICS] = {
    [REPORT_ALLOCS] = {"allocs", "allocations", "allocations",
                       MIP_MIBI_AllocCount, 0, 1},
    [REPORT_BYTES] = {"bytes", "bytes allocated", "bytes",
                      MIP_MIBI_TotalSize, 0, 1},
    [REPORT_PEAK] = {"peak", "peak live bytes", "bytes",
                     MIP_MIBI_PeakLiveSize, 0, 1},
    [REPORT_LIVE_COUNT] = {"live-count", "blocks live at exit", "blocks",
                           MIP_MIBI_LiveAtExitCount, 0, 1},
    [REPORT_LIVE_BYTES] = {"live-bytes", "bytes live at exit", "bytes",
                           MIP_MIBI_LiveAtExitSize, 0, 1},
    [REPORT_ACCESSES] = {"accesses", "accesses", "accesses",
                         MIP_MIBI_TotalAccessCount, 0, 1},
    /* TotalLifetime is in milliseconds. */
    [REPORT_LIFETIME] = {"lifetime", "mean lifetime", "seconds",
                         MIP_MIBI_TotalLifetime, 1, 1e-3},
    /* TotalLifetimeAccessDensity is in hundredths (mip/layout/mib.inc),
     * as mip_mib_stats reads it. */
    [REPORT_DENSITY] = {"density", "mean access density",
                        "accesses/byte/s",
                        MIP_MIBI_TotalLifetimeAccessDensity, 1, 1e-2},
};

const char *const report_metric_keys[REPORT_METRICS + 1] = {
    "allocs", "bytes",    "peak",     "live-count", "live-bytes",
    "accesses", "lifetime", "density", NULL};

const char *const report_normalize_names[] = {"none", "runs", "total",
                                              NULL};

int report_metric_parse(const char *key, enum report_metric *m) {
  for (int i = 0; i < REPORT_METRICS; i++)
    if (!strcmp(key, report_metrics[i].key)) {
      *m = (enum report_metric)i;
      return 0;
    }
  return -1;
}

int report_metric_measured(const struct report *r, enum report_metric m) {
  return !(r->stats.heap.uncounted &&
           (m == REPORT_ACCESSES || m == REPORT_DENSITY));
}

int report_metric_compared(const struct report *base,
                           const struct report *cur, enum report_metric m) {
  return (!base || report_metric_measured(base, m)) &&
         (!cur || report_metric_measured(cur, m));
}

int report_metric_check(const struct report *base, const struct report *cur,
                        enum report_metric m, struct mip_error *err) {
  const struct report *lacking = base && !report_metric_measured(base, m)
                                     ? base
                                 : cur && !report_metric_measured(cur, m)
                                     ? cur
                                     : NULL;
  if (!lacking)
    return 0;
  return mip_fail(err, lacking->path,
                  "--metric %s: no access counts in this profile (built with "
                  "-fmip-generate=heap-allocs)",
                  report_metrics[m].key);
}

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void report_amount_add(struct report_amount *a, enum report_metric m,
                       const struct mip_mib *mib) {
  a->sum = add_saturating(a->sum, mib->v[report_metrics[m].field]);
  a->allocs = add_saturating(a->allocs, mib->v[MIP_MIBI_AllocCount]);
}

double report_amount_value(enum report_metric m,
                           const struct report_amount *a) {
  const struct report_metric_def *d = &report_metrics[m];
  double v = (double)a->sum * d->scale;
  if (!d->mean)
    return v;
  return a->allocs ? v / (double)a->allocs : 0;
}

double report_context_value(const struct report_context *c,
                            enum report_metric m) {
  struct report_amount a = {0, 0};
  report_amount_add(&a, m, &c->mib);
  return report_amount_value(m, &a);
}

struct report_amount report_total(const struct report *r,
                                  enum report_metric m) {
  struct report_amount a = {0, 0};
  for (size_t i = 0; i < r->context_count; i++)
    report_amount_add(&a, m, &r->contexts[i].mib);
  return a;
}

double report_scale_counts(enum report_normalize n, uint64_t base_runs,
                           uint64_t cur_runs, uint64_t base_total,
                           uint64_t cur_total) {
  if (n == REPORT_NORMALIZE_RUNS && base_runs && cur_runs)
    return (double)cur_runs / (double)base_runs;
  if (n == REPORT_NORMALIZE_TOTAL && base_total && cur_total)
    return (double)cur_total / (double)base_total;
  return 1;
}

double report_scale(const struct report *base, const struct report *cur,
                    enum report_normalize n, enum report_metric m) {
  if (report_metrics[m].mean)
    return 1;
  uint64_t b = 0, c = 0;
  if (n == REPORT_NORMALIZE_TOTAL) {
    b = report_total(base, m).sum;
    c = report_total(cur, m).sum;
  }
  return report_scale_counts(n, base->runs, cur->runs, b, c);
}
