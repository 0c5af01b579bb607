/* The report model as text (report_text.h). */
#include <inttypes.h>
#include <string.h>

#include "escape.h"
#include "report_text.h"
#include "text_name.h"

const char *report_plural(uint64_t n) { return n == 1 ? "" : "s"; }

const char *report_no_heap_reason(const struct report *r) {
  if (!r->site_count)
    return "this image has no allocation site (built without "
           "-fmip-generate=heap, or its code calls no allocator)";
  if (!r->runs)
    return "no run merged yet (merge its raw profiles with --debug BINARY)";
  return "none of its runs recorded any, although this image has "
         "allocation sites";
}

void report_text_header(FILE *out, const struct report *r) {
  fprintf(out, "Profile %s: build-id %s, %" PRIu64 " run%s\n",
          text_safe(r->path), r->build_id, r->runs, report_plural(r->runs));
}

static void location(FILE *out, const struct report_frame *f) {
  if (f->outside)
    fputs("(another object)", out);
  else if (f->file && f->line)
    fprintf(out, "%s:%" PRIu32 ":%" PRIu32, text_safe(f->file), f->line,
            f->column);
  else if (f->file)
    escape_text(out, f->file); /* from a local symbol's FILE: no line */
  else
    fputs("??", out);
  if (f->inlined)
    fputs("  (inlined)", out);
  if (f->object)
    fprintf(out, "  (in %s)", text_safe(f->object));
  fputc('\n', out);
}

static const char *frame_name(const struct report_frame *f) {
  return *f->function ? text_safe(f->demangled) : "??";
}

void report_text_frames(FILE *out, const char *indent, const struct report *r,
                        const struct report_context *c) {
  struct report_frame_iter it;
  size_t width = 0;
  report_frames_begin(&it, r, c, REPORT_LEAF_FIRST);
  for (const struct report_frame *f; (f = report_frames_next(&it));)
    if (strlen(frame_name(f)) > width)
      width = strlen(frame_name(f));
  width = text_name_width(width);
  report_frames_begin(&it, r, c, REPORT_LEAF_FIRST);
  for (const struct report_frame *f; (f = report_frames_next(&it));) {
    const char *name = frame_name(f);
    fputs(indent, out);
    if (strlen(name) > width) {
      text_name_lines(out, strlen(indent), name);
      fprintf(out, "%s%-*s  ", indent, (int)width, "");
    } else
      fprintf(out, "%-*s  ", (int)width, name);
    location(out, f);
  }
  if (c->truncated)
    fprintf(out, "%s... (stack truncated)\n", indent);
}
