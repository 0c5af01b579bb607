/*
 * mipdata annotate -p PROFILE [--debug BINARY] [--format text|yaml|json]
 *                  [--hot-share F] [--cold-max-density F]
 *                  [--cold-min-lifetime SECONDS] [--hot-min-density F]
 *                  [--all] [-o FILE]
 * What a rebuild with the profile (mipcc -fmip-use) decides: the hot and
 * cold functions, and the class of each allocation site, with the numbers
 * behind each decision. It reads the profile through the same view and
 * decides with the same calls (lib/decide.c) as the compiler's
 * profile-use pass, so the two cannot disagree. Everything is checked and
 * decided before anything is printed (and the output sink holds what is
 * printed until the command succeeds): on bad input, stdout stays empty.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "debuginfo.h"
#include "frame_text.h"
#include "demangle.h"
#include "elf_image.h"
#include "emit.h"
#include "show_heap.h"

struct annotate_cmd {
  const char *profile;
  const char *debug;
  enum emit_format format;
  int all; /* warm functions too */
  struct mip_decide_options decide;
};

/* One listed function. */
struct fn_row {
  uint64_t index;
  struct mip_profile_function f;
  enum mip_temperature t;
  const char *file; /* from --debug; NULL when unknown */
  uint32_t line;
};

/* One allocation context of a listed site (one with allocations). */
struct context_row {
  uint64_t index;
  enum mip_alloc_class alloc_class;
  struct mip_alloc_stats stats;
  uint32_t flags;
  struct frame_text *frames;
  uint32_t frame_count;
};

/* How sites are counted: the four groups partition the listed sites. */
enum site_group { GROUP_COLD, GROUP_HOT, GROUP_NOTCOLD, GROUP_MIXED, GROUPS };

static const char *const group_names[GROUPS] = {"cold", "hot", "notcold",
                                                "mixed"};

/* One listed allocation site. */
struct site_row {
  uint32_t index;
  struct mip_heap_site s;
  const char *instrumented; /* the function the call was compiled into */
  struct mip_site_decision d;
  enum site_group group;
  struct context_row *contexts;
  size_t context_count;
};

struct annotation {
  const struct mip_view *v;
  int counted;        /* the profile has call counts */
  uint64_t threshold; /* fewest calls of a hot function; UINT64_MAX: none */
  uint64_t functions;
  size_t temperatures[MIP_TEMP_HOT + 1];
  struct fn_row *fns;
  size_t fn_count;
  struct site_row *sites;
  size_t site_count;
  size_t groups[GROUPS];
};

static const char *vstr(const struct mip_view *v, uint32_t offset) {
  const char *s = mip_view_string(v, offset);
  return s ? s : "";
}

static int corrupt(const struct mip_view *v, const char *what,
                   struct mip_error *err) {
  return mip_fail(err, v->path, "corrupt profile: %s", what);
}

/* ---- checking what the decisions do not read ----------------------------- */

/* The decisions read the heap contexts of a site by binary search, which
 * needs them sorted by site: check that, and every entry the listing
 * could print, before deciding anything. */
static int check_heap(const struct mip_view *v, struct mip_error *err) {
  uint64_t sites = mip_view_count(v, MIP_PROF_HEAP_SITES);
  uint64_t previous = 0;
  for (uint64_t i = 0; i < sites; i++) {
    struct mip_heap_site s;
    if (mip_view_heap_site(v, i, &s, err))
      return -1;
    if (i && s.site_offset <= previous)
      return corrupt(v, "heap sites out of order", err);
    previous = s.site_offset;
  }
  if (!v->has_heap)
    return 0;
  for (uint64_t i = 0; i < mip_view_count(v, MIP_PROF_HEAP_FRAMES); i++) {
    struct mip_heap_frame f;
    if (mip_view_heap_frame(v, i, &f, err))
      return -1;
  }
  for (uint64_t i = 0; i < mip_view_count(v, MIP_PROF_HEAP_STACKS); i++) {
    uint32_t frame;
    if (mip_view_heap_stack(v, i, &frame, err))
      return -1;
  }
  /* (mip_view_open checked that contexts are in site order.) */
  for (uint64_t i = 0; i < mip_view_count(v, MIP_PROF_HEAP_CONTEXTS); i++) {
    struct mip_heap_context c;
    if (mip_view_heap_context(v, i, &c, err))
      return -1;
  }
  return 0;
}

/* ---- functions ----------------------------------------------------------- */

static uint64_t calls_of(const struct mip_profile_function *f) {
  return f->cnt_offset != MIP_NO_OFFSET ? f->calls : 0;
}

/* Hot first, then warm, then cold; the most calls first; then as in the
 * profile (by name). */
static int function_order(const void *a, const void *b) {
  static const int rank[] = {[MIP_TEMP_HOT] = 0,
                             [MIP_TEMP_WARM] = 1,
                             [MIP_TEMP_COLD] = 2,
                             [MIP_TEMP_UNKNOWN] = 3};
  const struct fn_row *x = a, *y = b;
  if (rank[x->t] != rank[y->t])
    return rank[x->t] - rank[y->t];
  uint64_t cx = calls_of(&x->f), cy = calls_of(&y->f);
  if (cx != cy)
    return cx > cy ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static int decide_functions(const struct annotate_cmd *o, struct annotation *a,
                            const struct debuginfo *di, struct mip_error *err) {
  const struct mip_view *v = a->v;
  if (mip_view_hot_threshold(v, o->decide.hot_share, &a->threshold, err))
    return -1;
  a->functions = mip_view_count(v, MIP_PROF_FUNCTIONS);
  a->fns = mip_xcalloc(a->functions ? a->functions : 1, sizeof *a->fns);
  for (uint64_t i = 0; i < a->functions; i++) {
    struct fn_row r = {.index = i};
    if (mip_view_function(v, i, &r.f, err))
      return -1;
    r.t = mip_function_temperature(&r.f, v->runs, a->threshold);
    a->temperatures[r.t]++;
    if (r.t == MIP_TEMP_UNKNOWN || (r.t == MIP_TEMP_WARM && !o->all))
      continue;
    if (di && debuginfo_lookup(di, r.f.entry, &r.file, &r.line) != 0)
      r.file = NULL;
    a->fns[a->fn_count++] = r;
  }
  qsort(a->fns, a->fn_count, sizeof *a->fns, function_order);
  return 0;
}

/* ---- allocation sites ---------------------------------------------------- */

static int read_frames(const struct mip_view *v,
                       const struct mip_heap_context *c, struct context_row *r,
                       struct mip_error *err) {
  r->frames =
      mip_xcalloc(c->frame_count ? c->frame_count : 1, sizeof *r->frames);
  for (uint32_t k = 0; k < c->frame_count; k++) {
    uint32_t index;
    struct mip_heap_frame f;
    if (mip_view_heap_stack(v, (uint64_t)c->first_frame + k, &index, err) ||
        mip_view_heap_frame(v, index, &f, err))
      return -1;
    r->frames[k] = (struct frame_text){vstr(v, f.function), vstr(v, f.file),
                                       f.line,           f.column,
                                       f.flags,          vstr(v, f.object)};
    r->frame_count = k + 1;
  }
  return 0;
}

static int more_bytes_first(const void *a, const void *b) {
  const struct context_row *x = a, *y = b;
  if (x->stats.bytes != y->stats.bytes)
    return x->stats.bytes > y->stats.bytes ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* The contexts of site r with allocations, each with its class, as
 * mip_view_site_decision counted them. */
static int read_contexts(const struct annotate_cmd *o, const struct mip_view *v,
                         struct site_row *r, struct mip_error *err) {
  uint64_t first, n = mip_view_site_contexts(v, r->index, &first);
  r->contexts = mip_xcalloc(n ? n : 1, sizeof *r->contexts);
  for (uint64_t i = first; i < first + n; i++) {
    struct mip_heap_context c;
    if (mip_view_heap_context(v, i, &c, err))
      return -1;
    if (!c.mib.v[MIP_MIBI_AllocCount])
      continue;
    struct context_row *x = &r->contexts[r->context_count++];
    x->index = i;
    x->alloc_class = mip_mib_class(&c.mib, &o->decide);
    mip_mib_stats(&c.mib, &x->stats);
    x->flags = c.flags;
    if (read_frames(v, &c, x, err))
      return -1;
  }
  qsort(r->contexts, r->context_count, sizeof *r->contexts, more_bytes_first);
  return 0;
}

static int more_site_bytes_first(const void *a, const void *b) {
  const struct site_row *x = a, *y = b;
  if (x->d.total.bytes != y->d.total.bytes)
    return x->d.total.bytes > y->d.total.bytes ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static uint64_t contexts_of(const struct mip_site_decision *d) {
  uint64_t n = 0;
  for (int k = 0; k < MIP_CLASS_COUNT; k++)
    n += d->contexts[k];
  return n;
}

/* Every site whose allocator allocates and that has a context with
 * allocations, as the compiler decides it. */
static int decide_sites(const struct annotate_cmd *o, struct annotation *a,
                        struct mip_error *err) {
  const struct mip_view *v = a->v;
  uint64_t n = mip_view_count(v, MIP_PROF_HEAP_SITES);
  a->sites = mip_xcalloc(n ? n : 1, sizeof *a->sites);
  if (!v->runs || !v->has_heap)
    return 0;
  for (uint64_t i = 0; i < n; i++) {
    struct site_row *r = &a->sites[a->site_count];
    memset(r, 0, sizeof *r);
    r->index = (uint32_t)i;
    if (mip_view_heap_site(v, i, &r->s, err))
      return -1;
    if (!mip_allocator_allocates(r->s.allocator))
      continue;
    if (mip_view_site_decision(v, r->index, &o->decide, &r->d, err))
      return -1;
    if (!contexts_of(&r->d))
      continue;
    struct mip_profile_function f;
    if (mip_view_function(v, r->s.function, &f, err))
      return -1;
    r->instrumented = vstr(v, f.name);
    r->group = r->d.mixed                           ? GROUP_MIXED
               : r->d.alloc_class == MIP_CLASS_COLD ? GROUP_COLD
               : r->d.alloc_class == MIP_CLASS_HOT  ? GROUP_HOT
                                                    : GROUP_NOTCOLD;
    a->site_count++;
    if (read_contexts(o, v, r, err))
      return -1;
    a->groups[r->group]++;
  }
  qsort(a->sites, a->site_count, sizeof *a->sites, more_site_bytes_first);
  return 0;
}

static void annotation_free(struct annotation *a) {
  for (size_t i = 0; a->sites && i < a->site_count; i++) {
    for (size_t c = 0; c < a->sites[i].context_count; c++)
      free(a->sites[i].contexts[c].frames);
    free(a->sites[i].contexts);
  }
  free(a->sites);
  free(a->fns);
}

/* ---- YAML and JSON ------------------------------------------------------- */

/* "malloc", ...; "allocator N" for a kind this build does not know. */
static const char *site_allocator(const struct site_row *r, char *buf,
                                  size_t size) {
  const char *name = mip_allocator_name(r->s.allocator);
  if (name)
    return name;
  snprintf(buf, size, "allocator %" PRIu32, r->s.allocator);
  return buf;
}

static const char *or_null(const char *s) { return *s ? s : NULL; }

static void emit_stats(struct emitter *e, const struct mip_alloc_stats *s) {
  emit_u64(e, "allocations", s->allocs);
  emit_u64(e, "bytes", s->bytes);
  emit_double(e, "lifetime", s->lifetime);
  emit_double(e, "density", s->density);
}

static void emit_function(struct emitter *e, const struct annotation *a,
                          const struct fn_row *r) {
  const struct mip_view *v = a->v;
  const char *name = vstr(v, r->f.name);
  int local = (r->f.flags & MIP_FN_LOCAL) != 0;
  char *demangled = demangle(name);
  emit_object_begin(e, NULL);
  emit_string(e, "name", name);
  emit_string(e, "demangled", demangled);
  emit_string(e, "decision", mip_temperature_name(r->t));
  emit_bool(e, "local", local);
  emit_string_or_null(e, "unit", local ? vstr(v, r->f.unit) : NULL);
  if (r->f.cnt_offset != MIP_NO_OFFSET)
    emit_u64(e, "calls", r->f.calls);
  else
    emit_null(e, "calls");
  emit_u64(e, "covered_runs", r->f.covered_runs);
  emit_string_or_null(e, "file", r->file);
  if (r->file)
    emit_u64(e, "line", r->line);
  else
    emit_null(e, "line");
  emit_object_end(e);
  free(demangled);
}

static void emit_frames(struct emitter *e, const struct context_row *c) {
  emit_array_begin(e, "frames");
  for (uint32_t k = 0; k < c->frame_count; k++) {
    const struct frame_text *f = &c->frames[k];
    char *demangled = demangle(f->function);
    emit_object_begin(e, NULL);
    emit_string(e, "function", f->function);
    emit_string(e, "demangled", demangled);
    emit_string_or_null(e, "file", or_null(f->file));
    emit_u64(e, "line", f->line);
    emit_u64(e, "column", f->column);
    emit_bool(e, "inlined", (f->flags & MIP_FRAME_INLINED) != 0);
    emit_bool(e, "outside", (f->flags & MIP_FRAME_OUTSIDE) != 0);
    emit_string_or_null(e, "object", (f->flags & MIP_FRAME_OUTSIDE)
                                         ? f->function
                                         : or_null(f->object));
    emit_object_end(e);
    free(demangled);
  }
  emit_array_end(e);
}

static void emit_site(struct emitter *e, const struct annotation *a,
                      const struct site_row *r) {
  const struct mip_view *v = a->v;
  const char *function = vstr(v, r->s.name);
  char *demangled = demangle(function);
  char buf[32];
  emit_object_begin(e, NULL);
  emit_u64(e, "site", r->index);
  emit_string(e, "allocator", site_allocator(r, buf, sizeof buf));
  emit_string_or_null(e, "file", or_null(vstr(v, r->s.file)));
  emit_u64(e, "line", r->s.line);
  emit_u64(e, "column", r->s.column);
  emit_string(e, "function", function);
  emit_string(e, "demangled", demangled);
  emit_string(e, "instrumented_function", r->instrumented);
  emit_string(e, "class", mip_alloc_class_name(r->d.alloc_class));
  emit_bool(e, "mixed", r->d.mixed);
  emit_object_begin(e, "context_classes");
  for (int k = 0; k < MIP_CLASS_COUNT; k++)
    emit_u64(e, mip_alloc_class_name((enum mip_alloc_class)k),
             r->d.contexts[k]);
  emit_object_end(e);
  emit_stats(e, &r->d.total);
  emit_array_begin(e, "contexts");
  for (size_t i = 0; i < r->context_count; i++) {
    const struct context_row *c = &r->contexts[i];
    emit_object_begin(e, NULL);
    emit_string(e, "class", mip_alloc_class_name(c->alloc_class));
    emit_stats(e, &c->stats);
    emit_bool(e, "truncated", (c->flags & MIP_CONTEXT_TRUNCATED) != 0);
    emit_frames(e, c);
    emit_object_end(e);
  }
  emit_array_end(e);
  emit_object_end(e);
  free(demangled);
}

static void emit_summary(struct emitter *e, const struct annotate_cmd *o,
                         const struct annotation *a) {
  emit_object_begin(e, "summary");
  emit_u64(e, "runs", a->v->runs);
  emit_object_begin(e, "functions");
  emit_u64(e, "total", a->functions);
  emit_u64(e, "hot", a->temperatures[MIP_TEMP_HOT]);
  emit_u64(e, "cold", a->temperatures[MIP_TEMP_COLD]);
  emit_u64(e, "warm", a->temperatures[MIP_TEMP_WARM]);
  emit_object_end(e);
  if (a->v->runs && a->threshold != UINT64_MAX)
    emit_u64(e, "hot_threshold", a->threshold);
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
  const struct mip_view *v = a->v;
  char id[2 * MIP_BUILD_ID_MAX + 1];
  struct emitter e;
  emit_begin(&e, out, o->format);
  emit_string(&e, "profile", o->profile);
  emit_string(&e, "build_id", mip_build_id_hex(&v->build_id, id, sizeof id));
  emit_u64(&e, "runs", v->runs);
  emit_bool(&e, "counts", a->counted);
  emit_bool(&e, "heap", v->has_heap);
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
    emit_function(&e, a, &a->fns[i]);
  emit_array_end(&e);
  emit_array_begin(&e, "allocations");
  for (size_t i = 0; i < a->site_count; i++)
    emit_site(&e, a, &a->sites[i]);
  emit_array_end(&e);
  emit_end(&e);
}

/* ---- text ---------------------------------------------------------------- */

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

static void text_summary(const struct annotate_cmd *o,
                         const struct annotation *a, FILE *out) {
  const struct mip_view *v = a->v;
  fprintf(out, "Functions: %zu hot, %zu cold, %zu warm (of %" PRIu64 ")",
          a->temperatures[MIP_TEMP_HOT], a->temperatures[MIP_TEMP_COLD],
          a->temperatures[MIP_TEMP_WARM], a->functions);
  if (!a->counted)
    fputs("; no call counts, so none is hot\n", out);
  else if (a->threshold == UINT64_MAX && !(o->decide.hot_share > 0))
    fputs("; a hot share of 0, so none is hot\n", out);
  else if (a->threshold == UINT64_MAX)
    fputs("; no calls counted, so none is hot\n", out);
  else
    fprintf(out,
            "; hot: %" PRIu64 " call%s or more (the most-called, making "
            "%g%% of all calls)\n",
            a->threshold, plural(a->threshold), o->decide.hot_share * 100);
  if (!v->has_heap) {
    fputs("Allocation sites: no heap data\n", out);
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
  const struct mip_view *v = a->v;
  int mangled = 0;
  for (size_t i = 0; i < a->fn_count; i++) {
    const char *name = vstr(v, a->fns[i].f.name);
    mangled |= name[0] == '_' && name[1] == 'Z';
  }
  const char *heading[6] = {"DECISION", "CALLS", "RUNS", "FUNCTION"};
  int n = 4;
  if (mangled)
    heading[n++] = "SYMBOL";
  heading[n++] = "LOCATION";
  struct table t;
  table_init(&t, n, heading);
  t.right_align[1] = t.right_align[2] = 1;
  for (size_t i = 0; i < a->fn_count; i++) {
    const struct fn_row *r = &a->fns[i];
    const char *name = vstr(v, r->f.name);
    char calls[32] = "-", runs[48], function[4096], where[4096] = "-";
    if (r->f.cnt_offset != MIP_NO_OFFSET)
      snprintf(calls, sizeof calls, "%" PRIu64, r->f.calls);
    snprintf(runs, sizeof runs, "%" PRIu64 "/%" PRIu64, r->f.covered_runs,
             v->runs);
    char *demangled = demangle(name);
    if (r->f.flags & MIP_FN_LOCAL)
      snprintf(function, sizeof function, "%s (static, %s)", demangled,
               vstr(v, r->f.unit));
    else
      snprintf(function, sizeof function, "%s", demangled);
    free(demangled);
    if (r->file)
      snprintf(where, sizeof where, "%s:%" PRIu32, r->file, r->line);
    const char *cells[6] = {mip_temperature_name(r->t), calls, runs, function};
    int c = 4;
    if (mangled)
      cells[c++] = name;
    cells[c++] = where;
    table_add(&t, cells);
  }
  table_print(&t, out);
  table_free(&t);
}

/* "FILE:LINE:COLUMN in F", and ", inlined into G" when the call was
 * compiled into another function (the one whose rebuild hints it). */
/* "FILE:LINE:COLUMN in FUNCTION", or "in FUNCTION" alone for code built
 * without -g (then returns 0). */
static int site_location(const struct annotation *a, const struct site_row *r,
                         char *out, size_t size) {
  const char *file = vstr(a->v, r->s.file), *name = vstr(a->v, r->s.name);
  if (!*file && !*name) {
    char *into = demangle(r->instrumented);
    snprintf(out, size, "in %s", into);
    free(into);
    return 0;
  }
  char *function = demangle(name);
  int n = snprintf(out, size, "%s:%" PRIu32 ":%" PRIu32 " in %s",
                   *file ? file : "??", r->s.line, r->s.column, function);
  free(function);
  if (strcmp(name, r->instrumented) != 0 && n >= 0 && (size_t)n < size) {
    char *into = demangle(r->instrumented);
    snprintf(out + n, size - (size_t)n, ", inlined into %s", into);
    free(into);
  }
  return 1;
}

static const char *site_class(const struct site_row *r) {
  return r->d.mixed ? "notcold (mixed)"
                    : mip_alloc_class_name(r->d.alloc_class);
}

/* The numbers as the compiler's remarks give them. */
static void stats_text(const struct mip_alloc_stats *s, FILE *out) {
  fprintf(out,
          "%" PRIu64 " allocation%s, %" PRIu64 " bytes, mean lifetime %.3g s, "
          "%.3g accesses/byte/s",
          s->allocs, plural(s->allocs), s->bytes, s->lifetime, s->density);
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
    const struct site_row *r = &a->sites[i];
    char rank[32], allocs[32], bytes[32], lifetime[48], density[48], buf[32],
        where[4096];
    snprintf(rank, sizeof rank, "%zu", i + 1);
    snprintf(allocs, sizeof allocs, "%" PRIu64, r->d.total.allocs);
    snprintf(bytes, sizeof bytes, "%" PRIu64, r->d.total.bytes);
    snprintf(lifetime, sizeof lifetime, "%.3g s", r->d.total.lifetime);
    snprintf(density, sizeof density, "%.3g", r->d.total.density);
    site_location(a, r, where, sizeof where);
    const char *cells[] = {rank,
                           site_class(r),
                           allocs,
                           bytes,
                           lifetime,
                           density,
                           site_allocator(r, buf, sizeof buf),
                           where};
    table_add(&t, cells);
  }
  table_print(&t, out);
  table_free(&t);
}

static void text_frames(const struct context_row *c, FILE *out) {
  frame_text_print(out, "        ", c->frames, c->frame_count);
  if (c->flags & MIP_CONTEXT_TRUNCATED)
    fputs("        ... (stack truncated)\n", out);
}

static void text_contexts(const struct annotation *a, FILE *out) {
  fputs("\nContexts of each site (frames leaf first):\n", out);
  for (size_t i = 0; i < a->site_count; i++) {
    const struct site_row *r = &a->sites[i];
    char where[4096], buf[32];
    int at = site_location(a, r, where, sizeof where);
    fprintf(out, "\n#%zu  %s: %s %s%s\n", i + 1, site_class(r),
            site_allocator(r, buf, sizeof buf), at ? "at " : "", where);
    if (r->d.mixed)
      fprintf(out,
              "    its contexts disagree (%" PRIu64 " cold, %" PRIu64
              " hot, %" PRIu64 " notcold): one call cannot tell its callers "
              "apart\n",
              r->d.contexts[MIP_CLASS_COLD], r->d.contexts[MIP_CLASS_HOT],
              r->d.contexts[MIP_CLASS_NOTCOLD]);
    for (size_t k = 0; k < r->context_count; k++) {
      const struct context_row *c = &r->contexts[k];
      fprintf(out, "    %s: ", mip_alloc_class_name(c->alloc_class));
      stats_text(&c->stats, out);
      fputc('\n', out);
      text_frames(c, out);
    }
  }
}

static void annotate_text(const struct annotate_cmd *o,
                          const struct annotation *a, FILE *out) {
  const struct mip_view *v = a->v;
  char id[2 * MIP_BUILD_ID_MAX + 1];
  fprintf(out, "Profile %s: build-id %s, %" PRIu64 " run%s\n", o->profile,
          mip_build_id_hex(&v->build_id, id, sizeof id), v->runs,
          plural(v->runs));
  if (!v->runs) {
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
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "annotate", .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  o->format = (enum emit_format)format;
  return CLI_GO_ON;
}

/* At most one line on what the profile lacks for deciding. */
static void note_gaps(const char *path, const struct annotation *a) {
  if (!a->v->runs)
    note(path, "no runs merged into this profile: a rebuild with it decides "
               "nothing (mipcc warns and leaves the code as it is)");
  else if (!a->counted)
    note(path, "no call counts in this profile (build with "
               "-fmip-generate=counts): no function is hot, only never-run "
               "ones are cold");
}

static int annotate(const struct annotate_cmd *o, const struct mip_view *v,
                    const struct debuginfo *di, struct mip_error *err) {
  struct annotation a = {
      .v = v, .counted = (v->modes & MIP_MODE_BIT(MIP_RAW_CNT)) != 0};
  int rc = -1;
  if (check_heap(v, err) == 0 && decide_functions(o, &a, di, err) == 0 &&
      decide_sites(o, &a, err) == 0) {
    if (o->format == EMIT_TEXT)
      annotate_text(o, &a, stdout);
    else
      annotate_structured(o, &a, stdout);
    note_gaps(o->profile, &a);
    rc = 0;
  }
  annotation_free(&a);
  return rc;
}

int cmd_annotate(int argc, char **argv) {
  struct annotate_cmd o;
  int rc = parse_options(argc, argv, &o);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct mip_view v;
  struct debuginfo *di = NULL;
  if (mip_view_open(o.profile, &v, &err))
    return report(&err);
  if (o.debug && (elf_image_check_build(o.debug, &v.build_id, &err) ||
                  !(di = debuginfo_open(o.debug, &err)))) {
    mip_view_close(&v);
    return report(&err);
  }
  debuginfo_note_program(di, o.debug);
  rc = annotate(&o, &v, di, &err) ? report(&err) : 0;
  debuginfo_close(di);
  mip_view_close(&v);
  return rc;
}
