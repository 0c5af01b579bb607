/* See truth.h. Not instrumented, so that its own calls count nowhere:
 * the helpers the programs call after writing their truth live here too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "truth.h"

#define MAX 64

static struct {
  const char *name;
  unsigned long calls;
  unsigned rank;
} seen[MAX];
static unsigned count;

void tally(const char *function) {
  for (unsigned i = 0; i < count; i++) {
    if (strcmp(seen[i].name, function) == 0) {
      seen[i].calls++;
      return;
    }
  }
  if (count == MAX)
    abort();
  seen[count].name = function;
  seen[count].calls = 1;
  seen[count].rank = count + 1;
  count++;
}

void truth_reset(void) { count = 0; }

void truth_write(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    abort();
  for (unsigned i = 0; i < count; i++)
    fprintf(f, "%s %lu %u\n", seen[i].name, seen[i].calls, seen[i].rank);
  if (fclose(f) != 0)
    abort();
}

const char *truth_name(const char *path, const char *suffix) {
  static char name[4096];
  snprintf(name, sizeof name, "%s%s", path, suffix);
  return name;
}

void truth_ready(int fd) {
  char line[64];
  int n = snprintf(line, sizeof line, "ready %d\n", (int)getpid());
  if (write(fd, line, (size_t)n) != n)
    abort();
  for (;;)
    pause();
}
