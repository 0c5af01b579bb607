// Allocations inside inlined code: make() inlined into grow(), alloc_n()
// inlined into table() inlined into fill().
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace store {
struct Buf {
  char *p;
  size_t n;
};
static inline Buf make(size_t n) {
  Buf b;
  b.p = static_cast<char *>(malloc(n));
  b.n = n;
  memset(b.p, 1, n);
  return b;
}
template <class T> inline T *alloc_n(size_t n) {
  return static_cast<T *>(calloc(n, sizeof(T)));
}
__attribute__((noinline)) Buf grow(size_t n) { return make(n * 2); }
inline int *table(int n) { return alloc_n<int>(n + 1); }
} // namespace store

int *volatile last_table; // keeps the allocation from being optimized out

__attribute__((noinline)) int fill(int n) {
  int *t = store::table(n);
  last_table = t;
  t[n] = n;
  int r = t[n] + t[0];
  free(t);
  return r;
}

int main(int argc, char **argv) {
  store::Buf b = store::grow(argc + 16);
  b.p[1] = argv[0][0];
  int r = fill(argc) + b.p[1];
  free(b.p);
  printf("%d\n", r);
  return 0;
}
