// A function whose demangled name runs to thousands of characters (a
// template instantiated with nested standard containers), beside short
// ones: what mipdata's text tables must keep readable.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace catalog {
using Tags = std::set<std::string>;
using Index = std::map<std::string, std::vector<Tags>>;

template <class A, class B>
__attribute__((noinline)) size_t merge_entries(const A &a, B &b, int n) {
  size_t total = 0;
  for (int i = 0; i < n; i++) {
    b[std::to_string(i)].push_back({"k"});
    total += a.size() + b.size();
  }
  return total;
}
} // namespace catalog

extern "C" __attribute__((noinline)) int tally(int n) { return n * 3 + 1; }
extern "C" __attribute__((noinline)) int never_called(int n) { return n - 1; }

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1;
  catalog::Tags tags;
  catalog::Index index;
  size_t total = catalog::merge_entries(tags, index, rounds);
  for (int i = 0; i < rounds; i++)
    total += (size_t)tally(i);
  if (argc > 2)
    total += (size_t)never_called(rounds);
  printf("%zu\n", total);
  return 0;
}
