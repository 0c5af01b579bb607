/*
 * mipdata export --format lcov: an lcov tracefile (geninfo(1)'s format),
 * for genhtml, Codecov and the other readers of lcov's files. Per source
 * file: each function's declaration line and name (FN, its linkage name:
 * genhtml --demangle-cpp shows it demangled), its hits (FNDA), the
 * functions found and hit (FNF, FNH), the lines of its blocks with their
 * hits (DA), the lines found and hit (LF, LH). What a hit is, and the
 * lines of a function without blocks: export_coverage.h.
 */
#include <inttypes.h>

#include "escape.h"
#include "export_coverage.h"

/* A name or path, with what would end its record escaped (escape.h): no
 * name can add records. */
static void field(FILE *out, const char *s) {
  escape_line_field(out, s, NULL);
  fputc('\n', out);
}

static void write_file(FILE *out, const struct cov_file *file) {
  fputs("TN:\nSF:", out);
  field(out, file->path);
  for (size_t i = 0; i < file->function_count; i++) {
    fprintf(out, "FN:%" PRIu32 ",", file->functions[i].f->line);
    field(out, file->functions[i].f->name);
  }
  for (size_t i = 0; i < file->function_count; i++) {
    fprintf(out, "FNDA:%" PRIu64 ",", file->functions[i].hits);
    field(out, file->functions[i].f->name);
  }
  fprintf(out, "FNF:%zu\nFNH:%zu\n", file->function_count, file->functions_hit);
  for (size_t i = 0; i < file->line_count; i++)
    fprintf(out, "DA:%" PRIu32 ",%" PRIu64 "\n", file->lines[i].line,
            file->lines[i].hits);
  fprintf(out, "LF:%zu\nLH:%zu\nend_of_record\n", file->line_count,
          file->lines_hit);
}

int export_lcov(const struct export_input *in, FILE *out,
                struct mip_error *err) {
  struct coverage c;
  if (coverage_build(in, "lcov", &c, err))
    return -1;
  for (size_t i = 0; i < c.file_count; i++)
    write_file(out, &c.files[i]);
  coverage_free(&c);
  return 0;
}
