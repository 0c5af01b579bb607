/* A profile's functions and block lines by source file, for lcov and
 * Cobertura (export_coverage.h). */
#include <stdlib.h>
#include <string.h>

#include "export_coverage.h"
#include "message.h"

static const char *file_of(const struct report_function *f) {
  return export_function_file(f);
}

static int compare_u32(uint32_t x, uint32_t y) { return (x > y) - (x < y); }

static int by_file_and_line(const void *a, const void *b) {
  const struct report_function *x = *(const struct report_function *const *)a;
  const struct report_function *y = *(const struct report_function *const *)b;
  int c = strcmp(file_of(x), file_of(y));
  if (!c)
    c = compare_u32(x->line, y->line);
  return c ? c : compare_u32(x->index, y->index);
}

static int by_line(const void *a, const void *b) {
  const struct cov_line *x = a, *y = b;
  return compare_u32(x->line, y->line);
}

/* lines[0, n) sorted, each line once with its most hits; the new count. */
static size_t merge_lines(struct cov_line *lines, size_t n) {
  if (!n)
    return 0;
  qsort(lines, n, sizeof *lines, by_line);
  size_t out = 0;
  for (size_t i = 1; i < n; i++) {
    if (lines[i].line == lines[out].line) {
      if (lines[i].hits > lines[out].hits)
        lines[out].hits = lines[i].hits;
    } else {
      lines[++out] = lines[i];
    }
  }
  return out + 1;
}

static void add_function(struct cov_file *file,
                         const struct report_function *f) {
  struct cov_function *cf = &file->functions[file->function_count++];
  cf->f = f;
  cf->hits = f->counted ? f->calls : f->runs;
  file->functions_hit += cf->hits > 0;
  cf->lines = mip_xcalloc(f->block_count + 1, sizeof *cf->lines);
  for (uint32_t b = 0; b < f->block_count; b++)
    if (f->blocks[b].line)
      cf->lines[cf->line_count++] =
          (struct cov_line){f->blocks[b].line, f->blocks[b].covered_runs};
  if (!cf->line_count && f->line) /* no blocks: the function's own line */
    cf->lines[cf->line_count++] = (struct cov_line){f->line, f->runs};
  cf->line_count = merge_lines(cf->lines, cf->line_count);
}

/* The file's lines: its functions' lines, merged. */
static void file_lines(struct cov_file *file) {
  size_t n = 0;
  for (size_t i = 0; i < file->function_count; i++)
    n += file->functions[i].line_count;
  file->lines = mip_xcalloc(n + 1, sizeof *file->lines);
  n = 0;
  for (size_t i = 0; i < file->function_count; i++) {
    memcpy(file->lines + n, file->functions[i].lines,
           file->functions[i].line_count * sizeof *file->lines);
    n += file->functions[i].line_count;
  }
  file->line_count = merge_lines(file->lines, n);
  for (size_t i = 0; i < file->line_count; i++)
    file->lines_hit += file->lines[i].hits > 0;
}

/* Whether the compiler made f, with no source line of its own even with
 * -g: names the C++ ABI reserves for what it generates (TLS wrappers and
 * initializers, thunks, _GLOBAL__ initializers) and Clang's own. */
static int compiler_generated(const struct report_function *f) {
  static const char *const prefixes[] = {"_ZTW",
                                         "_ZTH",
                                         "_ZThn",
                                         "_ZTv",
                                         "_ZTc",
                                         "__tls_init",
                                         "_GLOBAL__sub_I_",
                                         "_GLOBAL__D_",
                                         "__cxx_global_var_init",
                                         "__cxx_global_array_dtor",
                                         "__clang_call_terminate",
                                         "__dtor_"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (!strncmp(f->name, prefixes[i], strlen(prefixes[i])))
      return 1;
  return 0;
}

/* The notes on what was left out: each kind for what it is. */
static void note_left_out(const struct report *r, const struct coverage *c,
                          const char *first_generated, const char *format) {
  if (c->generated)
    note(r->path,
         "%zu compiler-generated function%s (no source line, such as %s) "
         "left out of the %s file",
         c->generated, c->generated == 1 ? "" : "s", first_generated, format);
  if (c->no_file)
    note(r->path,
         "%zu function%s without a source file (built without -g) left "
         "out of the %s file",
         c->no_file, c->no_file == 1 ? "" : "s", format);
}

int coverage_build(const struct export_input *in, const char *format,
                   struct coverage *c, struct mip_error *err) {
  memset(c, 0, sizeof *c);
  if (export_need_files(in, format, err))
    return -1;
  const struct report *r = in->r;
  const struct report_function **order =
      mip_xcalloc(r->function_count + 1, sizeof *order);
  size_t n = 0;
  const char *first_generated = NULL;
  for (size_t i = 0; i < r->function_count; i++) {
    const struct report_function *f = &r->functions[i];
    if (file_of(f))
      order[n++] = f;
    else if (!compiler_generated(f))
      c->no_file++;
    else if (c->generated++ == 0)
      first_generated = f->demangled;
  }
  qsort(order, n, sizeof *order, by_file_and_line);
  c->files = mip_xcalloc(n + 1, sizeof *c->files);
  for (size_t i = 0; i < n;) {
    size_t end = i + 1;
    while (end < n && !strcmp(file_of(order[i]), file_of(order[end])))
      end++;
    struct cov_file *file = &c->files[c->file_count++];
    file->path = file_of(order[i]);
    file->functions = mip_xcalloc(end - i, sizeof *file->functions);
    for (size_t k = i; k < end; k++)
      add_function(file, order[k]);
    file_lines(file);
    c->functions += file->function_count;
    c->functions_hit += file->functions_hit;
    c->lines += file->line_count;
    c->lines_hit += file->lines_hit;
    i = end;
  }
  free(order);
  note_left_out(r, c, first_generated, format);
  return 0;
}

void coverage_free(struct coverage *c) {
  for (size_t i = 0; i < c->file_count; i++) {
    for (size_t k = 0; k < c->files[i].function_count; k++)
      free(c->files[i].functions[k].lines);
    free(c->files[i].functions);
    free(c->files[i].lines);
  }
  free(c->files);
  memset(c, 0, sizeof *c);
}
