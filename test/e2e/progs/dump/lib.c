/* An instrumented shared library; lib_dump calls mip_dump from here. */
#include <mip/mip.h>

#include "lib.h"

__attribute__((noinline)) int lib_step(int x) { return x * 5; }

__attribute__((noinline)) int lib_work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += lib_step(i);
  return s;
}

__attribute__((noinline)) int lib_dump(void) { return mip_dump ? mip_dump() : -2; }
