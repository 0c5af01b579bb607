/* diff --format text: for a terminal, tables aligned; the headline and
 * failed conditions in colour when stdout is one. */
#include <stdio.h>

#include "diff.h"
#include "escape.h"
#include "report_text.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define BOLD "\033[1m"
#define PLAIN "\033[0m"

static void print_table(struct table *t, const char *title) {
  if (title)
    printf("\n%s\n", text_safe(title));
  table_print(t, stdout);
  table_free(t);
}

static void heading(const struct diff *d) {
  char line[1024];
  for (int s = 0; s < REPORT_SIDES; s++) {
    fputs(s == REPORT_BASE ? "Base: " : "New:  ", stdout);
    report_text_header(stdout, d->r[s]);
  }
  diff_headline(d, line, sizeof line);
  const char *on = !d->o->colour ? "" : d->failed ? RED BOLD : BOLD;
  printf("%s%s%s\n", on, text_safe(line), d->o->colour ? PLAIN : "");
  for (size_t i = 0; i < d->missing_count; i++)
    printf("Not compared: %s\n", text_safe(d->missing[i]));
}

static void context_list(const struct diff *d, const char *what,
                         const struct diff_list *l) {
  if (!l->count)
    return;
  char title[256];
  snprintf(title, sizeof title, "%s by %s (%zu of %zu):", what,
           report_metrics[d->o->metric].key, l->shown, l->count);
  struct table t;
  diff_table_contexts(d, l, &t);
  print_table(&t, title);
  /* The leading frames of the first, which the site line leaves out. */
  for (size_t i = 0; i < l->shown && i < 3; i++) {
    enum report_side side;
    const struct diff_context *c = &d->heap.contexts[l->at[i]];
    const struct report_context *ctx = diff_context_of(d, c, &side);
    printf("  #%zu:\n", i + 1);
    report_text_frames(stdout, "    ", d->r[side], ctx);
  }
}

static void heap(const struct diff *d) {
  const struct diff_heap *h = &d->heap;
  char line[1024];
  if (!h->compared)
    return;
  diff_matching_text(d, line, sizeof line);
  printf("\nHeap: %s\n", text_safe(line));
  diff_normalization_text(d, line, sizeof line);
  printf("Heap: %s\n", text_safe(line));
  diff_files_text(d, line, sizeof line);
  printf("Heap: %s\n", text_safe(line));
  diff_wrappers_text(d, line, sizeof line);
  if (*line)
    printf("Heap: %s\n", text_safe(line));
  diff_sampled_text(h, line, sizeof line);
  if (*line)
    printf("Heap: %s\n", text_safe(line));
  struct table t;
  diff_table_totals(d, &t);
  print_table(&t, NULL);
  snprintf(line, sizeof line,
           "Ratios new/base over %zu matched contexts of at least %llu "
           "bytes:",
           h->above_floor, (unsigned long long)d->o->min_bytes);
  diff_table_ratios(d, &t);
  print_table(&t, line);
  context_list(d, "Regressions", &h->regressions);
  context_list(d, "Improvements", &h->improvements);
  context_list(d, "New contexts", &h->added);
  context_list(d, "Vanished contexts", &h->vanished);
}

static void named(const struct diff *d, const char *what,
                  const struct diff_list *l) {
  char names[4096];
  if (!l->count)
    return;
  diff_function_names(d, l, names, sizeof names);
  printf("%s (%zu): %s\n", what, l->count, text_safe(names));
}

static void functions(const struct diff *d) {
  const struct diff_functions *f = &d->functions;
  char line[1024];
  if (!f->compared)
    return;
  diff_coverage_text(d, line, sizeof line);
  printf("\nFunctions: %s\n", text_safe(line));
  named(d, "Newly uncovered", &f->newly_uncovered);
  named(d, "Newly covered", &f->newly_covered);
  named(d, "Code changed (CFG hash)", &f->code_changed);
  if (f->calls) {
    struct table t;
    const struct diff_ratios *r = &f->call_ratios;
    printf("\nCalls (base x %.6g): %zu changed; ratios new/base: geomean "
           "%.3f, P10 %.3f, P50 %.3f, P90 %.3f\n",
           f->calls_factor, f->call_count, r->geomean, r->p10, r->p50,
           r->p90);
    diff_table_calls(d, &t);
    print_table(&t, NULL);
  }
  if (f->order) {
    printf("\nFirst %llu called:\n", (unsigned long long)d->o->first_called);
    named(d, "  Entered", &f->entered);
    named(d, "  Left", &f->left);
  }
  if (f->blocks && f->cold_count) {
    printf("\nBlocks newly cold (%zu):\n", f->cold_count);
    for (size_t i = 0; i < f->cold_shown; i++)
      printf("  %s: block %u, line %u\n",
             text_safe(diff_function_of(d, f->cold[i].group)->demangled),
             f->cold[i].block, f->cold[i].line);
  }
}

static void conditions(const struct diff *d) {
  if (!d->o->condition_count)
    return;
  struct table t;
  diff_table_conditions(d, &t);
  print_table(&t, "Conditions (--fail-on):");
}

void diff_print_text(const struct diff *d) {
  heading(d);
  heap(d);
  functions(d);
  conditions(d);
}
