/* A plug-in the program loads with dlopen. */
#include "truth.h"

static volatile int sink;

__attribute__((noinline)) static int plug_leaf(int x) {
  TALLY();
  return x ^ sink;
}

int plug_run(int n) {
  TALLY();
  int s = 0;
  for (int i = 0; i < n; i++)
    s += plug_leaf(i);
  return s;
}

void plug_truth(const char *path) {
  TALLY();
  truth_write(path);
}
