/* Function names in columns of text (text_name.h). */
#include <string.h>

#include "escape.h"
#include "text_name.h"

size_t text_name_width(size_t longest) {
  return longest < TEXT_NAME_WIDTH ? longest : TEXT_NAME_WIDTH;
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

void text_name_lines(FILE *out, size_t column, const char *name) {
  /* Columns far right (never so far in mipdata's tables) still get a
   * few characters a line. */
  name = text_safe(name); /* whatever the caller gave */
  size_t room = column + 20 < TEXT_LINE_WIDTH ? TEXT_LINE_WIDTH - column : 20;
  for (int first = 1; strlen(name) > room; first = 0) {
    size_t cut = break_at(name, room);
    fprintf(out, "%.*s\n%*s", (int)cut, name, (int)(column + 2), "");
    for (name += cut; *name == ' ';)
      name++;
    if (first) /* the lines after the first start two columns further */
      room -= 2;
  }
  fprintf(out, "%s\n", name);
}
