/*
 * mipdata show -p PROFILE [--debug BINARY] [--covered|--uncovered]
 *              [--format text|yaml|json]
 * Per function: its name (mangled and demangled), whether any merged run
 * covered it and how many did, and with --debug its source file and line.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "debuginfo.h"
#include "demangle.h"
#include "elf_image.h"
#include "emit.h"

enum filter { SHOW_ALL, SHOW_COVERED, SHOW_UNCOVERED };

struct show_options {
  const char *profile;
  const char *debug;
  enum filter filter;
  enum emit_format format;
};

/* One function as shown, whatever the format. */
struct row {
  const char *name;
  char *demangled;
  const char *unit; /* NULL unless local */
  int covered;
  uint64_t covered_runs;
  const char *file; /* NULL when unknown */
  uint32_t line;
};

static void fill_row(const struct mip_profile *p,
                     const struct mip_profile_function *f,
                     const struct debuginfo *di, struct row *r) {
  r->name = mip_profile_string(p, f->name);
  r->demangled = demangle(r->name);
  r->unit = (f->flags & MIP_FN_LOCAL) ? mip_profile_string(p, f->unit) : NULL;
  r->covered = f->covered_runs > 0;
  r->covered_runs = f->covered_runs;
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

/* ---- structured output ---------------------------------------------- */

static void emit_row(struct emitter *e, const struct row *r) {
  emit_object_begin(e, NULL);
  emit_string(e, "name", r->name);
  emit_string(e, "demangled", r->demangled);
  emit_bool(e, "local", r->unit != NULL);
  emit_string_or_null(e, "unit", r->unit);
  emit_bool(e, "covered", r->covered);
  emit_u64(e, "covered_runs", r->covered_runs);
  emit_string_or_null(e, "file", r->file);
  if (r->file)
    emit_u64(e, "line", r->line);
  else
    emit_null(e, "line");
  emit_object_end(e);
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
      emit_row(&e, &r);
    free(r.demangled);
  }
  emit_array_end(&e);
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
  static const char *const heading[] = {"COVERED", "RUNS", "FUNCTION",
                                        "LOCATION"};
  struct table t;
  table_init(&t, 4, heading);
  t.right_align[1] = 1;
  for (size_t i = 0; i < p->function_count; i++) {
    struct row r;
    fill_row(p, &p->functions[i], di, &r);
    if (wanted(o, &r)) {
      char runs[48], where[4096];
      snprintf(runs, sizeof runs, "%" PRIu64 "/%" PRIu64, r.covered_runs,
               p->runs);
      text_location(&r, where, sizeof where);
      const char *cells[] = {r.covered ? "yes" : "no", runs, r.demangled,
                             where};
      table_add(&t, cells);
    }
    free(r.demangled);
  }
  table_print(&t, stdout);
  table_free(&t);
}

/* ---- setup ---------------------------------------------------------- */

/* The binary given to --debug must be the profiled build. */
static int check_debug_binary(const char *path, const struct mip_profile *p,
                              struct mip_error *err) {
  struct elf_image img;
  if (elf_image_open(path, &img, err))
    return -1;
  struct mip_build_id id;
  elf_image_build_id(&img, &id);
  elf_image_close(&img);
  if (p->build_id.size && id.size && !mip_build_id_equal(&id, &p->build_id)) {
    char a[2 * MIP_BUILD_ID_MAX + 1], b[2 * MIP_BUILD_ID_MAX + 1];
    return mip_fail(err, path,
                    "build-id %s does not match the profile's (%s)",
                    mip_build_id_hex(&id, a, sizeof a),
                    mip_build_id_hex(&p->build_id, b, sizeof b));
  }
  return 0;
}

static int parse_options(int argc, char **argv, struct show_options *o) {
  static const struct option options[] = {
      {"profile", required_argument, 0, 'p'},
      {"debug", required_argument, 0, 'd'},
      {"covered", no_argument, 0, 'c'},
      {"uncovered", no_argument, 0, 'u'},
      {"format", required_argument, 0, 'f'},
      {0, 0, 0, 0}};
  memset(o, 0, sizeof *o);
  o->format = EMIT_TEXT;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "p:", options, NULL)) != -1) {
    switch (c) {
    case 'p':
      o->profile = optarg;
      break;
    case 'd':
      o->debug = optarg;
      break;
    case 'c':
    case 'u':
      if (o->filter != SHOW_ALL)
        return usage_error("show", "--covered and --uncovered exclude each "
                                   "other");
      o->filter = c == 'c' ? SHOW_COVERED : SHOW_UNCOVERED;
      break;
    case 'f':
      if (emit_parse_format(optarg, &o->format))
        return usage_error("show", "unknown format '%s'", optarg);
      break;
    default:
      return usage_error("show", "bad option");
    }
  }
  if (!o->profile)
    return usage_error("show", "-p PROFILE is required");
  if (optind != argc)
    return usage_error("show", "unexpected argument '%s'", argv[optind]);
  return 0;
}

int cmd_show(int argc, char **argv) {
  struct show_options o;
  int rc = parse_options(argc, argv, &o);
  if (rc)
    return rc;
  struct mip_error err;
  struct mip_profile p;
  struct debuginfo *di = NULL;
  if (mip_profile_read(o.profile, &p, &err) ||
      (o.debug && (check_debug_binary(o.debug, &p, &err) ||
                   !(di = debuginfo_open(o.debug, &err))))) {
    mip_profile_free(&p);
    return report(&err);
  }
  if (o.format == EMIT_TEXT)
    show_text(&o, &p, di);
  else
    show_structured(&o, &p, di);
  debuginfo_close(di);
  mip_profile_free(&p);
  return 0;
}
