/*
 * mipdata order -p PROFILE [-o ORDER.txt] [--format lld|gold]
 *               [--startup N] [--hot-share F] [--cluster-size BYTES]
 *               [--explain[=text|yaml|json]] [--data]
 * Writes a function ordering file for the linker: start-up functions
 * first, by first-call order, then the hot ones clustered by call edges,
 * then the other called ones, never-called ones last (function_order.c has
 * the rules, docs/order.md how to use the file). --explain prints the
 * placement, function by function, on stdout. A profile of data mode
 * adds its global variables after the functions (data_order.c); --data
 * lists them alone.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "demangle.h"
#include "emit.h"
#include "escape.h"
#include "data_order.h"
#include "function_order.h"

enum order_format { FORMAT_LLD, FORMAT_GOLD };

struct order_cmd {
  const char *profile;
  const char *output; /* NULL: only --explain */
  enum order_format format;
  int explain;
  int data_only; /* --data: the global variables alone */
  int functions; /* functions are ordered: not --data, and call counts */
  int data;      /* variables are ordered: the profile has data accesses */
  enum emit_format explain_format;
  struct order_options layout;
};

static const char *const format_names[] = {"lld", "gold"};

/* ---- the ordering file ---------------------------------------------- */

/* Section name prefixes a rebuild with the profile (-fmip-use) gives
 * functions, by temperature: .text.hot.NAME, .text.unlikely.NAME. */
enum { PREFIX_HOT = 1, PREFIX_UNLIKELY = 2 };

struct name_ctx {
  const struct mip_profile *p;
  const struct order_result *r;
};

static const char *entry_name(const struct mip_profile *p,
                              const struct order_result *r, size_t i) {
  return mip_profile_string(p, p->functions[r->entries[i].function].name);
}

/* Positions in the result, by name, then position. */
static int by_name(const void *x, const void *y, void *arg) {
  const struct name_ctx *c = arg;
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  int d = strcmp(entry_name(c->p, c->r, a), entry_name(c->p, c->r, b));
  return d ? d : (a > b) - (a < b);
}

/* prefixes[2 * i], prefixes[2 * i + 1]: for each line the file writes
 * (entry i), the prefixed sections to list before it (PREFIX_*, 0 for
 * none), one per temperature among the functions of that name, in
 * placement order. Temperatures are the compiler's: the same hot
 * threshold (hot_share), the same rule (mip_function_temperature). */
static uint8_t *section_prefixes(const struct mip_profile *p,
                                 const struct order_result *r,
                                 double hot_share) {
  size_t n = r->count;
  uint8_t *prefixes = mip_xcalloc(2 * (n ? n : 1), 1);
  uint64_t *calls = mip_xcalloc(p->function_count ? p->function_count : 1,
                                sizeof *calls);
  for (size_t i = 0; i < p->function_count; i++)
    calls[i] = p->functions[i].cnt_offset != MIP_NO_OFFSET
                   ? p->functions[i].calls
                   : 0;
  uint64_t threshold =
      mip_hot_threshold(calls, p->function_count, hot_share, p->runs);
  free(calls);

  uint32_t *pos = mip_xcalloc(n ? n : 1, sizeof *pos);
  for (size_t i = 0; i < n; i++)
    pos[i] = (uint32_t)i;
  struct name_ctx c = {p, r};
  qsort_r(pos, n, sizeof *pos, by_name, &c);
  for (size_t g = 0; g < n;) {
    /* pos[g..end): one name; pos[g] is placed first, so it has the line. */
    size_t end = g + 1;
    while (end < n && !strcmp(entry_name(p, r, pos[g]),
                              entry_name(p, r, pos[end])))
      end++;
    uint8_t *out = &prefixes[2 * (size_t)pos[g]];
    for (size_t k = g; k < end; k++) {
      const struct mip_profile_function *f =
          &p->functions[r->entries[pos[k]].function];
      enum mip_temperature t = mip_function_temperature(f, p->runs, threshold);
      uint8_t prefix = t == MIP_TEMP_HOT    ? PREFIX_HOT
                       : t == MIP_TEMP_COLD ? PREFIX_UNLIKELY
                                            : 0;
      if (prefix && out[0] != prefix && out[1] != prefix)
        out[out[0] ? 1 : 0] = prefix;
    }
    g = end;
  }
  free(pos);
  return prefixes;
}

static void append_section(struct mip_buf *out, const char *prefix,
                           const char *name) {
  mip_buf_append(out, prefix, strlen(prefix));
  mip_buf_append(out, name, strlen(name));
  mip_buf_append(out, "\n", 1);
}

/* lld: one symbol per line (--symbol-ordering-file). gold: the sections
 * -ffunction-sections puts the function in (--section-ordering-file):
 * .text.NAME, after .text.hot.NAME or .text.unlikely.NAME where a rebuild
 * with the profile makes it hot or cold. */
static void render(const struct mip_profile *p, const struct order_result *r,
                   enum order_format format, double hot_share,
                   struct mip_buf *out) {
  uint8_t *prefixes =
      format == FORMAT_GOLD ? section_prefixes(p, r, hot_share) : NULL;
  for (size_t i = 0; i < r->count; i++) {
    if (!r->entries[i].line)
      continue;
    const char *name = entry_name(p, r, i);
    if (format == FORMAT_LLD) {
      append_section(out, "", name);
      continue;
    }
    for (int k = 0; k < 2; k++)
      if (prefixes[2 * i + k])
        append_section(out,
                       prefixes[2 * i + k] == PREFIX_HOT ? ".text.hot."
                                                         : ".text.unlikely.",
                       name);
    append_section(out, ".text.", name);
  }
  free(prefixes);
}

/* The variables after the functions. lld: their symbols. gold: the
 * sections a rebuild with the profile puts them in (.data.hot.NAME,
 * .rodata.unlikely.NAME, ...: DataSections.cpp), each followed by the one
 * -fdata-sections gives without the profile; a constant under both of its
 * possible names. */
static void render_data(const struct mip_profile *p, const struct data_order *o,
                        enum order_format format, struct mip_buf *out) {
  for (size_t i = 0; i < o->count; i++) {
    const struct mip_data_object *d = &p->data[o->entries[i].data];
    const char *name = mip_profile_string(p, d->name);
    if (format == FORMAT_LLD) {
      append_section(out, "", name);
      continue;
    }
    enum mip_temperature t = o->entries[i].temperature;
    const char *prefix = t == MIP_TEMP_HOT    ? ".hot."
                         : t == MIP_TEMP_COLD ? ".unlikely."
                                              : NULL;
    const char *kinds[2] = {data_section(d), NULL};
    if (d->flags & MIP_DATA_CONSTANT)
      kinds[1] = ".data.rel.ro";
    for (int k = 0; k < 2 && kinds[k]; k++) {
      char section[64];
      if (prefix) {
        snprintf(section, sizeof section, "%s%s", kinds[k], prefix);
        append_section(out, section, name);
      }
      snprintf(section, sizeof section, "%s.", kinds[k]);
      append_section(out, section, name);
    }
  }
}

static void data_summary_line(const struct order_cmd *o,
                              const struct data_order *d, FILE *out) {
  fprintf(out, "%s: %zu data symbols: %zu hot, %zu warm, %zu cold\n",
          text_safe(o->output ? o->output : o->profile), d->count,
          d->by_temperature[MIP_TEMP_HOT], d->by_temperature[MIP_TEMP_WARM],
          d->by_temperature[MIP_TEMP_COLD]);
}

/* ---- --explain ------------------------------------------------------- */

static int has_rank(const struct mip_profile_function *f) {
  return f->ord_offset != MIP_NO_OFFSET && f->ranked_runs > 0;
}

static double mean_rank(const struct mip_profile_function *f) {
  return (double)f->rank_sum / (double)f->ranked_runs;
}

static void summary_line(const struct order_cmd *o,
                         const struct order_result *r, FILE *out) {
  fprintf(out,
          "%s: %zu %s: %zu start-up, %zu hot in %zu cluster%s, %zu warm, "
          "%zu cold\n",
          text_safe(o->output ? o->output : o->profile),
          o->output ? r->lines : r->count, o->output ? "symbols" : "functions",
          r->group_count[ORDER_STARTUP], r->group_count[ORDER_HOT], r->clusters,
          r->clusters == 1 ? "" : "s", r->group_count[ORDER_WARM],
          r->group_count[ORDER_COLD]);
}

/* Columns: LINE GROUP CLUSTER RANK CALLS SIZE FUNCTION (demangled; the
 * file has the symbol) */
static void explain_text(const struct order_cmd *o, const struct mip_profile *p,
                         const struct order_result *r) {
  static const char *const heading[] = {"LINE",  "GROUP", "CLUSTER", "RANK",
                                        "CALLS", "SIZE",  "FUNCTION"};
  summary_line(o, r, stdout);
  putchar('\n');
  struct table t;
  table_init(&t, 7, heading);
  t.right_align[0] = t.right_align[2] = t.right_align[3] = 1;
  t.right_align[4] = t.right_align[5] = 1;
  t.names[6] = 1;
  for (size_t i = 0; i < r->count; i++) {
    const struct order_entry *e = &r->entries[i];
    const struct mip_profile_function *f = &p->functions[e->function];
    char line[32] = "-", cluster[32] = "-", rank[32] = "-", calls[32],
         size[32] = "-", function[4096];
    if (e->line)
      snprintf(line, sizeof line, "%zu", e->line);
    if (e->cluster)
      snprintf(cluster, sizeof cluster, "%" PRIu32, e->cluster);
    if (has_rank(f))
      snprintf(rank, sizeof rank, "%.1f", mean_rank(f));
    snprintf(calls, sizeof calls, "%" PRIu64, e->calls);
    if (e->size)
      snprintf(size, sizeof size, "%" PRIu64, e->size);
    char *name = demangle(mip_profile_string(p, f->name));
    if (f->flags & MIP_FN_LOCAL)
      snprintf(function, sizeof function, "%s (static, %s)", name,
               mip_profile_string(p, f->unit));
    else
      snprintf(function, sizeof function, "%s", name);
    free(name);
    const char *cells[] = {
        line, order_group_name(e->group), cluster, rank, calls, size, function};
    table_add(&t, cells);
  }
  table_print(&t, stdout);
  table_free(&t);
}

static void explain_structured(const struct order_cmd *o,
                               const struct mip_profile *p,
                               const struct order_result *r) {
  struct emitter e;
  emit_begin(&e, stdout, o->explain_format);
  emit_string(&e, "profile", o->profile);
  emit_string_or_null(&e, "output", o->output);
  emit_string(&e, "format", format_names[o->format]);
  emit_u64(&e, "runs", p->runs);
  emit_bool(&e, "ranked", r->ranked);
  emit_bool(&e, "clustered", r->clustering == ORDER_CLUSTERED);
  emit_double(&e, "hot_share", o->layout.hot_share);
  emit_u64(&e, "cluster_size", o->layout.cluster_size);
  emit_object_begin(&e, "summary");
  emit_u64(&e, "functions", r->count);
  emit_u64(&e, "lines", r->lines);
  for (int g = 0; g < ORDER_GROUPS; g++)
    emit_u64(&e, order_group_name((enum order_group)g), r->group_count[g]);
  emit_u64(&e, "clusters", r->clusters);
  emit_object_end(&e);
  emit_array_begin(&e, "functions");
  for (size_t i = 0; i < r->count; i++) {
    const struct order_entry *x = &r->entries[i];
    const struct mip_profile_function *f = &p->functions[x->function];
    const char *name = mip_profile_string(p, f->name);
    char *demangled = demangle(name);
    emit_object_begin(&e, NULL);
    if (x->line)
      emit_u64(&e, "line", x->line);
    else
      emit_null(&e, "line");
    emit_string(&e, "name", name);
    emit_string(&e, "demangled", demangled);
    emit_bool(&e, "local", (f->flags & MIP_FN_LOCAL) != 0);
    emit_string_or_null(
        &e, "unit",
        (f->flags & MIP_FN_LOCAL) ? mip_profile_string(p, f->unit) : NULL);
    emit_string(&e, "group", order_group_name(x->group));
    if (x->cluster)
      emit_u64(&e, "cluster", x->cluster);
    else
      emit_null(&e, "cluster");
    if (has_rank(f))
      emit_double(&e, "rank", mean_rank(f));
    else
      emit_null(&e, "rank");
    emit_u64(&e, "calls", x->calls);
    if (x->size)
      emit_u64(&e, "size", x->size);
    else
      emit_null(&e, "size");
    emit_object_end(&e);
    free(demangled);
  }
  emit_array_end(&e);
  emit_end(&e);
}

/* ---- checks and notes ------------------------------------------------ */

static int check_profile(const char *path, const struct mip_profile *p,
                         int data_only, struct mip_error *err) {
  if (data_only && !mip_profile_has(p, MIP_RAW_DATA))
    return mip_fail(err, path,
                    "no data accesses in this profile: order --data needs "
                    "a build with -fmip-generate=data");
  if (!mip_profile_has(p, MIP_RAW_CNT) && !mip_profile_has(p, MIP_RAW_DATA))
    return mip_fail(err, path,
                    "no call counts in this profile: order needs a build "
                    "with -fmip-generate=counts (best counts,order,edges)");
  if (!p->runs)
    return mip_fail(err, path,
                    "no runs merged yet: run the program and merge its raw "
                    "profiles (mipdata merge) first");
  return 0;
}

/* At most one line on what the profile lacks and what that changes. */
static void note_fallbacks(const char *path, const struct order_result *r) {
  const char *what = NULL, *effect = NULL;
  if (!r->ranked && r->clustering == ORDER_NO_EDGES) {
    what = "no first-call order and no call edges (build with "
           "-fmip-generate=counts,order,edges)";
    effect = "called functions are placed by calls";
  } else if (!r->ranked) {
    what = "no first-call order (build with -fmip-generate=counts,order,"
           "edges)";
    effect = "start-up functions cannot be told apart; called functions "
             "are placed by calls";
  } else if (r->clustering == ORDER_NO_EDGES) {
    what = "no call edges (build with -fmip-generate=counts,order,edges)";
    effect = "hot functions are placed by calls, not clustered";
  } else if (r->clustering == ORDER_NO_SIZES) {
    what = "no function sizes (it was created from a bare map section)";
    effect = "hot functions are placed by calls, not clustered";
  }
  if (what)
    note(path, "%s; %s", what, effect);
}

/* ---- options --------------------------------------------------------- */

/* Fills o from the command line; CLI_GO_ON, or the status to exit with. */
static int parse_options(int argc, char **argv, struct order_cmd *o) {
  static const char *const formats[] = {"lld", "gold", NULL};
  int format = FORMAT_LLD, explain_format = EMIT_TEXT;
  struct mip_decide_options decide;
  mip_decide_defaults(&decide);
  memset(o, 0, sizeof *o);
  o->layout.hot_share = decide.hot_share;
  o->layout.cluster_size = ORDER_DEFAULT_CLUSTER_SIZE;
  o->layout.startup_limit = ORDER_NO_LIMIT;
  struct opt explain = OPT_CHOICE("explain", &explain_format,
                                  emit_format_names,
                                  "print the placement, function by function");
  explain.flags = OPT_OPTIONAL_VALUE;
  explain.noun = "--explain format";
  struct opt options[] = {
      OPT_PROFILE(&o->profile, "the profile, with call counts"),
      OPT_OUTPUT(&o->output, "ORDER_FILE", "the ordering file to write"),
      OPT_CHOICE("format", &format, formats,
                 "for ld.lld --symbol-ordering-file or gold "
                 "--section-ordering-file"),
      OPT_UINT("startup", &o->layout.startup_limit, 0, UINT64_MAX, "N",
               "how many functions, by first call, count as start-up"),
      opt_decide(MIP_DECIDE_HOT_SHARE, &o->layout.hot_share),
      OPT_UINT("cluster-size", &o->layout.cluster_size, 1, UINT64_MAX,
               "BYTES", "the largest cluster of hot functions"),
      explain,
      OPT_FLAG("data", &o->data_only,
               "only the global variables (a profile of "
               "-fmip-generate=data), not the functions"),
      OPT_END,
  };
  struct cli cli = {.command = "order", .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  o->format = (enum order_format)format;
  o->explain = cli_given(&cli, "explain") > 0;
  o->explain_format = (enum emit_format)explain_format;
  if (!o->output && !o->explain)
    return cli_error(&cli, "-o ORDER_FILE is required (or --explain)");
  return CLI_GO_ON;
}

int cmd_order(int argc, char **argv) {
  struct order_cmd o;
  int rc = parse_options(argc, argv, &o);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct mip_profile p;
  if (mip_profile_read(o.profile, &p, &err) ||
      check_profile(o.profile, &p, o.data_only, &err)) {
    mip_profile_free(&p);
    return report(&err);
  }
  o.functions = !o.data_only && mip_profile_has(&p, MIP_RAW_CNT);
  o.data = mip_profile_has(&p, MIP_RAW_DATA);
  struct order_result r = {0};
  struct data_order d = {0};
  if (o.functions)
    order_functions(&p, &o.layout, &r);
  if (o.data)
    data_order(&p, o.layout.hot_share, &d);
  if (o.output) {
    struct mip_buf out = {0};
    if (o.functions)
      render(&p, &r, o.format, o.layout.hot_share, &out);
    render_data(&p, &d, o.format, &out);
    output_file(o.output, &out);
  }
  if (o.functions)
    note_fallbacks(o.profile, &r);
  if (o.functions && !o.explain)
    summary_line(&o, &r, stdout);
  else if (o.functions && o.explain_format == EMIT_TEXT)
    explain_text(&o, &p, &r);
  else if (o.functions)
    explain_structured(&o, &p, &r);
  if (o.data && !(o.explain && o.explain_format != EMIT_TEXT))
    data_summary_line(&o, &d, stdout);
  if (o.functions)
    order_result_free(&r);
  data_order_free(&d);
  mip_profile_free(&p);
  return 0;
}
