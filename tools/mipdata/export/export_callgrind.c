/*
 * mipdata export --format callgrind: callgrind's profile format
 * (valgrind's docs/callgrind-format), for KCachegrind and
 * callgrind_annotate, from call counts. One event, Calls: each counted
 * function's self cost is its calls, at its declaration line. Sampled
 * call edges (-fmip-generate=edges) become calls= lines in the caller:
 * the runtime samples an edge on its first call and every edge_period
 * calls after it, so an edge's calls are about samples * period (never
 * more than the callee's calls), and that is its inclusive cost too: MIP
 * does not know what the callee went on to call on that edge's behalf.
 * Edges from outside MIP's code have no caller to go under and are left
 * out.
 */
#include <inttypes.h>

#include "escape.h"
#include "export.h"

static const char *file_of(const struct report_function *f) {
  const char *file = export_function_file(f);
  return file ? file : "???";
}

/* A "KEY=NAME" line: no name can end it and add lines (escape.h), nor
 * be read as a compressed name's "(id)" (a leading '(' shown escaped). */
static void name_line(FILE *out, const char *key, const char *name) {
  fputs(key, out);
  if (name[0] == '(') {
    fputs("\\x28", out);
    name++;
  }
  escape_line_field(out, name, NULL);
  fputc('\n', out);
}

static uint64_t edge_calls(const struct report *r,
                           const struct report_edge *e) {
  uint64_t calls = e->samples;
  if (r->edge_period && calls <= UINT64_MAX / r->edge_period)
    calls *= r->edge_period;
  return calls < e->callee->calls ? calls : e->callee->calls;
}

static void write_edge(FILE *out, const struct report *r,
                       const struct report_edge *e) {
  const struct report_function *callee = e->callee;
  uint64_t calls = edge_calls(r, e);
  name_line(out, "cfl=", file_of(callee));
  name_line(out, "cfn=", callee->demangled);
  fprintf(out, "calls=%" PRIu64 " %" PRIu32 "\n%" PRIu32 " %" PRIu64 "\n",
          calls, callee->line, e->caller->line, calls);
}

int export_callgrind(const struct export_input *in, FILE *out,
                     struct mip_error *err) {
  const struct report *r = in->r;
  if (!r->counted)
    return mip_fail(err, r->path,
                    "no call counts to export as callgrind (build with "
                    "-fmip-generate=counts)");
  uint64_t total = 0;
  for (size_t i = 0; i < r->function_count; i++)
    total += r->functions[i].calls;
  fputs("# callgrind format\nversion: 1\ncreator: mipdata export\ncmd: ", out);
  escape_line_field(out, in->debug ? in->debug : "?", NULL);
  fputs(" (MIP profile ", out);
  escape_line_field(out, r->path, NULL);
  fprintf(out,
          ", build-id %s)\npositions: line\nevents: Calls\nsummary: %" PRIu64
          "\n",
          r->build_id, total);
  size_t e = 0;
  for (size_t i = 0; i < r->function_count; i++) {
    const struct report_function *f = &r->functions[i];
    name_line(out, "\nfl=", file_of(f));
    name_line(out, "fn=", f->demangled);
    fprintf(out, "%" PRIu32 " %" PRIu64 "\n", f->line, f->calls);
    /* Edges are sorted by caller: f's follow those of the functions
     * before it; those from outside (no caller) are passed over. */
    while (e < r->edge_count &&
           (!r->edges[e].caller || r->edges[e].caller->index < f->index))
      e++;
    for (; e < r->edge_count && r->edges[e].caller == f; e++)
      write_edge(out, r, &r->edges[e]);
  }
  return 0;
}
