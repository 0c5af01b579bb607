/*
 * What the coverage formats (lcov, Cobertura) share: a profile's
 * functions grouped by source file, with the lines of their blocks.
 *   a function's hits  its calls when it was built with call counts, else
 *                      the merged runs that entered it;
 *   a line's hits      the most runs any block on that line ran in (a run
 *                      that ran one block of the line ran the line; which
 *                      runs ran which block is not kept, so the runs of
 *                      two blocks do not add up).
 * Lines are those of the blocks (-fmip-generate=blocks). A function without
 * block lines (built without blocks) has its declaration line instead,
 * hit in the runs that entered it: function-entry coverage as lines, which
 * is all that Cobertura's readers show.
 */
#ifndef MIPDATA_EXPORT_COVERAGE_H
#define MIPDATA_EXPORT_COVERAGE_H

#include "export.h"

struct cov_line {
  uint32_t line;
  uint64_t hits;
};

struct cov_function {
  const struct report_function *f;
  uint64_t hits;
  struct cov_line *lines; /* its blocks' lines, in order, each once */
  size_t line_count;
};

struct cov_file {
  const char *path;
  struct cov_function *functions; /* by line */
  size_t function_count, functions_hit;
  struct cov_line *lines; /* of all its functions, in order, each once */
  size_t line_count, lines_hit;
};

struct coverage {
  struct cov_file *files; /* by path */
  size_t file_count;
  size_t functions, functions_hit, lines, lines_hit;
  /* Functions left out: no debug information names their file (the
   * readers of both formats open every file they name). Those the
   * compiler made, with no source line even with -g, apart. */
  size_t no_file, generated;
};

/* Fails (one line) without a --debug binary: the formats name files.
 * Notes on stderr how many functions had no file. */
int coverage_build(const struct export_input *in, const char *format,
                   struct coverage *c, struct mip_error *err);
void coverage_free(struct coverage *c);

#endif
