#include <stdexcept>
__attribute__((noinline)) int parse(int x) {
  if (x % 10 == 3)
    throw std::runtime_error("bad");
  return x;
}
extern "C" __attribute__((noinline)) long parse_all(int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    try {
      s += parse(i);
    } catch (const std::exception &) {
      s -= 1;
    }
  }
  return s;
}
