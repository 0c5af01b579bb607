/*
 * mipdata show -p PROFILE [--debug BINARY] [--covered|--uncovered]
 *              [--heap [--sort size|count]] [--format text|yaml|json]
 *              [-o FILE]
 * Per function: its name (mangled and demangled), whether any merged run
 * covered it and how many did, its calls and first-call order, its blocks
 * with their lines, and with --debug its source file and line; then the
 * sampled call edges. With --heap, the allocation contexts instead
 * (show_heap.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "debuginfo.h"
#include "demangle.h"
#include "elf_image.h"
#include "emit.h"
#include "show_heap.h"

enum filter { SHOW_ALL, SHOW_COVERED, SHOW_UNCOVERED };

struct show_options {
  const char *profile;
  const char *debug;
  enum filter filter;
  enum emit_format format;
  int heap;
  enum heap_order order;
};

/* One function as shown, whatever the format. */
struct row {
  const struct mip_profile_function *f;
  const char *name;
  char *demangled;
  const char *unit; /* NULL unless local */
  int covered;
  const char *file; /* NULL when unknown */
  uint32_t line;
};

static void fill_row(const struct mip_profile *p,
                     const struct mip_profile_function *f,
                     const struct debuginfo *di, struct row *r) {
  r->f = f;
  r->name = mip_profile_string(p, f->name);
  r->demangled = demangle(r->name);
  r->unit = (f->flags & MIP_FN_LOCAL) ? mip_profile_string(p, f->unit) : NULL;
  r->covered = f->covered_runs > 0;
  r->file = NULL;
  r->line = 0;
  if (di && debuginfo_lookup(di, f->entry, &r->file, &r->line) != 0)
    r->file = NULL;
}

static int wanted(const struct show_options *o, const struct row *r) {
  return o->filter == SHOW_ALL ||
         (o->filter == SHOW_COVERED) == (r->covered != 0);
}

static size_t count_covered(const struct mip_profile *p) {
  size_t n = 0;
  for (size_t i = 0; i < p->function_count; i++)
    n += p->functions[i].covered_runs > 0;
  return n;
}

static int counted(const struct mip_profile_function *f) {
  return f->cnt_offset != MIP_NO_OFFSET;
}

static int ranked(const struct mip_profile_function *f) {
  return f->ord_offset != MIP_NO_OFFSET && f->ranked_runs > 0;
}

static double mean_rank(const struct mip_profile_function *f) {
  return (double)f->rank_sum / (double)f->ranked_runs;
}

static const char *function_name(const struct mip_profile *p, uint32_t i) {
  return i == MIP_NO_FUNCTION ? NULL
                              : mip_profile_string(p, p->functions[i].name);
}

/* ---- structured output ---------------------------------------------- */

static void emit_blocks(struct emitter *e, const struct mip_profile *p,
                        const struct mip_profile_function *f) {
  if (!f->block_count) {
    emit_null(e, "blocks");
    return;
  }
  emit_array_begin(e, "blocks");
  for (uint32_t i = 0; i < f->block_count; i++) {
    const struct mip_block *b = &p->blocks[f->first_block + i];
    emit_object_begin(e, NULL);
    emit_u64(e, "index", i);
    if (b->line)
      emit_u64(e, "line", b->line);
    else
      emit_null(e, "line");
    emit_bool(e, "covered", b->covered_runs > 0);
    emit_u64(e, "covered_runs", b->covered_runs);
    emit_bool(e, "probed", b->probe != MIP_PROBE_NONE);
    emit_object_end(e);
  }
  emit_array_end(e);
}

static void emit_row(struct emitter *e, const struct mip_profile *p,
                     const struct row *r) {
  emit_object_begin(e, NULL);
  emit_string(e, "name", r->name);
  emit_string(e, "demangled", r->demangled);
  emit_bool(e, "local", r->unit != NULL);
  emit_string_or_null(e, "unit", r->unit);
  emit_bool(e, "covered", r->covered);
  emit_u64(e, "covered_runs", r->f->covered_runs);
  emit_string_or_null(e, "file", r->file);
  if (r->file)
    emit_u64(e, "line", r->line);
  else
    emit_null(e, "line");
  if (counted(r->f))
    emit_u64(e, "calls", r->f->calls);
  else
    emit_null(e, "calls");
  if (ranked(r->f))
    emit_double(e, "order", mean_rank(r->f));
  else
    emit_null(e, "order");
  emit_u64(e, "order_runs", r->f->ranked_runs);
  emit_blocks(e, p, r->f);
  emit_object_end(e);
}

static void emit_edges(struct emitter *e, const struct mip_profile *p) {
  emit_u64(e, "edge_period", p->edge_period);
  emit_u64(e, "edge_samples_dropped", p->edge_samples_dropped);
  emit_array_begin(e, "edges");
  for (size_t i = 0; i < p->edge_count; i++) {
    const struct mip_edge *edge = &p->edges[i];
    emit_object_begin(e, NULL);
    emit_string_or_null(e, "caller", function_name(p, edge->caller));
    emit_string(e, "callee", function_name(p, edge->callee));
    emit_u64(e, "samples", edge->samples);
    emit_object_end(e);
  }
  emit_array_end(e);
}

static void show_structured(const struct show_options *o,
                            const struct mip_profile *p,
                            const struct debuginfo *di) {
  char id[2 * MIP_BUILD_ID_MAX + 1];
  struct emitter e;
  emit_begin(&e, stdout, o->format);
  emit_string(&e, "profile", o->profile);
  emit_string(&e, "build_id", mip_build_id_hex(&p->build_id, id, sizeof id));
  emit_u64(&e, "runs", p->runs);
  emit_object_begin(&e, "summary");
  emit_u64(&e, "functions", p->function_count);
  emit_u64(&e, "covered", count_covered(p));
  emit_object_end(&e);
  emit_array_begin(&e, "functions");
  for (size_t i = 0; i < p->function_count; i++) {
    struct row r;
    fill_row(p, &p->functions[i], di, &r);
    if (wanted(o, &r))
      emit_row(&e, p, &r);
    free(r.demangled);
  }
  emit_array_end(&e);
  emit_edges(&e, p);
  emit_end(&e);
}

/* ---- text ----------------------------------------------------------- */

static void text_location(const struct row *r, char *out, size_t size) {
  if (r->file)
    snprintf(out, size, "%s:%" PRIu32, r->file, r->line);
  else if (r->unit)
    snprintf(out, size, "%s (static)", r->unit);
  else
    snprintf(out, size, "-");
}

/* Columns: COVERED RUNS [CALLS] [ORDER] FUNCTION LOCATION */
static void text_table(const struct show_options *o,
                       const struct mip_profile *p,
                       const struct debuginfo *di) {
  int calls = mip_profile_has(p, MIP_RAW_CNT);
  int order = mip_profile_has(p, MIP_RAW_ORD);
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
  for (size_t i = 0; i < p->function_count; i++) {
    struct row r;
    fill_row(p, &p->functions[i], di, &r);
    if (wanted(o, &r)) {
      char runs[48], ncalls[32] = "-", rank[32] = "-", where[4096];
      snprintf(runs, sizeof runs, "%" PRIu64 "/%" PRIu64, r.f->covered_runs,
               p->runs);
      if (counted(r.f))
        snprintf(ncalls, sizeof ncalls, "%" PRIu64, r.f->calls);
      if (ranked(r.f))
        snprintf(rank, sizeof rank, "%.1f", mean_rank(r.f));
      text_location(&r, where, sizeof where);
      const char *cells[6] = {r.covered ? "yes" : "no", runs};
      int c = 2;
      if (calls)
        cells[c++] = ncalls;
      if (order)
        cells[c++] = rank;
      cells[c++] = r.demangled;
      cells[c++] = where;
      table_add(&t, cells);
    }
    free(r.demangled);
  }
  table_print(&t, stdout);
  table_free(&t);
}

/* "line:HOT line:COLD ..." per function, as the blocks run in order. */
static void text_blocks(const struct show_options *o,
                        const struct mip_profile *p) {
  if (!p->block_count)
    return;
  printf("\nBlocks (source line: HOT ran in some run, COLD in none):\n");
  for (size_t i = 0; i < p->function_count; i++) {
    const struct mip_profile_function *f = &p->functions[i];
    struct row r = {.f = f, .covered = f->covered_runs > 0};
    if (!f->block_count || !wanted(o, &r))
      continue;
    char *name = demangle(mip_profile_string(p, f->name));
    printf("  %s\n   ", name);
    free(name);
    for (uint32_t b = 0; b < f->block_count; b++) {
      const struct mip_block *blk = &p->blocks[f->first_block + b];
      printf(" %" PRIu32 ":%s", blk->line, blk->covered_runs ? "HOT" : "COLD");
    }
    putchar('\n');
  }
}

static void text_edges(const struct mip_profile *p) {
  if (!p->edge_period)
    return;
  printf("\nCall edges (sampled on the first call and every %" PRIu64
         " calls; %" PRIu64 " samples dropped):\n",
         p->edge_period, p->edge_samples_dropped);
  static const char *const heading[] = {"SAMPLES", "CALLER", "CALLEE"};
  struct table t;
  table_init(&t, 3, heading);
  t.right_align[0] = 1;
  for (size_t i = 0; i < p->edge_count; i++) {
    const struct mip_edge *e = &p->edges[i];
    char samples[32];
    snprintf(samples, sizeof samples, "%" PRIu64, e->samples);
    char *caller = e->caller == MIP_NO_FUNCTION
                       ? mip_xstrdup("(outside)")
                       : demangle(function_name(p, e->caller));
    char *callee = demangle(function_name(p, e->callee));
    const char *cells[] = {samples, caller, callee};
    table_add(&t, cells);
    free(caller);
    free(callee);
  }
  table_print(&t, stdout);
  table_free(&t);
}

static void show_text(const struct show_options *o,
                      const struct mip_profile *p,
                      const struct debuginfo *di) {
  char id[2 * MIP_BUILD_ID_MAX + 1];
  size_t covered = count_covered(p);
  printf("Profile %s: build-id %s, %" PRIu64 " run%s\n", o->profile,
         mip_build_id_hex(&p->build_id, id, sizeof id), p->runs,
         p->runs == 1 ? "" : "s");
  printf("Functions: %zu, covered %zu (%.1f%%)\n\n", p->function_count,
         covered,
         p->function_count ? 100.0 * (double)covered / (double)p->function_count
                           : 0.0);
  text_table(o, p, di);
  text_blocks(o, p);
  text_edges(p);
}

/* ---- setup ---------------------------------------------------------- */

/* Fills o from the command line; CLI_GO_ON, or the status to exit with. */
static int parse_options(int argc, char **argv, struct show_options *o) {
  static const char *const sorts[] = {"size", "count", NULL};
  int covered = 0, uncovered = 0, format = EMIT_TEXT, sort = HEAP_BY_SIZE;
  const char *report_path = NULL;
  memset(o, 0, sizeof *o);
  struct opt options[] = {
      OPT_PROFILE(&o->profile, "the profile to show"),
      OPT_DEBUG_LOCATIONS(&o->debug),
      OPT_FLAG("covered", &covered, "only the functions a run covered"),
      OPT_FLAG("uncovered", &uncovered, "only the functions no run covered"),
      OPT_FLAG("heap", &o->heap, "the allocation contexts instead"),
      OPT_CHOICE("sort", &sort, sorts,
                 "with --heap: the most bytes, or allocations, first"),
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
  if (cli_given(&cli, "sort") && !o->heap)
    return cli_error(&cli, "--sort goes with --heap");
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
  struct mip_profile p;
  struct debuginfo *di = NULL;
  if (mip_profile_read(o.profile, &p, &err) ||
      (o.debug && (elf_image_check_build(o.debug, &p.build_id, &err) ||
                   !(di = debuginfo_open(o.debug, &err))))) {
    mip_profile_free(&p);
    return report(&err);
  }
  if (!o.heap)
    debuginfo_note_program(di, o.debug);
  if (o.heap)
    show_heap(o.profile, &p, o.format, o.order);
  else if (o.format == EMIT_TEXT)
    show_text(&o, &p, di);
  else
    show_structured(&o, &p, di);
  debuginfo_close(di);
  mip_profile_free(&p);
  return 0;
}
