/*
 * mipdata show -p PROFILE [--debug BINARY] [--covered|--uncovered]
 *              [--heap [--sort size|count]] [--data [--hot-share F]]
 *              [--format text|yaml|json] [-o FILE]
 * Per function: its name (mangled and demangled), whether any merged run
 * covered it and how many did, its calls and first-call order, its blocks
 * with their lines, and with --debug its source file and line; then the
 * sampled call edges. With --heap, the allocation contexts instead
 * (show_heap.c). With --data, the global variables of data mode instead
 * (show_data.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "emit.h"
#include "report_debug.h"
#include "report_emit.h"
#include "report_filter.h"
#include "report_text.h"
#include "show_data.h"
#include "show_heap.h"
#include "text_name.h"

enum filter { SHOW_ALL, SHOW_COVERED, SHOW_UNCOVERED };

struct show_options {
  const char *profile;
  const char *debug;
  enum filter filter;
  enum emit_format format;
  int heap;
  int data;
  double hot_share; /* with --data */
  enum heap_order order;
  struct report_filter filter_heap;
};

static int wanted(const struct show_options *o,
                  const struct report_function *f) {
  return o->filter == SHOW_ALL || (o->filter == SHOW_COVERED) == (f->runs > 0);
}

static size_t count_covered(const struct report *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->function_count; i++)
    n += r->functions[i].runs > 0;
  return n;
}

/* ---- structured output ---------------------------------------------- */

static void emit_edges(struct emitter *e, const struct report *r) {
  emit_u64(e, "edge_period", r->edge_period);
  emit_u64(e, "edge_samples_dropped", r->edge_samples_dropped);
  emit_array_begin(e, "edges");
  for (size_t i = 0; i < r->edge_count; i++) {
    const struct report_edge *edge = &r->edges[i];
    emit_object_begin(e, NULL);
    emit_string_or_null(e, "caller", edge->caller ? edge->caller->name : NULL);
    emit_string(e, "callee", edge->callee->name);
    emit_u64(e, "samples", edge->samples);
    emit_object_end(e);
  }
  emit_array_end(e);
}

static void show_structured(const struct show_options *o,
                            const struct report *r) {
  struct emitter e;
  emit_begin(&e, stdout, o->format);
  report_emit_profile(&e, r, &report_profile_json);
  emit_object_begin(&e, "summary");
  emit_u64(&e, "functions", r->function_count);
  emit_u64(&e, "covered", count_covered(r));
  if (r->has_block_counts)
    emit_u64(&e, "block_counts", r->block_counted);
  else
    emit_null(&e, "block_counts");
  emit_object_end(&e);
  emit_array_begin(&e, "functions");
  for (size_t i = 0; i < r->function_count; i++)
    if (wanted(o, &r->functions[i]))
      report_emit_function(&e, NULL, r, &r->functions[i],
                           &report_function_show);
  emit_array_end(&e);
  emit_edges(&e, r);
  emit_end(&e);
}

/* ---- text ----------------------------------------------------------- */

static void text_location(const struct report_function *f, char *out,
                          size_t size) {
  if (f->file)
    snprintf(out, size, "%s:%" PRIu32, f->file, f->line);
  else if (f->unit)
    snprintf(out, size, "%s (static)", f->unit);
  else
    snprintf(out, size, "-");
}

/* Columns: COVERED RUNS [CALLS] [ORDER] FUNCTION LOCATION */
static void text_table(const struct show_options *o, const struct report *r) {
  int calls = r->counted;
  int order = r->ordered;
  const char *heading[6] = {"COVERED", "RUNS"};
  int n = 2;
  if (calls)
    heading[n++] = "CALLS";
  if (order)
    heading[n++] = "ORDER";
  heading[n++] = "FUNCTION";
  heading[n++] = "LOCATION";
  struct table t;
  table_init(&t, n, heading);
  for (int i = 1; i < 2 + calls + order; i++)
    t.right_align[i] = 1;
  t.names[n - 2] = 1;
  for (size_t i = 0; i < r->function_count; i++) {
    const struct report_function *f = &r->functions[i];
    if (!wanted(o, f))
      continue;
    char runs[48], ncalls[32] = "-", rank[32] = "-", where[4096];
    snprintf(runs, sizeof runs, "%" PRIu64 "/%" PRIu64, f->runs, r->runs);
    if (f->counted)
      snprintf(ncalls, sizeof ncalls, "%" PRIu64, f->calls);
    if (f->ranked)
      snprintf(rank, sizeof rank, "%.1f", f->order);
    text_location(f, where, sizeof where);
    const char *cells[6] = {f->runs ? "yes" : "no", runs};
    int c = 2;
    if (calls)
      cells[c++] = ncalls;
    if (order)
      cells[c++] = rank;
    cells[c++] = f->demangled;
    cells[c++] = where;
    table_add(&t, cells);
  }
  table_print(&t, stdout);
  table_free(&t);
}

/* "line:HOT line:COLD ..." per function, as the blocks run in order. */
static void text_blocks(const struct show_options *o, const struct report *r) {
  if (!r->block_count)
    return;
  printf("\nBlocks (source line: HOT ran in some run, COLD in none):\n");
  for (size_t i = 0; i < r->function_count; i++) {
    const struct report_function *f = &r->functions[i];
    if (!f->block_count || !wanted(o, f))
      continue;
    fputs("  ", stdout);
    text_name_lines(stdout, 2, f->demangled);
    fputs("   ", stdout);
    for (uint32_t b = 0; b < f->block_count; b++)
      printf(" %" PRIu32 ":%s", f->blocks[b].line,
             f->blocks[b].covered_runs ? "HOT" : "COLD");
    putchar('\n');
  }
}

static void text_edges(const struct report *r) {
  if (!r->edge_period)
    return;
  printf("\nCall edges (sampled on the first call and every %" PRIu64
         " calls; %" PRIu64 " samples dropped):\n",
         r->edge_period, r->edge_samples_dropped);
  static const char *const heading[] = {"SAMPLES", "CALLER", "CALLEE"};
  struct table t;
  table_init(&t, 3, heading);
  t.right_align[0] = 1;
  t.names[1] = t.names[2] = 1;
  for (size_t i = 0; i < r->edge_count; i++) {
    const struct report_edge *e = &r->edges[i];
    char samples[32];
    snprintf(samples, sizeof samples, "%" PRIu64, e->samples);
    const char *cells[] = {samples,
                           e->caller ? e->caller->demangled : "(outside)",
                           e->callee->demangled};
    table_add(&t, cells);
  }
  table_print(&t, stdout);
  table_free(&t);
}

static void show_text(const struct show_options *o, const struct report *r) {
  size_t covered = count_covered(r);
  report_text_header(stdout, r);
  printf("Functions: %zu, covered %zu (%.1f%%)\n", r->function_count,
         covered,
         r->function_count
             ? 100.0 * (double)covered / (double)r->function_count
             : 0.0);
  if (r->has_block_counts)
    printf("Block counts: %zu function%s\n", r->block_counted,
           r->block_counted == 1 ? "" : "s");
  putchar('\n');
  text_table(o, r);
  text_blocks(o, r);
  text_edges(r);
}

/* ---- setup ---------------------------------------------------------- */

/* Fills o from the command line; CLI_GO_ON, or the status to exit with. */
static int parse_options(int argc, char **argv, struct show_options *o) {
  static const char *const sorts[] = {"size", "count", NULL};
  int covered = 0, uncovered = 0, format = EMIT_TEXT, sort = HEAP_BY_SIZE;
  const char *report_path = NULL;
  memset(o, 0, sizeof *o);
  struct mip_decide_options decide;
  mip_decide_defaults(&decide);
  o->hot_share = decide.hot_share;
  report_filter_init(&o->filter_heap);
  struct opt options[] = {
      OPT_PROFILE(&o->profile, "the profile to show"),
      OPT_DEBUG_LOCATIONS(&o->debug),
      OPT_FLAG("covered", &covered, "only the functions a run covered"),
      OPT_FLAG("uncovered", &uncovered, "only the functions no run covered"),
      OPT_FLAG("heap", &o->heap, "the allocation contexts instead"),
      OPT_FLAG("data", &o->data,
               "the global variables and their accesses instead"),
      opt_decide(MIP_DECIDE_HOT_SHARE, &o->hot_share),
      OPT_CHOICE("sort", &sort, sorts,
                 "with --heap: the most bytes, or allocations, first"),
      OPT_HEAP_FILTERS(&o->filter_heap),
      OPT_FORMAT(&format),
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "show", .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  if (covered && uncovered)
    return cli_error(&cli, "--covered and --uncovered exclude each other");
  if (o->heap && (covered || uncovered))
    return cli_error(&cli, "--heap takes no --covered or --uncovered");
  if (o->data && (o->heap || covered || uncovered))
    return cli_error(&cli,
                     "--data takes no --heap, --covered or --uncovered");
  if (cli_given(&cli, "hot-share") && !o->data)
    return cli_error(&cli, "--hot-share goes with --data");
  if (cli_given(&cli, "sort") && !o->heap)
    return cli_error(&cli, "--sort goes with --heap");
  if (report_filter_active(&o->filter_heap) && !o->heap)
    return cli_error(&cli, "--alloc, --min-size, --max-size, --live and "
                           "--frame go with --heap");
  char why[512];
  if (report_filter_compile(&o->filter_heap, why, sizeof why))
    return cli_error(&cli, "%s", why);
  o->filter = covered ? SHOW_COVERED : uncovered ? SHOW_UNCOVERED : SHOW_ALL;
  o->format = (enum emit_format)format;
  o->order = (enum heap_order)sort;
  return CLI_GO_ON;
}

int cmd_show(int argc, char **argv) {
  struct show_options o;
  int rc = parse_options(argc, argv, &o);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct report r;
  if (report_open_debug(o.profile, o.debug, !o.heap, &r, &err)) {
    report_filter_free(&o.filter_heap);
    return report(&err);
  }
  report_filter_apply(&r, &o.filter_heap);
  report_filter_free(&o.filter_heap);
  if (o.heap)
    show_heap(&r, o.format, o.order);
  else if (o.data)
    show_data(&r, o.format, o.hot_share);
  else if (o.format == EMIT_TEXT)
    show_text(&o, &r);
  else
    show_structured(&o, &r);
  report_free(&r);
  return 0;
}
