// Templates, inline functions and a class with a destructor: the kinds of
// code that end up in COMDAT groups and must still be instrumented once.
#include <cstdio>
#include <vector>

template <typename T> T total(const std::vector<T> &v) {
  T sum{};
  for (const T &x : v)
    sum += x;
  return sum;
}

inline int twice(int x) { return 2 * x; }

struct Tally {
  int n = 0;
  void bump() { ++n; }
  ~Tally() { std::printf("tally=%d\n", n); }
};

int main() {
  std::vector<int> ints{1, 2, 3};
  std::vector<double> halves{0.5, 1.5};
  Tally t;
  for (int i = 0; i < 3; i++)
    t.bump();
  std::printf("%d %.1f %d\n", total(ints), total(halves), twice(t.n));
  return 0;
}
