/* Functions with known call counts, first-call order, blocks and call
 * edges. Lines marked HOT must be covered by the test's runs, lines marked
 * COLD must not. */
#include <stdio.h>

#include "work.h"

static volatile int sink;

__attribute__((noinline)) void setup_a(void) { sink = 1; }

__attribute__((noinline)) void setup_b(void) { sink = 2; }

__attribute__((noinline)) int leaf(int x) { return x * 3 + sink; }

__attribute__((noinline)) int tick(void) { return sink++; }

__attribute__((noinline)) long step(int i) {
  long r = leaf(i);
  if (i % 2 == 0)
    r += leaf(i + 1); /* HOT */
  else
    r -= tick(); /* HOT */
  if (i > 100)
    puts("big"); /* COLD */
  return r;
}

__attribute__((noinline)) long rare(int n) { return n * 7 + tick(); }

__attribute__((noinline)) void never(void) {
  puts("never"); /* COLD */
}
