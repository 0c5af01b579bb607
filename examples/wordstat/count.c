#include <ctype.h>
#include <string.h>

#include "wordstat.h"

static void note_word(struct stats *s, const char *start, size_t len) {
  s->words++;
  if (len > s->longest && len < sizeof s->longest_word) {
    s->longest = len;
    memcpy(s->longest_word, start, len);
    s->longest_word[len] = '\0';
  }
}

void stats_add_line(struct stats *s, const char *line) {
  s->lines++;
  const char *word = NULL;
  for (const char *p = line;; p++) {
    if (*p && !isspace((unsigned char)*p)) {
      if (!word)
        word = p;
    } else if (word) {
      note_word(s, word, (size_t)(p - word));
      word = NULL;
    }
    if (!*p)
      break;
    s->chars++;
  }
}
