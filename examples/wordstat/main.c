/* wordstat: counts lines, words and characters on stdin.
 *   wordstat [--json|--histogram] < text */
#include <stdio.h>
#include <string.h>

#include "wordstat.h"

static void usage(void) {
  fputs("usage: wordstat [--json|--histogram] < text\n", stderr);
}

int main(int argc, char **argv) {
  void (*report)(const struct stats *) = report_plain;
  if (argc > 1 && strcmp(argv[1], "--json") == 0)
    report = report_json;
  else if (argc > 1 && strcmp(argv[1], "--histogram") == 0)
    report = report_histogram;
  else if (argc > 1) {
    usage();
    return 2;
  }
  struct stats s = {0};
  char line[4096];
  while (fgets(line, sizeof line, stdin))
    stats_add_line(&s, line);
  report(&s);
  return 0;
}
