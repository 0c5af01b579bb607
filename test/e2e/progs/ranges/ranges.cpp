// Inlined calls whose code -O2 splits in pieces: their DW_AT_ranges are
// range lists (.debug_rnglists in DWARF 5, through the unit's table of
// offsets; .debug_ranges in DWARF 4). test/bad-input/run.sh breaks them,
// test/fuzz/run.sh makes seeds of them.
namespace shapes {
template <typename T> struct Acc {
  T total = 0;
  inline void add(T v) {
    if (v > 100)
      total += v / 3;
    else
      total -= v * 7;
  }
};
inline int step(int x) { return x % 5 ? x * 3 + 1 : x / 2; }
}
__attribute__((noinline)) long run(int n) {
  shapes::Acc<long> acc;
  for (int i = 0; i < n; i++) {
    acc.add(shapes::step(i));
    if (i % 7 == 0)
      acc.add(i);
  }
  return acc.total;
}
int main(int argc, char **) { return (int)run(argc * 1000) & 1; }
