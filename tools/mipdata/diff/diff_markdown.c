/* diff --format markdown: for a CI job summary or a merge-request
 * comment (GitHub-flavoured markdown): a one-line headline, the totals
 * table, the conditions, then <details> sections for the long lists. */
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "escape.h"

/* A cell's text, or a name in a line: nothing in it can end the cell or
 * the row, or become markdown or HTML (escape.h). */
static void cell(const char *s) { escape_markdown(stdout, s); }

/* t as a pipe table, then frees it. */
static void print_table(struct table *t) {
  putchar('|');
  for (int c = 0; c < t->columns; c++) {
    putchar(' ');
    cell(t->heading[c]);
    fputs(" |", stdout);
  }
  fputs("\n|", stdout);
  for (int c = 0; c < t->columns; c++)
    fputs(t->right_align[c] ? " ---: |" : " --- |", stdout);
  putchar('\n');
  for (size_t r = 0; r < t->rows; r++) {
    putchar('|');
    for (int c = 0; c < t->columns; c++) {
      putchar(' ');
      cell(t->cells[r * (size_t)t->columns + (size_t)c]);
      fputs(" |", stdout);
    }
    putchar('\n');
  }
  putchar('\n');
  table_free(t);
}

static void details_begin(const char *summary) {
  fputs("<details><summary>", stdout);
  cell(summary);
  fputs("</summary>\n\n", stdout);
}

static void details_end(void) { fputs("</details>\n\n", stdout); }

static void side(const struct report *r, const char *what) {
  /* <code>, not a code span: in one, the escapes would show. */
  printf("%s <code>", what);
  cell(r->path);
  printf("</code> (%llu run%s)", (unsigned long long)r->runs,
         r->runs == 1 ? "" : "s");
}

static void heading(const struct diff *d) {
  char line[1024];
  diff_headline(d, line, sizeof line);
  fputs("### mipdata diff: ", stdout);
  cell(line);
  fputs("\n\n", stdout);
  side(d->r[REPORT_BASE], "Base");
  side(d->r[REPORT_NEW], ", new");
  fputs(".\n\n", stdout);
  for (size_t i = 0; i < d->missing_count; i++) {
    fputs("> Not compared: ", stdout);
    cell(d->missing[i]);
    fputs("\n\n", stdout);
  }
}

static void conditions(const struct diff *d) {
  if (!d->o->condition_count)
    return;
  printf("**Conditions: %s**\n\n", d->failed ? "FAILED" : "passed");
  struct table t;
  diff_table_conditions(d, &t);
  print_table(&t);
}

/* Each row's short stack, in the row's order: what the SITE column
 * leaves out. */
static void stacks(const struct diff *d, const struct diff_list *l) {
  char stack[4096];
  for (size_t i = 0; i < l->shown; i++) {
    enum report_side side;
    const struct report_context *ctx =
        diff_context_of(d, &d->heap.contexts[l->at[i]], &side);
    diff_stack_text(d->r[side], ctx, DIFF_SHORT_STACK, stack, sizeof stack);
    printf("%zu. ", i + 1);
    cell(stack);
    putchar('\n');
  }
  if (l->shown)
    putchar('\n');
}

static void context_list(const struct diff *d, const char *what,
                         const struct diff_list *l) {
  if (!l->count)
    return;
  char summary[256];
  snprintf(summary, sizeof summary, "%s by %s: %zu of %zu", what,
           report_metrics[d->o->metric].key, l->shown, l->count);
  details_begin(summary);
  struct table t;
  diff_table_contexts(d, l, &t);
  print_table(&t);
  stacks(d, l);
  details_end();
}

static void heap(const struct diff *d) {
  const struct diff_heap *h = &d->heap;
  char line[1024];
  if (!h->compared)
    return;
  fputs("#### Heap\n\n", stdout);
  diff_matching_text(d, line, sizeof line);
  cell(line);
  fputs(".\n", stdout);
  diff_normalization_text(d, line, sizeof line);
  cell(line);
  fputs(".\n", stdout);
  diff_files_text(d, line, sizeof line);
  cell(line);
  diff_sampled_text(h, line, sizeof line);
  if (*line) {
    fputs(".\n", stdout);
    cell(line);
  }
  fputs(".\n", stdout);
  diff_wrappers_text(d, line, sizeof line);
  if (*line) {
    cell(line);
    fputs(".\n", stdout);
  }
  putchar('\n');
  struct table t;
  diff_table_totals(d, &t);
  print_table(&t);
  snprintf(line, sizeof line,
           "Ratios new/base over %zu matched contexts of at least %llu bytes",
           h->above_floor, (unsigned long long)d->o->min_bytes);
  details_begin(line);
  diff_table_ratios(d, &t);
  print_table(&t);
  details_end();
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
  printf("- %s (%zu): ", what, l->count);
  cell(names);
  putchar('\n');
}

static void functions(const struct diff *d) {
  const struct diff_functions *f = &d->functions;
  char line[1024];
  if (!f->compared)
    return;
  fputs("#### Functions\n\n", stdout);
  diff_coverage_text(d, line, sizeof line);
  cell(line);
  fputs(".\n\n", stdout);
  named(d, "Newly uncovered", &f->newly_uncovered);
  named(d, "Newly covered", &f->newly_covered);
  named(d, "Code changed (CFG hash)", &f->code_changed);
  if (f->order) {
    char what[64];
    snprintf(what, sizeof what, "Entered the first %llu called",
             (unsigned long long)d->o->first_called);
    named(d, what, &f->entered);
    snprintf(what, sizeof what, "Left the first %llu called",
             (unsigned long long)d->o->first_called);
    named(d, what, &f->left);
  }
  if (f->blocks)
    printf("- Blocks newly cold: %zu\n", f->cold_count);
  putchar('\n');
  if (f->calls && f->top_call_count) {
    snprintf(line, sizeof line,
             "Calls: %zu changed (base x %.6g), geomean ratio %.3f",
             f->call_count, f->calls_factor, f->call_ratios.geomean);
    details_begin(line);
    struct table t;
    diff_table_calls(d, &t);
    print_table(&t);
    details_end();
  }
}

void diff_print_markdown(const struct diff *d) {
  heading(d);
  conditions(d);
  heap(d);
  functions(d);
}
