/*
 * The flame graph page: one HTML file with its styles, its script and its
 * data inline (no network, opens from file://). The data are the trees of
 * flame_tree.h, both views (flame and inverted), every metric, and with a
 * base profile the differential (docs/mipdata.md, flamegraph). The
 * script and styles are the sources in tools/mipdata/flame/, embedded at
 * build time (flame_assets.h).
 */
#ifndef MIPDATA_FLAME_PAGE_H
#define MIPDATA_FLAME_PAGE_H

#include <stdio.h>

#include "report.h"
#include "report_metric.h"

/* The defaults: a neutral band of +-15 %; frames narrower than 1/20000
 * of the whole (a tenth of a pixel of a 2000-pixel graph) merged. */
#define FLAME_PAGE_BAND 0.15
#define FLAME_PAGE_MERGE_BELOW 0.00005

struct flame_page_options {
  enum report_key key;             /* of frames: coarse by default */
  enum report_normalize normalize; /* of the base's values */
  enum report_metric metric;       /* shown first */
  double band;                     /* the neutral band, shown first */
  double merge_below; /* frames narrower than this share of the whole,
                         in every metric, merge into "other" */
};

/* What the differential found at the first band and metric: frames
 * worse, better, new, and the base's vanished stacks. */
struct flame_page_summary {
  size_t worse, better, added, elided;
};

/* Writes the page of cur, compared with base when base is not NULL, to
 * out; fills summary (the flame view). */
void flame_page_write(FILE *out, const struct report *cur,
                      const struct report *base,
                      const struct flame_page_options *o,
                      struct flame_page_summary *summary);

#endif
