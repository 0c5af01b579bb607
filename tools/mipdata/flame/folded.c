/* Folded stacks of a report (folded.h). */
#include "folded.h"

#include "escape.h"
#include "export.h"

#include <inttypes.h>

/* A frame's name, with the bytes that would split the line or the stack
 * (controls, ';') escaped (escape.h). */
static void frame_name(FILE *out, const struct report_frame *f) {
  escape_line_field(out, f->demangled && *f->demangled ? f->demangled : "??",
                    ";");
}

static void context_line(FILE *out, const struct report *r,
                         const struct report_context *c,
                         enum report_metric m) {
  struct report_frame_iter it;
  report_frames_begin(&it, r, c, REPORT_ROOT_FIRST);
  int first = 1;
  for (const struct report_frame *f; (f = report_frames_next(&it));) {
    if (!first)
      fputc(';', out);
    frame_name(out, f);
    first = 0;
  }
  if (first)
    fputs("??", out); /* a context with no frame still counts */
  struct report_amount a = {0, 0};
  report_amount_add(&a, m, &c->mib);
  fprintf(out, " %" PRIu64 "\n", a.sum);
}

int folded_write(const struct report *r, enum report_metric m, FILE *out) {
  for (size_t i = 0; i < r->context_count; i++)
    context_line(out, r, &r->contexts[i], m);
  return ferror(out) ? -1 : 0;
}

int export_folded(const struct export_input *in, FILE *out,
                  struct mip_error *err) {
  if (export_need_heap(in->r, "folded stacks", err))
    return -1;
  if (folded_write(in->r, in->metric, out))
    return mip_fail(err, "stdout", "cannot write the folded stacks");
  return 0;
}
