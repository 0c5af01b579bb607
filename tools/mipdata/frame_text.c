/* Heap call stacks as text (frame_text.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "frame_text.h"
#include "mipfmt.h"

static void location(FILE *out, const struct frame_text *f) {
  if (f->flags & MIP_FRAME_OUTSIDE)
    fputs("(another object)", out);
  else if (*f->file && f->line)
    fprintf(out, "%s:%" PRIu32 ":%" PRIu32, f->file, f->line, f->column);
  else if (*f->file)
    fputs(f->file, out); /* from a local symbol's FILE: no line */
  else
    fputs("??", out);
  if (f->flags & MIP_FRAME_INLINED)
    fputs("  (inlined)", out);
  if (*f->object)
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

/* A name too long for the column, on lines of its own (frame_text.h). */
static void wrapped(FILE *out, const char *indent, const char *name) {
  size_t room = FRAME_TEXT_LINE_WIDTH - strlen(indent);
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

void frame_text_print(FILE *out, const char *indent,
                      const struct frame_text *frames, uint32_t count) {
  char **names = mip_xcalloc(count ? count : 1, sizeof *names);
  size_t width = 0;
  for (uint32_t k = 0; k < count; k++) {
    names[k] = *frames[k].function ? demangle(frames[k].function)
                                   : mip_xstrdup("??");
    size_t n = strlen(names[k]);
    if (n > width)
      width = n;
  }
  if (width > FRAME_TEXT_NAME_WIDTH)
    width = FRAME_TEXT_NAME_WIDTH;
  for (uint32_t k = 0; k < count; k++) {
    if (strlen(names[k]) > width) {
      wrapped(out, indent, names[k]);
      fprintf(out, "%s%-*s  ", indent, (int)width, "");
    } else
      fprintf(out, "%s%-*s  ", indent, (int)width, names[k]);
    location(out, &frames[k]);
    free(names[k]);
  }
  free(names);
}
