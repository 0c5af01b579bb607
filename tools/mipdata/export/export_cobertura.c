/*
 * mipdata export --format cobertura: Cobertura's XML (coverage-04.dtd),
 * which GitLab, Jenkins and Azure DevOps read. Written directly rather
 * than through gcovr's JSON: the CI services take the XML file as it is,
 * with no gcovr on the machine. Files are named as the services resolve
 * them, relative to a source: an absolute path relative to "/", any other
 * to ".". One package (the profile), one class per source file, one
 * method per function, each with its block lines and
 * their hits (export_coverage.h); rates are lines hit over lines, 0.0
 * without lines, as gcovr writes them. MIP has no branches: branch rates
 * are 0.0 over no branches.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "escape.h"
#include "export_coverage.h"

static double rate(size_t hit, size_t total) {
  return total ? (double)hit / (double)total : 0.0;
}

static void write_lines(FILE *out, const char *indent,
                        const struct cov_line *lines, size_t n) {
  fprintf(out, "%s<lines>\n", indent);
  for (size_t i = 0; i < n; i++)
    fprintf(out,
            "%s  <line number=\"%" PRIu32 "\" hits=\"%" PRIu64
            "\" branch=\"false\"/>\n",
            indent, lines[i].line, lines[i].hits);
  fprintf(out, "%s</lines>\n", indent);
}

static void write_method(FILE *out, const struct cov_function *m) {
  size_t hit = 0;
  for (size_t i = 0; i < m->line_count; i++)
    hit += m->lines[i].hits > 0;
  fputs("            <method name=\"", out);
  escape_xml(out, m->f->demangled);
  fprintf(out,
          "\" signature=\"\" line-rate=\"%.6g\" branch-rate=\"0.0\" "
          "complexity=\"0.0\">\n",
          rate(hit, m->line_count));
  write_lines(out, "              ", m->lines, m->line_count);
  fputs("            </method>\n", out);
}

static void write_class(FILE *out, const struct cov_file *file) {
  const char *base = strrchr(file->path, '/');
  fputs("        <class name=\"", out);
  escape_xml(out, base ? base + 1 : file->path);
  fputs("\" filename=\"", out);
  escape_xml(out, file->path[0] == '/' ? file->path + 1 : file->path);
  fprintf(out,
          "\" line-rate=\"%.6g\" branch-rate=\"0.0\" "
          "complexity=\"0.0\">\n          <methods>\n",
          rate(file->lines_hit, file->line_count));
  for (size_t i = 0; i < file->function_count; i++)
    write_method(out, &file->functions[i]);
  fputs("          </methods>\n", out);
  write_lines(out, "          ", file->lines, file->line_count);
  fputs("        </class>\n", out);
}

int export_cobertura(const struct export_input *in, FILE *out,
                     struct mip_error *err) {
  struct coverage c;
  if (coverage_build(in, "Cobertura", &c, err))
    return -1;
  double line_rate = rate(c.lines_hit, c.lines);
  fprintf(
      out,
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<!DOCTYPE coverage SYSTEM "
      "\"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
      "<coverage line-rate=\"%.6g\" branch-rate=\"0.0\" lines-covered=\"%zu\" "
      "lines-valid=\"%zu\" branches-covered=\"0\" branches-valid=\"0\" "
      "complexity=\"0.0\" version=\"mipdata %s\" timestamp=\"%lld\">\n"
      "  <sources>\n    <source>/</source>\n    <source>.</source>\n"
      "  </sources>\n  <packages>\n    <package name=\"",
      line_rate, c.lines_hit, c.lines, mip_version(), (long long)time(NULL));
  escape_xml(out, in->r->path);
  fprintf(out,
          "\" line-rate=\"%.6g\" branch-rate=\"0.0\" "
          "complexity=\"0.0\">\n      <classes>\n",
          line_rate);
  for (size_t i = 0; i < c.file_count; i++)
    write_class(out, &c.files[i]);
  fputs("      </classes>\n    </package>\n  </packages>\n</coverage>\n", out);
  coverage_free(&c);
  return 0;
}
