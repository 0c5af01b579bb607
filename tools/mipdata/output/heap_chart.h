/* The heap over time as text: show --heap's peak line and chart. */
#ifndef MIPDATA_HEAP_CHART_H
#define MIPDATA_HEAP_CHART_H

#include <stdio.h>

#include "mipfmt.h"

/* "Peak: ..." and, when the profile merges several runs with a peak, the
 * others' peaks. */
void heap_peak_text(FILE *out, const struct mip_profile *p);
/* The timeline in height rows of at most width columns: each column the
 * most bytes live during the events it covers, '#' up to it. */
void heap_chart_text(FILE *out, const struct mip_profile *p, int width,
                     int height);

#endif
