/*
 * mipdata export -p PROFILE [--debug BINARY] --format FORMAT [-o FILE]
 * The profile in the format another tool reads: pprof, DHAT's JSON,
 * lcov's tracefile, Cobertura's XML, speedscope's JSON, callgrind's
 * format, folded stacks. One writer per format (export_FORMAT.c, export.h); this file
 * reads the command line, opens the report and runs the writer. A
 * profile that lacks what the format carries fails before anything is
 * written (docs/mipdata.md#export).
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "export.h"
#include "report_debug.h"
#include "report_filter.h"

struct export_format {
  const char *name;
  export_writer write;
  int decided; /* it shows the class a rebuild gives each context */
};

/* Every format, in the order of --help. */
static const struct export_format formats[] = {
    {"pprof", export_pprof, 1},
    {"dhat", export_dhat, 0},
    {"lcov", export_lcov, 0},
    {"cobertura", export_cobertura, 0},
    {"speedscope", export_speedscope, 0},
    {"callgrind", export_callgrind, 0},
    {"folded", export_folded, 0},
};
#define FORMAT_COUNT (sizeof formats / sizeof formats[0])

struct export_options {
  const char *profile, *debug;
  int format;
  int metric; /* enum report_metric */
  struct report_filter filter; /* of the heap contexts exported */
};

static int parse_options(int argc, char **argv, struct export_options *o) {
  static const char *format_names[FORMAT_COUNT + 1];
  for (size_t i = 0; i < FORMAT_COUNT; i++)
    format_names[i] = formats[i].name;
  const char *report_path = NULL;
  memset(o, 0, sizeof *o); /* format: given, as it is required */
  o->metric = REPORT_BYTES;
  report_filter_init(&o->filter);
  struct opt options[] = {
      OPT_PROFILE(&o->profile, "the profile to export"),
      OPT_DEBUG(&o->debug, "the profiled binary (unstripped) or its debug "
                           "file: the source files of functions"),
      OPT_NEEDED(OPT_CHOICE("format", &o->format, format_names,
                            "the format to write")),
      OPT_METRIC(&o->metric, "the metric of folded stacks"),
      OPT_HEAP_FILTERS(&o->filter),
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "export", .options = options};
  int rc = cli_parse(&cli, argc, argv);
  return rc == CLI_GO_ON ? report_filter_parsed(&cli, &o->filter) : rc;
}

/* The class of each context (pprof's labels) where a rebuild would
 * decide one: a profile with runs and heap data. */
static int decide(const struct export_format *f, struct report *r,
                  struct mip_error *err) {
  if (!f->decided || !r->runs || !r->has_heap)
    return 0;
  struct mip_decide_options d;
  mip_decide_defaults(&d);
  return report_decide(r, &d, err);
}

int cmd_export(int argc, char **argv) {
  struct export_options o;
  int rc = parse_options(argc, argv, &o);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct report r;
  if (report_open_debug(o.profile, o.debug, 1, &r, &err)) {
    report_filter_free(&o.filter);
    return report(&err);
  }
  report_filter_apply(&r, &o.filter);
  struct export_input in = {&r, o.debug, (enum report_metric)o.metric};
  const struct export_format *f = &formats[o.format];
  rc = decide(f, &r, &err) || f->write(&in, stdout, &err) ? report(&err) : 0;
  report_free(&r);
  report_filter_free(&o.filter);
  return rc;
}
