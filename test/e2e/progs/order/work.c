#include "order.h"

unsigned long long NOINLINE rotl(unsigned long long x) { return x << 7 | x >> 57; }

static unsigned long long NOINLINE mix(unsigned long long x) {
  return rotl(x * 0x9e3779b97f4a7c15ul) ^ x;
}

unsigned long long NOINLINE work_step(unsigned long long x) {
  return mix(x) + mix(x + 1);
}
