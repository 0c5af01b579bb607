#include "order.h"

unsigned long NOINLINE rotl(unsigned long x) { return x << 7 | x >> 57; }

static unsigned long NOINLINE mix(unsigned long x) {
  return rotl(x * 0x9e3779b97f4a7c15ul) ^ x;
}

unsigned long NOINLINE work_step(unsigned long x) {
  return mix(x) + mix(x + 1);
}
