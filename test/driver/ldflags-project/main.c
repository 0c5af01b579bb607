#include <stdio.h>
#include <stdlib.h>

#include "tally.h"

int main(int argc, char **argv) {
  char *s = format_count(count_words(argc > 1 ? argv[1] : "one two three"));
  puts(s);
  format_free(s);
  return 0;
}
