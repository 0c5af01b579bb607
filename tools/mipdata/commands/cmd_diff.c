/*
 * mipdata diff BASE NEW [--format text|markdown|json] [--fail-on EXPR]...
 *              [--match source|lines] [--path-map OLD=NEW]...
 *              [--wrapper NAME]... [--normalize none|runs|total]
 *              [--metric NAME] [--min-bytes N] [--top N] [--first N]
 *              [-o FILE]
 * What changed from one profile to another, of two builds of a program:
 * heap contexts, coverage, calls, first-call order, blocks, matched by
 * source (report_match.h), never by index or address, files by their
 * names relative to each build's root (report_path.c), so that two
 * checkouts in two directories match. --fail-on makes it a CI gate: exit
 * 3 when a condition holds (diff_gate.c), after the report is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diff.h"

/* The status of a diff whose --fail-on conditions failed (1 is an error,
 * 2 a usage error). */
#define DIFF_FAILED 3

static const char *const format_names[] = {"text", "markdown", "json", NULL};

static int parse_conditions(struct cli *cli, const struct opt_list *exprs,
                            struct diff_options *o) {
  o->conditions = mip_xcalloc(exprs->n + 1, sizeof *o->conditions);
  for (size_t i = 0; i < exprs->n; i++) {
    char why[256];
    if (diff_condition_parse(exprs->v[i], &o->conditions[i], why, sizeof why))
      return cli_error(cli, "--fail-on '%s': %s", exprs->v[i], why);
    o->condition_count++;
  }
  return CLI_GO_ON;
}

static int parse_path_maps(struct cli *cli, const struct opt_list *rules,
                           struct diff_options *o) {
  struct report_path_map *maps = mip_xcalloc(rules->n + 1, sizeof *maps);
  o->paths.maps = maps;
  for (size_t i = 0; i < rules->n; i++) {
    char why[256];
    if (report_path_map_parse(rules->v[i], &maps[i], why, sizeof why))
      return cli_error(cli, "--path-map '%s': %s", rules->v[i], why);
    o->paths.count++;
  }
  return CLI_GO_ON;
}

static void free_options(struct diff_options *o) {
  for (size_t i = 0; i < o->condition_count; i++)
    diff_condition_free(o->conditions[i]);
  free(o->conditions);
  for (size_t i = 0; i < o->paths.count; i++)
    report_path_map_free((struct report_path_map *)&o->paths.maps[i]);
  free((struct report_path_map *)o->paths.maps);
  free((char **)o->wrappers);
  report_filter_free(&o->filter);
}

/* Fills o from the command line; CLI_GO_ON, or the status to exit with. */
static int parse_options(int argc, char **argv, struct diff_options *o) {
  int format = DIFF_TEXT, match = REPORT_MATCH_SOURCE;
  int normalize = REPORT_NORMALIZE_RUNS, metric = REPORT_BYTES;
  struct opt_list exprs = {0}, rules = {0}, wrappers = {0};
  const char *report_path = NULL; /* the sink takes it (OPT_REPORT) */
  memset(o, 0, sizeof *o);
  o->min_bytes = DIFF_DEFAULT_MIN_BYTES;
  o->top = 10;
  o->first_called = 20;
  report_filter_init(&o->filter);
  struct opt options[] = {
      OPT_CHOICE("format", &format, format_names, "how to print the report"),
      OPT_STRINGS("fail-on", 0, &exprs, "EXPR",
                  "exit 3 when EXPR holds (docs/mipdata.md#diff: the "
                  "grammar)"),
      OPT_CHOICE("match", &match, report_match_names,
                 "match by source with lines left out, or by source lines"),
      OPT_STRINGS("path-map", 0, &rules, "OLD=NEW",
                  "name the files under OLD as under NEW for matching "
                  "(absolute OLD: before the build root is taken off)"),
      OPT_STRINGS("wrapper", 0, &wrappers, "NAME",
                  "a function that only passes allocations on: rows are "
                  "named by its caller"),
      OPT_NORMALIZE(&normalize, "compare per run, as they are, or as "
                                "shares of the total"),
      OPT_METRIC(&metric, "the metric that ranks the lists of contexts"),
      OPT_UINT("min-bytes", &o->min_bytes, 0, UINT64_MAX, "N",
               "the noise floor: ratios count contexts of at least N bytes"),
      OPT_UINT("top", &o->top, 1, 1000000, "N", "entries per list"),
      OPT_UINT("first", &o->first_called, 1, UINT32_MAX, "N",
               "the first N functions called, whose entries and exits "
               "are listed"),
      OPT_HEAP_FILTERS(&o->filter),
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "diff", .operands = "BASE NEW",
                    .noun = "profile", .min = 0, .max = -1,
                    .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc == CLI_GO_ON && cli.operand_count != 2)
    rc = cli_error(&cli, "expects two profiles, BASE and NEW");
  if (rc == CLI_GO_ON)
    rc = parse_conditions(&cli, &exprs, o);
  if (rc == CLI_GO_ON)
    rc = parse_path_maps(&cli, &rules, o);
  if (rc == CLI_GO_ON)
    rc = report_filter_parsed(&cli, &o->filter);
  if (rc == CLI_GO_ON) {
    o->path[REPORT_BASE] = cli.operand[0];
    o->path[REPORT_NEW] = cli.operand[1];
    o->format = (enum diff_format)format;
    o->match = (enum report_match_mode)match;
    o->normalize = (enum report_normalize)normalize;
    o->metric = (enum report_metric)metric;
    o->wrappers = mip_xcalloc(wrappers.n + 1, sizeof *o->wrappers);
    if (wrappers.n)
      memcpy((char **)o->wrappers, wrappers.v,
             wrappers.n * sizeof *wrappers.v);
    o->wrapper_count = wrappers.n;
  }
  cli_free(&cli);
  return rc;
}

/* What a side can lack, said of base and of new: one note each. */
enum lack { NO_RUN, NO_HEAP, NO_ACCESSES, NO_FUNCTIONS, NO_CALLS, LACKS };
static const char *const lack_text[LACKS][REPORT_SIDES] = {
    [NO_RUN] = {"base has no run: its counts are 0",
                "new has no run: its counts are 0"},
    [NO_HEAP] = {"base has no heap data: the heap is not compared",
                 "new has no heap data: the heap is not compared"},
    [NO_ACCESSES] = {"base counted no accesses (heap-allocs): accesses and "
                     "density are not compared",
                     "new counted no accesses (heap-allocs): accesses and "
                     "density are not compared"},
    [NO_FUNCTIONS] = {"base has no functions: functions are not compared",
                      "new has no functions: functions are not compared"},
    [NO_CALLS] = {"base has no call counts: calls are not compared",
                  "new has no call counts: calls are not compared"},
};

static void missing(struct diff *d, int s, enum lack what) {
  note(d->r[s]->path, "%s", lack_text[what][s]);
  if (d->missing_count < sizeof d->missing / sizeof *d->missing)
    d->missing[d->missing_count++] = lack_text[what][s];
}

/* What one side lacks: one line each, and the rest is compared. */
static void check_sides(struct diff *d) {
  for (int s = 0; s < REPORT_SIDES; s++) {
    const struct report *x = d->r[s], *other = d->r[!s];
    if (!x->runs)
      missing(d, s, NO_RUN);
    if (!x->has_heap && other->has_heap)
      missing(d, s, NO_HEAP);
    if (x->has_heap && other->has_heap && x->stats.heap.uncounted &&
        !other->stats.heap.uncounted)
      missing(d, s, NO_ACCESSES);
    if (!x->function_count && other->function_count)
      missing(d, s, NO_FUNCTIONS);
    if (!x->counted && other->counted)
      missing(d, s, NO_CALLS);
  }
}

/* Two profiles of one build: its build-id, else NULL. */
static const char *one_build(const struct report *const r[REPORT_SIDES]) {
  const char *id = r[REPORT_BASE]->build_id;
  return *id && !strcmp(id, r[REPORT_NEW]->build_id) ? id : NULL;
}

/* Little matched: why, as far as the profiles tell. */
static void warn_low_match(const struct diff *d) {
  const struct diff_heap *h = &d->heap;
  if (!h->compared || !h->match.group_count || h->matched_count >= DIFF_LOW_MATCH)
    return;
  const char *id = one_build(d->r);
  if (id)
    warning("only %.1f%% of the heap contexts matched (%.1f%% of bytes), "
            "though both profiles are of one build (build-id %s): the runs "
            "allocated on other paths (other input, options or host "
            "program)",
            100.0 * h->matched_count, 100.0 * h->matched_bytes, id);
  else
    warning("only %.1f%% of the heap contexts matched (%.1f%% of bytes): "
            "are these two builds of one program? (files relative to the "
            "build roots %s and %s; --path-map maps one layout to another)",
            100.0 * h->matched_count, 100.0 * h->matched_bytes,
            d->r[REPORT_BASE]->root ? d->r[REPORT_BASE]->root : "(none)",
            d->r[REPORT_NEW]->root ? d->r[REPORT_NEW]->root : "(none)");
}

/* Keys again when the command line or the pair asks for others than
 * report_open made: --path-map rules, and, for two profiles of one
 * build (one library under two programs), contexts keyed by that
 * image's frames alone. */
static void rekey(struct report r[REPORT_SIDES], const struct diff_options *o) {
  const struct report *const both[REPORT_SIDES] = {&r[REPORT_BASE],
                                                   &r[REPORT_NEW]};
  int image_only = one_build(both) != NULL;
  if (!o->paths.count && !image_only)
    return;
  for (int s = 0; s < REPORT_SIDES; s++)
    report_rekey(&r[s], o->paths.count ? &o->paths : NULL, image_only);
}

static void print(const struct diff *d) {
  if (d->o->format == DIFF_JSON)
    diff_print_json(d);
  else if (d->o->format == DIFF_MARKDOWN)
    diff_print_markdown(d);
  else
    diff_print_text(d);
}

static int run(struct diff_options *o) {
  struct mip_error err;
  struct report r[REPORT_SIDES];
  /* Each profile's bytes go once its model is built: diff decides
   * nothing, and holds two. */
  if (report_open(o->path[REPORT_BASE], &r[REPORT_BASE], &err))
    return report(&err);
  report_filter_apply(&r[REPORT_BASE], &o->filter);
  report_drop_view(&r[REPORT_BASE]);
  if (report_open(o->path[REPORT_NEW], &r[REPORT_NEW], &err)) {
    report_free(&r[REPORT_BASE]);
    return report(&err);
  }
  report_filter_apply(&r[REPORT_NEW], &o->filter);
  report_drop_view(&r[REPORT_NEW]);
  o->colour = o->format == DIFF_TEXT && output_to_terminal();
  rekey(r, o);
  struct diff d = {.r = {&r[REPORT_BASE], &r[REPORT_NEW]}, .o = o};
  check_sides(&d);
  if (report_metric_check(d.r[REPORT_BASE], d.r[REPORT_NEW], o->metric,
                          &err)) {
    report_free(&r[REPORT_BASE]);
    report_free(&r[REPORT_NEW]);
    return report(&err);
  }
  diff_wrappers_find(&d.wrappers, d.r, o);
  diff_heap(&d.heap, d.r, o);
  diff_functions(&d.functions, d.r, o);
  warn_low_match(&d);
  diff_gate(&d);
  print(&d);
  int rc = 0;
  /* A failed gate still delivers its report: committed here, as
   * output_run would for a status of 0. */
  if (d.failed)
    rc = output_commit(&err) ? report(&err) : DIFF_FAILED;
  diff_heap_free(&d.heap);
  diff_functions_free(&d.functions);
  diff_wrappers_free(&d.wrappers);
  report_free(&r[REPORT_BASE]);
  report_free(&r[REPORT_NEW]);
  return rc;
}

int cmd_diff(int argc, char **argv) {
  struct diff_options o;
  int rc = parse_options(argc, argv, &o);
  if (rc == CLI_GO_ON)
    rc = run(&o);
  free_options(&o);
  return rc;
}
