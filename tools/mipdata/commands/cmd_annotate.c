/*
 * mipdata annotate -p PROFILE [--debug BINARY] [--format text|yaml|json]
 *                  [--hot-share F] [--cold-max-density F]
 *                  [--cold-min-lifetime SECONDS] [--hot-min-density F]
 *                  [--all] [-o FILE]
 * What a rebuild with the profile (mipcc -fmip-use) decides: the hot and
 * cold functions, and the class of each allocation site, with the numbers
 * behind each decision. The report model (report.h) reads the profile
 * through the same view and decides with the same calls (lib/decide.c) as
 * the compiler's profile-use pass, so the two cannot disagree; this file
 * chooses what to list and prints it. Everything is checked and decided
 * before anything is printed (and the output sink holds what is printed
 * until the command succeeds): on bad input, stdout stays empty.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "emit.h"
#include "escape.h"
#include "report_debug.h"
#include "report_emit.h"
#include "report_filter.h"
#include "report_text.h"

struct annotate_cmd {
  const char *profile;
  const char *debug;
  enum emit_format format;
  int all; /* warm functions too */
  struct mip_decide_options decide;
  struct report_filter filter_heap; /* the contexts listed */
};

/* How sites are counted: the four groups partition the listed sites. */
enum site_group { GROUP_COLD, GROUP_HOT, GROUP_NOTCOLD, GROUP_MIXED, GROUPS };

static const char *const group_names[GROUPS] = {"cold", "hot", "notcold",
                                                "mixed"};

/* What annotate lists of the decided model. */
struct annotation {
  const struct report *r;
  const struct report_function **fns;
  size_t fn_count;
  const struct report_site **sites;
  size_t site_count;
  size_t groups[GROUPS];
};

/* ---- functions ----------------------------------------------------------- */

/* Hot first, then warm, then cold; the most calls first; then as in the
 * profile (by name). */
static int function_order(const void *a, const void *b) {
  static const int rank[] = {[MIP_TEMP_HOT] = 0,
                             [MIP_TEMP_WARM] = 1,
                             [MIP_TEMP_COLD] = 2,
                             [MIP_TEMP_UNKNOWN] = 3};
  const struct report_function *x = *(const struct report_function *const *)a;
  const struct report_function *y = *(const struct report_function *const *)b;
  if (rank[x->temperature] != rank[y->temperature])
    return rank[x->temperature] - rank[y->temperature];
  if (x->calls != y->calls)
    return x->calls > y->calls ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static void list_functions(const struct annotate_cmd *o,
                           struct annotation *a) {
  const struct report *r = a->r;
  a->fns = mip_xcalloc(r->function_count + 1, sizeof *a->fns);
  for (size_t i = 0; i < r->function_count; i++) {
    const struct report_function *f = &r->functions[i];
    if (f->temperature == MIP_TEMP_UNKNOWN ||
        (f->temperature == MIP_TEMP_WARM && !o->all))
      continue;
    a->fns[a->fn_count++] = f;
  }
  qsort(a->fns, a->fn_count, sizeof *a->fns, function_order);
}

/* ---- allocation sites ---------------------------------------------------- */

static int more_site_bytes_first(const void *a, const void *b) {
  const struct report_site *x = *(const struct report_site *const *)a;
  const struct report_site *y = *(const struct report_site *const *)b;
  if (x->decision.total.bytes != y->decision.total.bytes)
    return x->decision.total.bytes > y->decision.total.bytes ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static uint64_t contexts_of(const struct mip_site_decision *d) {
  uint64_t n = 0;
  for (int k = 0; k < MIP_CLASS_COUNT; k++)
    n += d->contexts[k];
  return n;
}

static enum site_group group_of(const struct report_site *s) {
  return s->decision.mixed                           ? GROUP_MIXED
         : s->decision.alloc_class == MIP_CLASS_COLD ? GROUP_COLD
         : s->decision.alloc_class == MIP_CLASS_HOT  ? GROUP_HOT
                                                     : GROUP_NOTCOLD;
}

/* Every site whose allocator allocates and that has a context with
 * allocations, as the compiler decides it. */
static void list_sites(struct annotation *a) {
  const struct report *r = a->r;
  a->sites = mip_xcalloc(r->site_count + 1, sizeof *a->sites);
  if (!r->runs || !r->has_heap)
    return;
  for (size_t i = 0; i < r->site_count; i++) {
    const struct report_site *s = &r->sites[i];
    if (!mip_allocator_allocates(s->allocator) || !contexts_of(&s->decision))
      continue;
    a->sites[a->site_count++] = s;
    a->groups[group_of(s)]++;
  }
  qsort(a->sites, a->site_count, sizeof *a->sites, more_site_bytes_first);
}

/* ---- YAML and JSON ------------------------------------------------------- */

static void emit_summary(struct emitter *e, const struct annotate_cmd *o,
                         const struct annotation *a) {
  const struct report *r = a->r;
  emit_object_begin(e, "summary");
  emit_u64(e, "runs", r->runs);
  emit_object_begin(e, "functions");
  emit_u64(e, "total", r->function_count);
  emit_u64(e, "hot", r->temperatures[MIP_TEMP_HOT]);
  emit_u64(e, "cold", r->temperatures[MIP_TEMP_COLD]);
  emit_u64(e, "warm", r->temperatures[MIP_TEMP_WARM]);
  emit_object_end(e);
  if (r->runs && r->hot_threshold != UINT64_MAX)
    emit_u64(e, "hot_threshold", r->hot_threshold);
  else
    emit_null(e, "hot_threshold");
  emit_double(e, "hot_share", o->decide.hot_share);
  emit_object_begin(e, "sites");
  emit_u64(e, "total", a->site_count);
  for (int g = 0; g < GROUPS; g++)
    emit_u64(e, group_names[g], a->groups[g]);
  emit_object_end(e);
  emit_object_end(e);
}

static void annotate_structured(const struct annotate_cmd *o,
                                const struct annotation *a, FILE *out) {
  const struct report *r = a->r;
  struct emitter e;
  emit_begin(&e, out, o->format);
  report_emit_profile(&e, r, &report_profile_json);
  emit_bool(&e, "counts", r->counted);
  emit_bool(&e, "heap", r->has_heap);
  emit_object_begin(&e, "options");
  emit_double(&e, "hot_share", o->decide.hot_share);
  emit_double(&e, "cold_max_density", o->decide.cold_max_density);
  emit_double(&e, "cold_min_lifetime", o->decide.cold_min_lifetime);
  emit_double(&e, "hot_min_density", o->decide.hot_min_density);
  emit_bool(&e, "all", o->all);
  emit_object_end(&e);
  emit_summary(&e, o, a);
  emit_array_begin(&e, "functions");
  for (size_t i = 0; i < a->fn_count; i++)
    report_emit_function(&e, NULL, r, a->fns[i], &report_function_annotate);
  emit_array_end(&e);
  emit_array_begin(&e, "allocations");
  for (size_t i = 0; i < a->site_count; i++)
    report_emit_site(&e, NULL, r, a->sites[i], &report_site_annotate);
  emit_array_end(&e);
  emit_end(&e);
}

/* ---- text ---------------------------------------------------------------- */

static void text_summary(const struct annotate_cmd *o,
                         const struct annotation *a, FILE *out) {
  const struct report *r = a->r;
  fprintf(out, "Functions: %zu hot, %zu cold, %zu warm (of %zu)",
          r->temperatures[MIP_TEMP_HOT], r->temperatures[MIP_TEMP_COLD],
          r->temperatures[MIP_TEMP_WARM], r->function_count);
  if (!r->counted)
    fputs("; no call counts, so none is hot\n", out);
  else if (r->hot_threshold == UINT64_MAX && !(o->decide.hot_share > 0))
    fputs("; a hot share of 0, so none is hot\n", out);
  else if (r->hot_threshold == UINT64_MAX)
    fputs("; no calls counted, so none is hot\n", out);
  else
    fprintf(out,
            "; hot: %" PRIu64 " call%s or more (the most-called, making "
            "%g%% of all calls)\n",
            r->hot_threshold, report_plural(r->hot_threshold),
            o->decide.hot_share * 100);
  if (!r->has_heap) {
    fprintf(out, "Allocation sites: no heap data: %s\n",
            report_no_heap_reason(r));
    return;
  }
  fprintf(out,
          "Allocation sites: %zu with allocations: %zu cold, %zu hot, "
          "%zu notcold, %zu mixed (left notcold)\n",
          a->site_count, a->groups[GROUP_COLD], a->groups[GROUP_HOT],
          a->groups[GROUP_NOTCOLD], a->groups[GROUP_MIXED]);
  fprintf(out,
          "Rules: cold below %g accesses/byte/s with a mean lifetime of %g s "
          "or more; hot above %g accesses/byte/s\n",
          o->decide.cold_max_density, o->decide.cold_min_lifetime,
          o->decide.hot_min_density);
}

/* Columns: DECISION CALLS RUNS FUNCTION [SYMBOL] LOCATION; SYMBOL (the
 * mangled name) only when a listed name is mangled. */
static void text_functions(const struct annotation *a, FILE *out) {
  int mangled = 0;
  for (size_t i = 0; i < a->fn_count; i++)
    mangled |= a->fns[i]->name[0] == '_' && a->fns[i]->name[1] == 'Z';
  const char *heading[6] = {"DECISION", "CALLS", "RUNS", "FUNCTION"};
  int n = 4;
  if (mangled)
    heading[n++] = "SYMBOL";
  heading[n++] = "LOCATION";
  struct table t;
  table_init(&t, n, heading);
  t.right_align[1] = t.right_align[2] = 1;
  t.names[3] = 1;
  t.names[4] = mangled; /* SYMBOL */
  for (size_t i = 0; i < a->fn_count; i++) {
    const struct report_function *f = a->fns[i];
    char calls[32] = "-", runs[48], function[4096], where[4096] = "-";
    if (f->counted)
      snprintf(calls, sizeof calls, "%" PRIu64, f->calls);
    snprintf(runs, sizeof runs, "%" PRIu64 "/%" PRIu64, f->runs, a->r->runs);
    if (f->unit)
      snprintf(function, sizeof function, "%s (static, %s)", f->demangled,
               f->unit);
    else
      snprintf(function, sizeof function, "%s", f->demangled);
    if (f->file)
      snprintf(where, sizeof where, "%s:%" PRIu32, f->file, f->line);
    const char *cells[6] = {mip_temperature_name(f->temperature), calls, runs,
                            function};
    int c = 4;
    if (mangled)
      cells[c++] = f->name;
    cells[c++] = where;
    table_add(&t, cells);
  }
  table_print(&t, out);
  table_free(&t);
}

/* "FILE:LINE:COLUMN in F", and ", inlined into G" when the call was
 * compiled into another function (the one whose rebuild hints it); or
 * "in G" alone for code built without -g (then returns 0). */
static int site_location(const struct report_site *s, char *out,
                         size_t size) {
  const struct report_function *into = s->instrumented;
  if (!s->file && !*s->function) {
    snprintf(out, size, "in %s", into->demangled);
    return 0;
  }
  int n = snprintf(out, size, "%s:%" PRIu32 ":%" PRIu32 " in %s",
                   s->file ? s->file : "??", s->line, s->column, s->demangled);
  if (strcmp(s->function, into->name) != 0 && n >= 0 && (size_t)n < size)
    snprintf(out + n, size - (size_t)n, ", inlined into %s", into->demangled);
  return 1;
}

static const char *site_class(const struct report_site *s) {
  return s->decision.mixed ? "notcold (mixed)"
                           : mip_alloc_class_name(s->decision.alloc_class);
}

/* The numbers as the compiler's remarks give them. */
static void stats_text(const struct mip_alloc_stats *s, FILE *out) {
  fprintf(out,
          "%" PRIu64 " allocation%s, %" PRIu64 " bytes, mean lifetime %.3g s, "
          "%.3g accesses/byte/s",
          s->allocs, report_plural(s->allocs), s->bytes, s->lifetime,
          s->density);
}

/* Columns: # CLASS ALLOCS BYTES LIFETIME DENSITY ALLOCATOR SITE */
static void text_site_table(const struct annotation *a, FILE *out) {
  static const char *const heading[] = {"#",         "CLASS",    "ALLOCS",
                                        "BYTES",     "LIFETIME", "DENSITY",
                                        "ALLOCATOR", "SITE"};
  struct table t;
  table_init(&t, 8, heading);
  t.right_align[0] = t.right_align[2] = t.right_align[3] = 1;
  t.right_align[4] = t.right_align[5] = 1;
  for (size_t i = 0; i < a->site_count; i++) {
    const struct report_site *s = a->sites[i];
    const struct mip_alloc_stats *total = &s->decision.total;
    char rank[32], allocs[32], bytes[32], lifetime[48], density[48],
        where[4096];
    snprintf(rank, sizeof rank, "%zu", i + 1);
    snprintf(allocs, sizeof allocs, "%" PRIu64, total->allocs);
    snprintf(bytes, sizeof bytes, "%" PRIu64, total->bytes);
    snprintf(lifetime, sizeof lifetime, "%.3g s", total->lifetime);
    snprintf(density, sizeof density, "%.3g", total->density);
    site_location(s, where, sizeof where);
    const char *cells[] = {rank,     site_class(s), allocs,
                           bytes,    lifetime,      density,
                           s->allocator_name, where};
    table_add(&t, cells);
  }
  table_print(&t, out);
  table_free(&t);
}

/* A site's contexts with allocations, the most bytes first. */
static void text_site_contexts(const struct report *r,
                               const struct report_site *s, FILE *out) {
  struct report_context_iter it;
  report_contexts_begin(&it, r, s, REPORT_BY_BYTES);
  for (const struct report_context *c; (c = report_contexts_next(&it));) {
    if (!c->stats.allocs)
      continue;
    fprintf(out, "    %s: ", mip_alloc_class_name(c->alloc_class));
    stats_text(&c->stats, out);
    fputc('\n', out);
    report_text_frames(out, "        ", r, c);
  }
  report_contexts_end(&it);
}

/* ---- clones through wrappers (-flto) --------------------------------------- */

static int same_frame(const struct report *r, uint32_t x, uint32_t y) {
  const struct report_frame *f = &r->frames[x], *g = &r->frames[y];
  return x == y || (strcmp(f->function, g->function) == 0 &&
                    f->line == g->line && f->column == g->column);
}

/* How many leaf frames c and d share. */
static uint32_t shared_frames(const struct report *r,
                              const struct report_context *c,
                              const struct report_context *d) {
  uint32_t k = 0;
  while (k < c->depth && k < d->depth &&
         same_frame(r, c->stack[k], d->stack[k]))
    k++;
  return k;
}

/* The frames of context c, of the cloned class, that tell it from every
 * other class's context at the site: one more than it shares with any of
 * them; above its depth when one has all of its frames. */
static uint32_t parting_depth(const struct report *r,
                              const struct report_context *c,
                              const struct report_context *const *all,
                              size_t n) {
  uint32_t depth = 1;
  for (size_t i = 0; i < n; i++)
    if (all[i]->alloc_class != c->alloc_class) {
      uint32_t shared = shared_frames(r, c, all[i]) + 1;
      if (shared > depth)
        depth = shared;
    }
  return depth;
}

/* What a -flto rebuild does with a mixed site: LLVM's context
 * disambiguation (docs/use.md, "Wrappers and LTO") clones the functions
 * from the allocation up to the frame where a context of the cloned class
 * (mip_cloned_class: cold if any, else hot) parts from the others, for
 * the contexts of that class; the others keep the original, unhinted.
 * One line per context cloned: the functions cloned, and the caller of
 * the clone. */
static void text_clones(const struct report *r, const struct report_site *s,
                        FILE *out) {
  const struct report_context **all =
      mip_xcalloc(r->context_count + 1, sizeof *all);
  size_t n = 0;
  enum mip_alloc_class cloned = mip_cloned_class(s->decision.contexts);
  const char *name = mip_alloc_class_name(cloned);
  struct report_context_iter it;
  report_contexts_begin(&it, r, s, REPORT_BY_BYTES);
  for (const struct report_context *c; (c = report_contexts_next(&it));)
    if (c->stats.allocs)
      all[n++] = c;
  report_contexts_end(&it);
  if (cloned == MIP_CLASS_NOTCOLD)
    fputs("    with -flto: no clone (no context is cold or hot)\n", out);
  else if (cloned == MIP_CLASS_COLD && s->decision.contexts[MIP_CLASS_HOT])
    fputs("    with -flto: the hot contexts keep the original, unhinted "
          "(cloning tells two kinds of contexts apart: cold and the rest)\n",
          out);
  for (size_t i = 0; i < n; i++) {
    const struct report_context *c = all[i];
    if (c->alloc_class != cloned)
      continue;
    uint32_t depth = parting_depth(r, c, all, n);
    if (depth > c->depth) {
      fprintf(out,
              "    with -flto: a %s context no frame tells from the others: "
              "no clone\n",
              name);
      continue;
    }
    fprintf(out, "    with -flto: cloned for the %s contexts:", name);
    for (uint32_t k = 0; k + 1 < depth; k++)
      fprintf(out, "%s %s", k ? "," : "",
              text_safe(r->frames[c->stack[k]].demangled));
    const struct report_frame *caller = &r->frames[c->stack[depth - 1]];
    fprintf(out, ", called from %s", text_safe(caller->demangled));
    if (caller->file)
      fprintf(out, " (%s:%" PRIu32 ":%" PRIu32 ")", text_safe(caller->file),
              caller->line, caller->column);
    fputc('\n', out);
  }
  free(all);
}

static void text_contexts(const struct annotation *a, FILE *out) {
  fputs("\nContexts of each site (frames leaf first):\n", out);
  for (size_t i = 0; i < a->site_count; i++) {
    const struct report_site *s = a->sites[i];
    const struct mip_site_decision *d = &s->decision;
    char where[4096];
    int at = site_location(s, where, sizeof where);
    fprintf(out, "\n#%zu  %s: %s %s%s\n", i + 1, site_class(s),
            text_safe(s->allocator_name), at ? "at " : "", text_safe(where));
    if (d->mixed)
      fprintf(out,
              "    its contexts disagree (%" PRIu64 " cold, %" PRIu64
              " hot, %" PRIu64 " notcold): one call cannot tell its callers "
              "apart\n",
              d->contexts[MIP_CLASS_COLD], d->contexts[MIP_CLASS_HOT],
              d->contexts[MIP_CLASS_NOTCOLD]);
    if (d->mixed)
      text_clones(a->r, s, out);
    text_site_contexts(a->r, s, out);
  }
}

static void annotate_text(const struct annotate_cmd *o,
                          const struct annotation *a, FILE *out) {
  report_text_header(out, a->r);
  if (!a->r->runs) {
    fputs("No runs merged: a rebuild with this profile decides nothing\n", out);
    return;
  }
  text_summary(o, a, out);
  if (a->fn_count) {
    fputc('\n', out);
    text_functions(a, out);
  } else {
    fputs(o->all ? "\nNo functions\n"
                 : "\nNo hot or cold functions (--all lists the warm ones)\n",
          out);
  }
  if (a->site_count) {
    fputc('\n', out);
    text_site_table(a, out);
    text_contexts(a, out);
  }
}

/* ---- setup --------------------------------------------------------------- */

/* Fills o from the command line; CLI_GO_ON, or the status to exit with. */
static int parse_options(int argc, char **argv, struct annotate_cmd *o) {
  int format = EMIT_TEXT;
  const char *report_path = NULL;
  memset(o, 0, sizeof *o);
  report_filter_init(&o->filter_heap);
  mip_decide_defaults(&o->decide);
  struct opt options[] = {
      OPT_PROFILE(&o->profile, "the profile a rebuild would use"),
      OPT_DEBUG_LOCATIONS(&o->debug),
      OPT_FORMAT(&format),
      OPT_FLAG("all", &o->all, "list the warm functions too"),
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  opt_decide(MIP_DECIDE_##NAME, &o->decide.field),
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
      OPT_HEAP_FILTERS(&o->filter_heap),
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "annotate", .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  char why[512];
  if (report_filter_compile(&o->filter_heap, why, sizeof why))
    return cli_error(&cli, "%s", why);
  o->format = (enum emit_format)format;
  return CLI_GO_ON;
}

/* At most one line on what the profile lacks for deciding functions, and
 * one on what it lacks for deciding allocations. */
static void note_gaps(const struct report *r) {
  if (r->runs && r->has_heap && r->stats.heap.uncounted)
    note(r->path, "no access counts in this profile (built with "
                  "-fmip-generate=heap-allocs): no allocation is hot or cold");
  if (!r->runs)
    note(r->path, "no runs merged into this profile: a rebuild with it decides "
                  "nothing (mipcc warns and leaves the code as it is)");
  else if (!r->counted)
    note(r->path, "no call counts in this profile (build with "
                  "-fmip-generate=counts): no function is hot, only never-run "
                  "ones are cold");
}

static int annotate(const struct annotate_cmd *o, struct report *r,
                    struct mip_error *err) {
  struct annotation a = {.r = r};
  int rc = -1;
  if (report_decide(r, &o->decide, err) == 0) {
    list_functions(o, &a);
    list_sites(&a);
    if (o->format == EMIT_TEXT)
      annotate_text(o, &a, stdout);
    else
      annotate_structured(o, &a, stdout);
    note_gaps(r);
    rc = 0;
  }
  free(a.fns);
  free(a.sites);
  return rc;
}

int cmd_annotate(int argc, char **argv) {
  struct annotate_cmd o;
  int rc = parse_options(argc, argv, &o);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct report r;
  int failed = report_open_debug(o.profile, o.debug, 1, &r, &err);
  if (!failed) /* the contexts listed; sites are decided on all of them */
    report_filter_apply(&r, &o.filter_heap);
  report_filter_free(&o.filter_heap);
  if (failed)
    return report(&err);
  rc = annotate(&o, &r, &err) ? report(&err) : 0;
  report_free(&r);
  return rc;
}
