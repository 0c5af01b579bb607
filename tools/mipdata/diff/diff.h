/*
 * mipdata diff: what changed between two profiles, as one model that the
 * gate (diff_gate.c) checks and every format (diff_text.c,
 * diff_markdown.c, diff_json.c) prints. Built from the report model of
 * each profile, matched by key (report_match.h), with the metrics and the
 * normalization of report_metric.h.
 */
#ifndef MIPDATA_DIFF_H
#define MIPDATA_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "emit.h"
#include "report_filter.h"
#include "report.h"
#include "report_match.h"
#include "report_metric.h"

/* ---- ratios (diff_ratio.c) ------------------------------------------ */

/* How a set of matched values moved: the counts that went down, up or
 * stayed, and the spread of new / base over those with both sides above
 * 0. Every value is finite; with no ratio they are all 1. */
struct diff_ratios {
  size_t improved, regressed, unchanged; /* went down, up, stayed */
  size_t ratioed; /* of them, with a ratio (both sides above 0) */
  double geomean, p10, p50, p90;
};

/* Two values equal for the diff: within a relative 1e-9 (the base's
 * scaling rounds). */
int diff_same(double base, double cur);
/* Adds one matched pair to r, its ratio (when it has one) to ratios. */
void diff_ratios_add(struct diff_ratios *r, double *ratios, double base,
                     double cur);
/* Once every pair is in: sorts ratios[0..r->ratioed) and sets geomean,
 * P10, P50 and P90 (nearest rank). */
void diff_ratios_finish(struct diff_ratios *r, double *ratios);
/* The change from base to cur in %; 0 when base is 0 (then the value is
 * new, said otherwise). */
double diff_percent(double base, double cur);

/* ---- options --------------------------------------------------------- */

struct diff_condition; /* diff_gate.c */

enum diff_format { DIFF_TEXT, DIFF_MARKDOWN, DIFF_JSON };

#define DIFF_DEFAULT_MIN_BYTES 4096
#define DIFF_LOW_MATCH 0.5 /* warn below this matched fraction */

struct diff_options {
  const char *path[REPORT_SIDES];
  enum diff_format format;
  enum report_match_mode match;
  enum report_normalize normalize;
  enum report_metric metric; /* ranks the top changes */
  uint64_t min_bytes;        /* the noise floor of the distribution */
  uint64_t top;              /* entries per list */
  uint64_t first_called;     /* N of "the first N called" */
  struct report_filter filter;        /* of both profiles' contexts */
  struct diff_condition **conditions; /* --fail-on, in order */
  size_t condition_count;
  struct report_paths paths;    /* --path-map, in order */
  const char *const *wrappers; /* --wrapper NAME */
  size_t wrapper_count;
  int colour; /* text: to a terminal */
};

/* ---- heap (diff_heap.c) --------------------------------------------- */

struct diff_total {
  double base;   /* base's value, normalized */
  double cur;    /* new's */
  double delta;  /* cur - base */
  double change; /* in %; 0 when base is 0 */
};

/* One group of matched contexts (report_match). Its values are summed
 * when asked for (diff_value), not kept: two profiles of 100,000
 * contexts would need 25 MB more. */
struct diff_context {
  const struct report_match_group *group;
};

/* Group indices, ranked, the first `shown` of `count`. */
struct diff_list {
  size_t *at; /* into diff_heap.contexts, or diff_functions.match.groups */
  size_t count, shown;
  double sum; /* of the list's metric, over all count */
};

struct diff_heap {
  int compared; /* both sides have heap data */
  const struct report *r[REPORT_SIDES];
  struct report_match match;
  double factor[REPORT_METRICS];
  struct diff_total total[REPORT_METRICS];
  struct diff_context *contexts; /* one per group, in group order */
  size_t context_count;
  /* Over paired groups above the noise floor. */
  struct diff_ratios ratios[REPORT_METRICS];
  size_t above_floor;
  /* Paired groups by the options' metric's change; one side only, by
   * its value. */
  struct diff_list regressions, improvements, added, vanished;
  /* Share of both sides' contexts in paired groups: by count, and by
   * the bytes they allocated. */
  double matched_count, matched_bytes;
};

void diff_heap(struct diff_heap *h, const struct report *const r[REPORT_SIDES],
               const struct diff_options *o);
/* What the contexts of group c of side s add up to in metric m; base's
 * normalized. */
double diff_value(const struct diff_heap *h, const struct diff_context *c,
                  enum report_side s, enum report_metric m);
void diff_heap_free(struct diff_heap *h);
/* Whether both sides measured m (report_metric_compared): a metric
 * they did not is in no table, no condition and no list. */
int diff_measured(const struct diff_heap *h, enum report_metric m);
/* Which sides are sampled heap profiles, whose figures are estimates
 * ("" when neither), in line. */
void diff_sampled_text(const struct diff_heap *h, char *line, size_t size);

/* ---- functions (diff_functions.c) ----------------------------------- */

struct diff_call {
  size_t group;
  double base, cur; /* calls, base normalized */
};

struct diff_block {
  size_t group;
  uint32_t block, line;
};

struct diff_functions {
  int compared; /* both sides have functions */
  struct report_match match;
  size_t count[REPORT_SIDES], covered[REPORT_SIDES];
  double coverage[REPORT_SIDES]; /* percent */
  double coverage_delta;         /* points */
  size_t added, removed;         /* one side only */
  struct diff_list newly_covered, newly_uncovered, code_changed;
  int calls; /* both counted */
  double calls_factor;
  struct diff_ratios call_ratios;
  struct diff_call *top_calls; /* by |change|, shown of count */
  size_t top_call_count, call_count;
  int order; /* both ordered */
  struct diff_list entered, left; /* the first N called */
  int blocks; /* both have blocks */
  struct diff_block *cold; /* blocks newly cold */
  size_t cold_count, cold_shown;
};

void diff_functions(struct diff_functions *f,
                    const struct report *const r[REPORT_SIDES],
                    const struct diff_options *o);
void diff_functions_free(struct diff_functions *f);

/* ---- allocation wrappers (diff_wrappers.c) -------------------------- */

#define DIFF_WRAPPERS_LISTED 8

/* Functions that only pass an allocation on: a context's row is named by
 * the first frame above them. */
struct diff_wrappers {
  struct report_key_index names; /* linkage or demangled names */
  const char *detected[DIFF_WRAPPERS_LISTED]; /* found in the profiles */
  size_t detected_count, more;
};

/* The wrappers of the default list (NULL-terminated). */
extern const char *const diff_default_wrappers[];
/* The default list, o's --wrapper names, and the sites' functions that
 * either side reaches from several callers. */
void diff_wrappers_find(struct diff_wrappers *w,
                        const struct report *const r[REPORT_SIDES],
                        const struct diff_options *o);
void diff_wrappers_free(struct diff_wrappers *w);
int diff_is_wrapper(const struct diff_wrappers *w, const char *name,
                    const char *demangled);

/* ---- the whole diff -------------------------------------------------- */

struct diff {
  const struct report *r[REPORT_SIDES];
  const struct diff_options *o;
  struct diff_heap heap;
  struct diff_functions functions;
  struct diff_wrappers wrappers;
  /* What one side lacks, for every format: "NEW has no heap data". */
  const char *missing[8];
  size_t missing_count;
  size_t failed; /* conditions that failed */
};

/* ---- the gate (diff_gate.c) ------------------------------------------ */

/* Parses one --fail-on expression into *c (malloc'd); 0, or -1 with
 * why in msg (a usage error). */
int diff_condition_parse(const char *text, struct diff_condition **c,
                         char *msg, size_t size);
void diff_condition_free(struct diff_condition *c);
/* Evaluates every condition of d's options; sets d->failed. */
void diff_gate(struct diff *d);
/* Condition i: its text; whether it failed, was not evaluated (its data
 * is missing on one side); what was measured, for people. */
const char *diff_condition_text(const struct diff *d, size_t i);
int diff_condition_failed(const struct diff *d, size_t i);
int diff_condition_skipped(const struct diff *d, size_t i);
const char *diff_condition_measured(const struct diff *d, size_t i);

/* ---- printing (diff_text.c, diff_markdown.c, diff_json.c) ----------- */

/* The context a group stands for (its new side, else its base side). */
const struct report_context *diff_context_of(const struct diff *d,
                                             const struct diff_context *c,
                                             enum report_side *side);
/* Where in context c (of profile r) the first frame above the
 * allocation wrappers is; 0 when the leaf is no wrapper (or every frame
 * is one). */
uint32_t diff_caller_at(const struct diff *d, const struct report *r,
                        const struct report_context *c);
/* A context's row for people: its site, "malloc in f (a.c:3)", or, for a
 * site in a wrapper, the caller above the wrappers, "malloc in xmalloc
 * <- g (b.c:12)"; files as keys name them (relative to the root). */
void diff_site_text(const struct diff *d, const struct report *r,
                    const struct report_context *c, char *out, size_t size);
/* The first `frames` frames of c, leaf first: "make (a.c:8) <- grows
 * (a.c:17) <- ...". */
void diff_stack_text(const struct report *r, const struct report_context *c,
                     uint32_t frames, char *out, size_t size);
#define DIFF_SHORT_STACK 5 /* frames of a row's short stack */
/* The function a group of functions stands for. */
const struct report_function *diff_function_of(const struct diff *d,
                                               size_t group);
/* "1.5 KiB", "12", "0.25 s": a metric's value for people. */
void diff_value_text(enum report_metric m, double v, char *out, size_t size);
/* "+12.5%", "new", "gone", "0.0%". */
void diff_change_text(double base, double cur, char *out, size_t size);
/* The one-line headline every format starts with. */
void diff_headline(const struct diff *d, char *out, size_t size);

void diff_print_text(const struct diff *d);
void diff_print_markdown(const struct diff *d);
void diff_print_json(const struct diff *d);



/* ---- tables both text and markdown print (diff_tables.c) ------------ */

/* Each fills a table (emit.h), initialized here, freed by the caller. */
void diff_table_totals(const struct diff *d, struct table *t);
void diff_table_ratios(const struct diff *d, struct table *t);
/* A list of contexts: change, delta, base, new, share of the base total,
 * site. */
void diff_table_contexts(const struct diff *d, const struct diff_list *l,
                         struct table *t);
void diff_table_calls(const struct diff *d, struct table *t);
void diff_table_conditions(const struct diff *d, struct table *t);
/* "f, g, h (and 3 more)" for a list of function groups. */
void diff_function_names(const struct diff *d, const struct diff_list *l,
                         char *out, size_t size);
/* "Heap: ..." matching, and the normalization line. */
void diff_matching_text(const struct diff *d, char *out, size_t size);
void diff_normalization_text(const struct diff *d, char *out, size_t size);
/* How files were named for matching: the roots, each --path-map rule and
 * what it renamed, and the frames left out for profiles of one image. */
void diff_files_text(const struct diff *d, char *out, size_t size);
/* The allocation wrappers that name rows by their callers; "" when the
 * profiles go through none but the default list's. */
void diff_wrappers_text(const struct diff *d, char *out, size_t size);
/* "Functions: ..." coverage line. */
void diff_coverage_text(const struct diff *d, char *out, size_t size);
#endif
