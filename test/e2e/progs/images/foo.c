#include "foo.h"

__attribute__((noinline)) int foo_add(int a, int b) { return a + b; }

__attribute__((noinline)) int foo_twice(int x) {
  return foo_add(x, x) + foo_add(x, 0);
}

__attribute__((noinline)) int foo_unused(int x) { return x - 1; }
