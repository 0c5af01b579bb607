/*
 * Which heap contexts a report keeps (docs/mipdata.md, "Heap filters"):
 * by allocator family, block size, blocks live at exit and a frame
 * matching a regular expression. A filter step of the report model, so
 * that every command that prints contexts (show --heap, annotate) can
 * offer it with the same options and the same meaning.
 */
#ifndef MIPDATA_REPORT_FILTER_H
#define MIPDATA_REPORT_FILTER_H

#include <regex.h>
#include <stdint.h>

#include "options.h"
#include "report.h"

struct report_filter {
  const char *alloc;  /* comma-separated allocator names and families; NULL:
                         all */
  uint64_t min_size;  /* every block of the context at least this */
  uint64_t max_size;  /* and at most this */
  int live;           /* only contexts with blocks live at exit */
  const char *frame;  /* POSIX extended regular expression; NULL: all */
  /* Set by report_filter_compile: */
  uint64_t allocators; /* bit per MIP_ALLOC_* id */
  regex_t regex;
  int compiled;
};

/* The options, for a command's table: --alloc, --min-size, --max-size,
 * --live, --frame. */
#define OPT_HEAP_FILTERS(F)                                                    \
  OPT_STRING("alloc", 0, &(F)->alloc, "NAMES",                                 \
             "contexts of these allocators (malloc, calloc, ..., operator "    \
             "new; families c and c++), separated by commas"),                \
      OPT_UINT("min-size", &(F)->min_size, 0, UINT64_MAX, "BYTES",             \
               "contexts whose blocks are all at least BYTES"),                \
      OPT_UINT("max-size", &(F)->max_size, 0, UINT64_MAX, "BYTES",             \
               "contexts whose blocks are all at most BYTES"),                 \
      OPT_FLAG("live", &(F)->live, "contexts with blocks live at exit"),       \
      OPT_STRING("frame", 0, &(F)->frame, "REGEX",                             \
                 "contexts with a frame whose function or file matches the "   \
                 "extended regular expression REGEX")

/* A filter that keeps everything, before the options are read. */
void report_filter_init(struct report_filter *f);
/* Whether any filter option was given. */
int report_filter_active(const struct report_filter *f);
/* Checks and compiles the options: 0, or -1 with why (one line). */
int report_filter_compile(struct report_filter *f, char *why, size_t size);
/* After cli_parse: compiles f, or says why not as a usage error. Returns
 * CLI_GO_ON, or the status to exit with. (Inline: the model's objects,
 * which the unit tests link, do not take the command line's.) */
static inline int report_filter_parsed(struct cli *cli,
                                       struct report_filter *f) {
  char why[512];
  if (report_filter_compile(f, why, sizeof why))
    return cli_error(cli, "%s", why);
  return CLI_GO_ON;
}
/* Drops the contexts of r that f does not keep. */
void report_filter_apply(struct report *r, const struct report_filter *f);
void report_filter_free(struct report_filter *f);

#endif
