/* The report model as text (report_text.h). */
#include <inttypes.h>
#include <string.h>

#include "report_text.h"

const char *report_plural(uint64_t n) { return n == 1 ? "" : "s"; }

const char *report_no_heap_reason(const struct report *r) {
  if (!r->site_count)
    return "this image has no allocation site (it was not built with "
           "-fmip-generate=heap, or its code calls no allocator; what it "
           "allocates through other images is in their profiles)";
  if (!r->runs)
    return "no run merged yet (merge its raw profiles with --debug BINARY)";
  return "none of its runs recorded any, although this image has "
         "allocation sites";
}

void report_text_header(FILE *out, const struct report *r) {
  fprintf(out, "Profile %s: build-id %s, %" PRIu64 " run%s\n", r->path,
          r->build_id, r->runs, report_plural(r->runs));
}

static void location(FILE *out, const struct report_frame *f) {
  if (f->outside)
    fputs("(another object)", out);
  else if (f->file && f->line)
    fprintf(out, "%s:%" PRIu32 ":%" PRIu32, f->file, f->line, f->column);
  else if (f->file)
    fputs(f->file, out); /* from a local symbol's FILE: no line */
  else
    fputs("??", out);
  if (f->inlined)
    fputs("  (inlined)", out);
  if (f->object)
    fprintf(out, "  (in %s)", f->object);
  fputc('\n', out);
}

/* Where to break the first room characters of name: after the last ", ",
 * else after the last '<' or '(', else before the last "::", else at
 * room. */
static size_t break_at(const char *name, size_t room) {
  size_t comma = 0, open = 0, scope = 0;
  for (size_t i = 1; i < room; i++) {
    if (name[i - 1] == ',' && name[i] == ' ')
      comma = i;
    else if (name[i - 1] == '<' || name[i - 1] == '(')
      open = i;
    else if (name[i] == ':' && name[i + 1] == ':' && name[i - 1] != ':')
      scope = i;
  }
  return comma ? comma : open ? open : scope ? scope : room;
}

/* A name too long for the column, on lines of its own (report_text.h). */
static void wrapped(FILE *out, const char *indent, const char *name) {
  size_t room = REPORT_TEXT_LINE_WIDTH - strlen(indent);
  const char *more = "";
  while (strlen(name) > room) {
    size_t cut = break_at(name, room);
    fprintf(out, "%s%s%.*s\n", indent, more, (int)cut, name);
    for (name += cut; *name == ' ';)
      name++;
    if (!*more)
      room -= 2;
    more = "  ";
  }
  fprintf(out, "%s%s%s\n", indent, more, name);
}

static const char *frame_name(const struct report_frame *f) {
  return *f->function ? f->demangled : "??";
}

void report_text_frames(FILE *out, const char *indent, const struct report *r,
                        const struct report_context *c) {
  struct report_frame_iter it;
  size_t width = 0;
  report_frames_begin(&it, r, c, REPORT_LEAF_FIRST);
  for (const struct report_frame *f; (f = report_frames_next(&it));)
    if (strlen(frame_name(f)) > width)
      width = strlen(frame_name(f));
  if (width > REPORT_TEXT_NAME_WIDTH)
    width = REPORT_TEXT_NAME_WIDTH;
  report_frames_begin(&it, r, c, REPORT_LEAF_FIRST);
  for (const struct report_frame *f; (f = report_frames_next(&it));) {
    const char *name = frame_name(f);
    if (strlen(name) > width) {
      wrapped(out, indent, name);
      fprintf(out, "%s%-*s  ", indent, (int)width, "");
    } else
      fprintf(out, "%s%-*s  ", indent, (int)width, name);
    location(out, f);
  }
  if (c->truncated)
    fprintf(out, "%s... (stack truncated)\n", indent);
}
