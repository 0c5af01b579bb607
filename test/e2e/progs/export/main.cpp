// The export test's driver: shapes from C, names kept in C++ containers,
// some of them live at exit.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "shapes.h"

namespace {
std::vector<std::string> *kept;

double round_of(int round, int shapes) {
  double total = 0;
  for (int i = 0; i < shapes; i++) {
    struct shape *s = shape_new(static_cast<size_t>(8 + i * round));
    total += shape_area(s);
    shape_free(s);
    char *name = shape_name(i);
    if (i % 3 == 0)
      kept->push_back(name);
    free(name);
  }
  return total;
}
} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 4;
  kept = new std::vector<std::string>;
  double total = 0;
  for (int r = 1; r <= rounds; r++)
    total += round_of(r, 10 + r);
  std::printf("%.1f %zu\n", total, kept->size());
  return 0; // kept and its strings are live at exit
}
