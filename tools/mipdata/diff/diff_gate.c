/*
 * The CI gate of diff (--fail-on EXPR, docs/mipdata.md#diff): conditions
 * on what changed, each failing the command (exit 3) when it holds.
 *
 *   EXPR     := SUBJECT TEST ('&' TEST)*
 *   SUBJECT  := 'total.' METRIC   the change of the profile's total
 *             | 'context.' METRIC the change of any one context (matched,
 *                                 new or vanished): holds when one does
 *             | METRIC            new's total itself
 *             | 'coverage'        function coverage, in %
 *   TEST     := ('>' | '>=' | '<' | '<=') NUMBER [UNIT]
 *   UNIT     := '%'               the change in % of base (total.,
 *                                 context., coverage)
 *             | 'pt'              the change in points (coverage)
 *             | 'KiB' 'MiB' 'GiB' 'kB' 'MB' 'GB'  a multiple
 *
 * Without '%' or 'pt', a dotted subject's number is the change in the
 * metric's unit (total.bytes>+1MiB), a bare metric's the value
 * (live-bytes>0), coverage's the new coverage (coverage<80). A context
 * that is new changed by more than any %, one that vanished by -100%.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "report_text.h"

enum subject { TOTAL, CONTEXT, VALUE, COVERAGE };
enum quantity { CHANGE, PERCENT, POINTS, ABSOLUTE };
enum comparison { GT, GE, LT, LE };

#define MAX_TESTS 4

struct test {
  enum comparison op;
  enum quantity quantity;
  double number;
};

struct diff_condition {
  char *text;
  enum subject subject;
  enum report_metric metric;
  struct test tests[MAX_TESTS];
  int test_count;
  /* After diff_gate: */
  int failed, skipped;
  char measured[160];
};

/* ---- parsing ------------------------------------------------------------ */

static const struct {
  const char *name;
  double factor;
} multiples[] = {{"KiB", 1024.0},       {"MiB", 1048576.0},
                 {"GiB", 1073741824.0}, {"kB", 1e3},
                 {"MB", 1e6},           {"GB", 1e9}};

static int parse_subject(const char *s, size_t len, struct diff_condition *c,
                         char *msg, size_t size) {
  char name[64];
  if (len >= sizeof name)
    len = sizeof name - 1;
  memcpy(name, s, len);
  name[len] = 0;
  const char *metric = name;
  if (!strcmp(name, "coverage")) {
    c->subject = COVERAGE;
    return 0;
  }
  if (!strncmp(name, "total.", 6)) {
    c->subject = TOTAL;
    metric += 6;
  } else if (!strncmp(name, "context.", 8)) {
    c->subject = CONTEXT;
    metric += 8;
  } else {
    c->subject = VALUE;
  }
  if (report_metric_parse(metric, &c->metric) == 0)
    return 0;
  snprintf(msg, size,
           "unknown subject '%s' (total.METRIC, context.METRIC, METRIC or "
           "coverage; metrics: allocs, bytes, peak, live-count, live-bytes, "
           "accesses, lifetime, density)",
           name);
  return -1;
}

static const char *parse_comparison(const char *s, enum comparison *op) {
  if (s[0] == '>' || s[0] == '<') {
    int eq = s[1] == '=';
    *op = s[0] == '>' ? (eq ? GE : GT) : (eq ? LE : LT);
    return s + 1 + eq;
  }
  return NULL;
}

/* What a unit means for c's subject; -1 when it does not go with it. */
static int unit_quantity(const struct diff_condition *c, const char *unit,
                         double *factor, enum quantity *q) {
  *factor = 1;
  int dotted = c->subject == TOTAL || c->subject == CONTEXT;
  if (!*unit) {
    *q = dotted ? CHANGE : ABSOLUTE;
    return 0;
  }
  if (!strcmp(unit, "%")) {
    *q = PERCENT;
    return dotted || c->subject == COVERAGE ? 0 : -1;
  }
  if (!strcmp(unit, "pt")) {
    *q = POINTS;
    return c->subject == COVERAGE ? 0 : -1;
  }
  for (size_t i = 0; i < sizeof multiples / sizeof *multiples; i++)
    if (!strcmp(unit, multiples[i].name) && c->subject != COVERAGE) {
      *factor = multiples[i].factor;
      *q = dotted ? CHANGE : ABSOLUTE;
      return 0;
    }
  return -1;
}

static int parse_test(const char *s, size_t len, struct diff_condition *c,
                      char *msg, size_t size) {
  char text[64];
  if (len >= sizeof text)
    len = sizeof text - 1;
  memcpy(text, s, len);
  text[len] = 0;
  struct test *t = &c->tests[c->test_count];
  const char *at = parse_comparison(text, &t->op);
  char *end = NULL;
  if (at && *at && !strchr(" \t", *at))
    t->number = strtod(at, &end);
  double factor;
  if (!end || end == at || !isfinite(t->number)) {
    snprintf(msg, size, "'%s' is not a comparison (>, >=, < or <= and a number)",
             text);
    return -1;
  }
  if (unit_quantity(c, end, &factor, &t->quantity)) {
    snprintf(msg, size, "'%s': unit '%s' does not go with this subject", text,
             end);
    return -1;
  }
  t->number *= factor;
  c->test_count++;
  return 0;
}

int diff_condition_parse(const char *text, struct diff_condition **out,
                         char *msg, size_t size) {
  struct diff_condition *c = mip_xcalloc(1, sizeof *c);
  size_t subject = strcspn(text, "<>");
  int rc = subject ? parse_subject(text, subject, c, msg, size) : -1;
  if (!subject)
    snprintf(msg, size, "no subject before the comparison");
  for (const char *s = text + subject; rc == 0 && *s;) {
    size_t len = strcspn(s, "&");
    if (c->test_count == MAX_TESTS) {
      snprintf(msg, size, "more than %d tests", MAX_TESTS);
      rc = -1;
    } else {
      rc = parse_test(s, len, c, msg, size);
    }
    if (rc == 0 && s[len] == '&' && !s[len + 1]) {
      snprintf(msg, size, "nothing after '&'");
      rc = -1;
    }
    s += len + (s[len] == '&');
  }
  if (rc == 0 && !c->test_count) {
    snprintf(msg, size, "no comparison (>, >=, < or <=)");
    rc = -1;
  }
  if (rc) {
    free(c);
    return -1;
  }
  c->text = mip_xstrdup(text);
  *out = c;
  return 0;
}

void diff_condition_free(struct diff_condition *c) {
  if (c)
    free(c->text);
  free(c);
}

/* ---- evaluating ------------------------------------------------------- */

static int compare(enum comparison op, double x, double y) {
  switch (op) {
  case GT:
    return x > y;
  case GE:
    return x >= y;
  case LT:
    return x < y;
  case LE:
    return x <= y;
  }
  return 0;
}

/* A test on a change from base to cur (value: the new value itself). A
 * change in % from 0 is above any number, to 0 it is -100. */
static int holds(const struct test *t, double base, double cur, double value) {
  switch (t->quantity) {
  case CHANGE:
    return compare(t->op, cur - base, t->number);
  case PERCENT:
    if (base <= 0 && cur > 0)
      return t->op == GT || t->op == GE;
    return compare(t->op, diff_percent(base, cur), t->number);
  case POINTS:
    return compare(t->op, cur - base, t->number);
  case ABSOLUTE:
    return compare(t->op, value, t->number);
  }
  return 0;
}

static int all_hold(const struct diff_condition *c, double base, double cur) {
  for (int i = 0; i < c->test_count; i++)
    if (!holds(&c->tests[i], base, cur, cur))
      return 0;
  return 1;
}

static void evaluate_context(const struct diff *d, struct diff_condition *c) {
  const struct diff_heap *h = &d->heap;
  size_t hits = 0, worst = 0;
  double worst_delta = 0;
  for (size_t i = 0; i < h->context_count; i++) {
    double b = diff_value(h, &h->contexts[i], REPORT_BASE, c->metric);
    double n = diff_value(h, &h->contexts[i], REPORT_NEW, c->metric);
    if (!all_hold(c, b, n))
      continue;
    if (!hits++ || fabs(n - b) > worst_delta) {
      worst = i;
      worst_delta = fabs(n - b);
    }
  }
  c->failed = hits > 0;
  char v[64] = "";
  if (hits)
    diff_value_text(c->metric, worst_delta, v, sizeof v);
  snprintf(c->measured, sizeof c->measured,
           hits ? "%zu context%s (largest change %s: %s)" : "no context",
           hits, report_plural(hits), v, hits ? h->contexts[worst].group->key : "");
}

static void evaluate(const struct diff *d, struct diff_condition *c) {
  if (c->subject == COVERAGE) {
    const struct diff_functions *f = &d->functions;
    if ((c->skipped = !f->compared))
      return;
    c->failed = all_hold(c, f->coverage[REPORT_BASE], f->coverage[REPORT_NEW]);
    snprintf(c->measured, sizeof c->measured, "coverage %.1f%% -> %.1f%% (%+.2f pt)",
             f->coverage[REPORT_BASE], f->coverage[REPORT_NEW],
             f->coverage_delta);
    return;
  }
  if ((c->skipped = !d->heap.compared))
    return;
  if ((c->skipped = !diff_measured(&d->heap, c->metric))) {
    snprintf(c->measured, sizeof c->measured,
             "not evaluated: a side counted no accesses (heap-allocs)");
    return;
  }
  if (c->subject == CONTEXT) {
    evaluate_context(d, c);
    return;
  }
  const struct diff_total *t = &d->heap.total[c->metric];
  char b[64], n[64], change[32];
  diff_value_text(c->metric, t->base, b, sizeof b);
  diff_value_text(c->metric, t->cur, n, sizeof n);
  diff_change_text(t->base, t->cur, change, sizeof change);
  c->failed = all_hold(c, t->base, t->cur);
  snprintf(c->measured, sizeof c->measured, "%s %s -> %s (%s)",
           report_metrics[c->metric].key, b, n, change);
}

void diff_gate(struct diff *d) {
  d->failed = 0;
  for (size_t i = 0; i < d->o->condition_count; i++) {
    struct diff_condition *c = d->o->conditions[i];
    evaluate(d, c);
    d->failed += c->failed;
  }
}

const char *diff_condition_text(const struct diff *d, size_t i) {
  return d->o->conditions[i]->text;
}
int diff_condition_failed(const struct diff *d, size_t i) {
  return d->o->conditions[i]->failed;
}
int diff_condition_skipped(const struct diff *d, size_t i) {
  return d->o->conditions[i]->skipped;
}
const char *diff_condition_measured(const struct diff *d, size_t i) {
  const struct diff_condition *c = d->o->conditions[i];
  return c->skipped && !*c->measured ? "not evaluated: a side has no data"
                                     : c->measured;
}
