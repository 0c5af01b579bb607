#ifndef WORDSTAT_H
#define WORDSTAT_H

#include <stddef.h>

struct stats {
  size_t lines, words, chars;
  size_t longest;
  char longest_word[64];
};

void stats_add_line(struct stats *s, const char *line);
void report_plain(const struct stats *s);
void report_json(const struct stats *s);
void report_histogram(const struct stats *s);

#endif
