// operator new and new[] in one function, in the shapes of allocs.c; and
// main, which runs both.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "opt.h"

namespace {
struct Pair {
  long a, b;
};
volatile unsigned char sink;
} // namespace

extern "C" void touch(void *p) {
  if (p)
    sink = *static_cast<volatile unsigned char *>(p) = 1;
}

extern "C" void cxx_sites(unsigned rounds) {
  for (unsigned i = 0; i < rounds; i++) {
    void *p;
    switch (i % 6) {
    case 0: p = new Pair{1, 2}; break;
    case 1: case 2: p = new char[10 + i % 5]; break;
    default: p = new (std::nothrow) long[4]; break;
    }
    touch(p);
    if (i % 6 == 0)
      delete static_cast<Pair *>(p);
    else if (i % 6 < 3)
      delete[] static_cast<char *>(p);
    else
      delete[] static_cast<long *>(p);

    char *q;
    if (i % 5 == 0)
      q = new char[33];
    else
      q = new char[65 + i % 3];
    touch(q);
    delete[] q;
  }
}

int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 1000;
  c_sites(rounds);
  cxx_sites(rounds);
  std::printf("%u rounds\n", rounds);
  return 0;
}
