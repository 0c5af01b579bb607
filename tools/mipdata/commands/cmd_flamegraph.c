/*
 * mipdata flamegraph -p PROFILE [--base BASE] [--debug BINARY]
 *                    [--metric M] [--normalize none|runs|total]
 *                    [--band PERCENT] [--key coarse|fine]
 *                    [--merge-below SHARE] [--format html|folded] [-o FILE]
 * The heap contexts of a profile as a flame graph: one HTML page with
 * everything inline (flame_page.h), or folded stacks for other flame
 * graph tools (folded.h). With --base, a differential flame graph: the
 * profile's widths, coloured by the change of each frame's self value
 * against the base's, scaled (report_metric.h).
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "flame_page.h"
#include "folded.h"
#include "report_filter.h"
#include "report_debug.h"
#include "report_text.h"

enum flame_format { FLAME_HTML, FLAME_FOLDED };

struct flame_options {
  const char *profile, *base, *debug;
  enum flame_format format;
  struct flame_page_options page;
  struct report_filter filter; /* of both profiles' contexts */
};

static const char *const formats[] = {"html", "folded", NULL};
static const char *const keys[] = {"fine", "coarse", NULL}; /* report_key */

/* The options that only a page (not folded stacks) or only a comparison
 * takes: a usage error when given without it. */
static int check_combinations(struct cli *cli, const struct flame_options *o) {
  static const char *const page_only[] = {"base",  "band",        "key",
                                          "normalize", "merge-below", NULL};
  static const char *const base_only[] = {"band", "normalize", NULL};
  if (o->format == FLAME_FOLDED)
    for (int i = 0; page_only[i]; i++)
      if (cli_given(cli, page_only[i]))
        return cli_error(cli, "--%s goes with --format html", page_only[i]);
  for (int i = 0; !o->base && base_only[i]; i++)
    if (cli_given(cli, base_only[i]))
      return cli_error(cli, "--%s goes with --base", base_only[i]);
  return CLI_GO_ON;
}

static int parse_options(int argc, char **argv, struct flame_options *o) {
  const char *report_path = NULL;
  int format = FLAME_HTML, key = REPORT_COARSE,
      normalize = REPORT_NORMALIZE_RUNS, metric = REPORT_BYTES;
  double band = 100 * FLAME_PAGE_BAND, merge = FLAME_PAGE_MERGE_BELOW;
  memset(o, 0, sizeof *o);
  report_filter_init(&o->filter);
  struct opt options[] = {
      OPT_PROFILE(&o->profile, "the profile to draw"),
      OPT_STRING("base", 0, &o->base, "BASE",
                 "compare with this profile: a differential flame graph"),
      OPT_DEBUG(&o->debug, "the profiled binary (unstripped) or its debug "
                           "file, checked to be PROFILE's build"),
      OPT_METRIC(&metric, "the metric shown first, or folded"),
      OPT_NORMALIZE(&normalize, "how the base's values are scaled"),
      OPT_NUMBER("band", &band, 0, 1000, "PERCENT",
                 "the neutral band of a comparison, shown first"),
      OPT_CHOICE("key", &key, keys,
                 "frames are one by function and file (coarse) or by line "
                 "too (fine)"),
      OPT_NUMBER("merge-below", &merge, 0, 1, "SHARE",
                 "frames narrower than this share of the whole in every "
                 "metric merge into one 'other' box"),
      OPT_CHOICE("format", &format, formats,
                 "an HTML page or folded stacks"),
      OPT_HEAP_FILTERS(&o->filter),
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "flamegraph", .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  o->page.metric = (enum report_metric)metric;
  o->format = (enum flame_format)format;
  o->page.key = (enum report_key)key;
  o->page.normalize = (enum report_normalize)normalize;
  o->page.band = band / 100;
  o->page.merge_below = merge;
  rc = check_combinations(&cli, o);
  return rc == CLI_GO_ON ? report_filter_parsed(&cli, &o->filter) : rc;
}

/* A profile whose heap the command can draw, the contexts filter keeps:
 * one line when not. */
static int open_heap(const char *path, const char *debug,
                     const struct report_filter *filter, struct report *r,
                     struct mip_error *err) {
  if (report_open_debug(path, debug, 0, r, err))
    return -1;
  report_filter_apply(r, filter);
  if (!r->has_heap) {
    mip_fail(err, path, "no heap data: %s", report_no_heap_reason(r));
    report_free(r);
    return -1;
  }
  return 0;
}

static int draw(const struct flame_options *o, const struct report *cur,
                const struct report *base) {
  struct mip_error err;
  if (report_metric_check(base, cur, o->page.metric, &err))
    return report(&err);
  if (o->format == FLAME_FOLDED) {
    if (!folded_write(cur, o->page.metric, stdout))
      return 0;
    mip_fail(&err, "stdout", "cannot write the folded stacks");
    return report(&err);
  }
  struct flame_page_summary s;
  flame_page_write(stdout, cur, base, &o->page, &s);
  if (base)
    note(cur->path,
         "against %s: %zu frame%s worse, %zu better, %zu new (%s); %zu "
         "stack%s of the base vanished",
         base->path, s.worse, report_plural(s.worse), s.better, s.added,
         report_metrics[o->page.metric].key, s.elided,
         report_plural(s.elided));
  return 0;
}

int cmd_flamegraph(int argc, char **argv) {
  struct flame_options o;
  int rc = parse_options(argc, argv, &o);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct report cur, base;
  if (open_heap(o.profile, o.debug, &o.filter, &cur, &err)) {
    rc = report(&err);
  } else if (o.base && open_heap(o.base, NULL, &o.filter, &base, &err)) {
    report_free(&cur);
    rc = report(&err);
  } else {
    rc = draw(&o, &cur, o.base ? &base : NULL);
    if (o.base)
      report_free(&base);
    report_free(&cur);
  }
  report_filter_free(&o.filter);
  return rc;
}
