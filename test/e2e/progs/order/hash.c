#include "order.h"

unsigned long long NOINLINE hash_b(unsigned long long x) {
  unsigned long long h = 14695981039346656037ull;
  for (int i = 0; i < 8; i++) {
    h ^= (x >> (8 * i)) & 0xff;
    h *= 1099511628211ul;
  }
  return h;
}

unsigned long long NOINLINE hash_a(unsigned long long x) {
  unsigned long long h = hash_b(x);
  return h ^ (h >> 29);
}
