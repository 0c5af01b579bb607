/* A shared library the program links: counted in its own profile. */
#include "truth.h"
#include "work.h"

static volatile int sink;

__attribute__((noinline)) static int lib_leaf(int x) {
  TALLY();
  return x + sink;
}

long lib_work(int n) {
  TALLY();
  long s = 0;
  for (int i = 0; i < n; i++)
    s += lib_leaf(i);
  return s;
}

void lib_truth(const char *path) {
  TALLY();
  truth_write(path);
}
