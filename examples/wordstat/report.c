#include <stdio.h>

#include "wordstat.h"

void report_plain(const struct stats *s) {
  printf("%zu lines, %zu words, %zu characters; longest word: %s\n", s->lines,
         s->words, s->chars, s->longest_word);
}

void report_json(const struct stats *s) {
  printf("{\"lines\": %zu, \"words\": %zu, \"chars\": %zu}\n", s->lines,
         s->words, s->chars);
}

/* Nobody asks for a histogram in the demo: it shows up as never run. */
void report_histogram(const struct stats *s) {
  for (size_t i = 0; i < s->words && i < 40; i++)
    putchar('#');
  putchar('\n');
}
