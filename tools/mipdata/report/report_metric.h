/*
 * The heap metrics a report compares, draws and exports, defined once:
 * their names on command lines and in documents, their units, and how a
 * set of contexts adds up to one value. diff, flamegraph and export all
 * take them from here, so a metric is called and computed the same way in
 * every output. Normalization of two profiles (--normalize) too.
 */
#ifndef MIPDATA_REPORT_METRIC_H
#define MIPDATA_REPORT_METRIC_H

#include <stdint.h>

#include "options.h"
#include "report.h"

enum report_metric {
  REPORT_ALLOCS,     /* AllocCount */
  REPORT_BYTES,      /* TotalSize */
  REPORT_PEAK,       /* PeakLiveSize: each context's own peak, summed */
  REPORT_LIVE_COUNT, /* LiveAtExitCount */
  REPORT_LIVE_BYTES, /* LiveAtExitSize */
  REPORT_ACCESSES,   /* TotalAccessCount */
  REPORT_LIFETIME,   /* mean seconds a block lived */
  REPORT_DENSITY,    /* mean accesses per byte per second of lifetime */
  REPORT_METRICS
};

struct report_metric_def {
  const char *key;   /* on command lines and in JSON: "bytes" */
  const char *label; /* for people: "bytes allocated" */
  const char *unit;  /* "bytes", "allocations", "blocks", "accesses",
                        "seconds", "accesses/byte/s" */
  enum mip_mib_index field; /* the MemInfoBlock field summed */
  /* A mean over allocations: the field summed, divided by AllocCount
   * summed. Otherwise the field summed is the value. */
  int mean;
  double scale; /* the field's unit to the metric's: ms to s, ... */
};

extern const struct report_metric_def report_metrics[REPORT_METRICS];

/* "allocs,bytes,..." for help texts and messages. */
extern const char *const report_metric_keys[REPORT_METRICS + 1];

/* The metric named key: 0, or -1 for a name that is none. */
int report_metric_parse(const char *key, enum report_metric *m);

/* Whether r measured m: accesses and their density are not measured by
 * a build whose heap code counts no accesses (heap-allocs), whose
 * figures would all be 0. */
int report_metric_measured(const struct report *r, enum report_metric m);
/* Whether both sides measured m (either may be NULL: no such side). */
int report_metric_compared(const struct report *base,
                           const struct report *cur, enum report_metric m);
/* 0 when both sides measured m; else -1, err naming the side that did
 * not (for --metric). */
int report_metric_check(const struct report *base, const struct report *cur,
                        enum report_metric m, struct mip_error *err);

/* What a set of contexts adds up to, field by field: sums that saturate
 * as MemInfoBlocks do, from which every metric's value follows. */
struct report_amount {
  uint64_t sum;    /* the metric's field, summed */
  uint64_t allocs; /* AllocCount, summed: a mean's divisor */
};

void report_amount_add(struct report_amount *a, enum report_metric m,
                       const struct mip_mib *mib);
/* The metric's value of a: the sum in the metric's unit, or the mean
 * (0 with no allocation). Always finite. */
double report_amount_value(enum report_metric m,
                           const struct report_amount *a);
/* One context's value. */
double report_context_value(const struct report_context *c,
                            enum report_metric m);
/* The whole profile's amount and value (every context). */
struct report_amount report_total(const struct report *r,
                                  enum report_metric m);

/* ---- normalization (--normalize) ----------------------------------- */

/* How the values of a base profile are scaled before they are compared
 * with a new one's (docs/report.md#normalization):
 *   none   as they are;
 *   runs   per merged run: new's runs / base's runs (the default: two
 *          profiles that merged different numbers of runs compare);
 *   total  to the same total of the metric: new's total / base's total.
 * A mean metric is never scaled: it is already per allocation. A side
 * with no run or a zero total gives the factor 1. */
enum report_normalize {
  REPORT_NORMALIZE_NONE,
  REPORT_NORMALIZE_RUNS,
  REPORT_NORMALIZE_TOTAL,
};

/* NULL-terminated, in enum order: for an OPT_CHOICE option. */
extern const char *const report_normalize_names[];

/* The factor base's values of metric m are multiplied by; finite and
 * positive. */
double report_scale(const struct report *base, const struct report *cur,
                    enum report_normalize n, enum report_metric m);
/* The same factor for any count two profiles have (call counts: diff's
 * functions): the runs of each side, and each side's total of the
 * count. */
double report_scale_counts(enum report_normalize n, uint64_t base_runs,
                           uint64_t cur_runs, uint64_t base_total,
                           uint64_t cur_total);

/* ---- the options that choose them, one declaration for every command */

/* --metric NAME: an enum report_metric, held in an int. */
#define OPT_METRIC(VALUE, HELP)                                                \
  {.name = "metric", .kind = OPT_CHOICE, .value = OPT_POINTER(int, VALUE),     \
   .choices = report_metric_keys, .noun = "metric", .help = (HELP)}
/* --normalize none|runs|total: an enum report_normalize, held in an int. */
#define OPT_NORMALIZE(VALUE, HELP)                                             \
  {.name = "normalize", .kind = OPT_CHOICE,                                    \
   .value = OPT_POINTER(int, VALUE), .choices = report_normalize_names,        \
   .noun = "normalization", .help = (HELP)}

#endif
