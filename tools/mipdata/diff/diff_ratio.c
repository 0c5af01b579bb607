/* The arithmetic of a diff's changes (diff.h): ratios, their spread, and
 * changes in %, never NaN or infinite: a side at 0 has no ratio. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "diff.h"

int diff_same(double base, double cur) {
  double scale = fmax(fabs(base), fabs(cur));
  return fabs(cur - base) <= 1e-9 * scale;
}

double diff_percent(double base, double cur) {
  return base > 0 ? 100.0 * (cur - base) / base : 0;
}

void diff_ratios_add(struct diff_ratios *r, double *ratios, double base,
                     double cur) {
  if (diff_same(base, cur))
    r->unchanged++;
  else if (cur > base)
    r->regressed++;
  else
    r->improved++;
  if (base > 0 && cur > 0) {
    /* Clamped, so that no quotient of two finite values overflows to
     * infinity or underflows to 0 (whose log is -infinity). */
    double ratio = fmin(fmax(cur / base, DBL_MIN), DBL_MAX);
    ratios[r->ratioed++] = ratio;
  }
}

static int ascending(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The nearest-rank percentile p of n sorted values (n > 0). */
static double percentile(const double *v, size_t n, double p) {
  size_t rank = (size_t)ceil(p / 100.0 * (double)n);
  return v[rank ? rank - 1 : 0];
}

void diff_ratios_finish(struct diff_ratios *r, double *ratios) {
  size_t n = r->ratioed;
  if (!n) {
    r->geomean = r->p10 = r->p50 = r->p90 = 1;
    return;
  }
  qsort(ratios, n, sizeof *ratios, ascending);
  double logs = 0;
  for (size_t i = 0; i < n; i++)
    logs += log(ratios[i]);
  r->geomean = exp(logs / (double)n);
  r->p10 = percentile(ratios, n, 10);
  r->p50 = percentile(ratios, n, 50);
  r->p90 = percentile(ratios, n, 90);
}
