/* Functions with known calls, first-call order, blocks and call edges:
 * each callee has one caller, so each edge has ceil(calls / 1024)
 * samples. Lines marked HOT run in every test run, lines marked COLD in
 * none. */
#include <stdio.h>

#include "truth.h"
#include "work.h"

static volatile int sink;

__attribute__((noinline)) void setup(void) {
  TALLY();
  sink = 1;
}

__attribute__((noinline)) int leaf(int x) {
  TALLY();
  return x * 3 + sink;
}

__attribute__((noinline)) int tick(void) {
  TALLY();
  return sink++;
}

__attribute__((noinline)) long step(int i) {
  TALLY();
  long r = leaf(i);
  if (i % 2 == 0)
    r += leaf(i + 1); /* HOT */
  else
    r -= tick(); /* HOT */
  if (i < 0)
    puts("negative"); /* COLD */
  return r;
}

__attribute__((noinline)) long rare(int n) {
  TALLY();
  return n * 7L + sink;
}

__attribute__((noinline)) void never(void) {
  TALLY(); /* COLD */
  puts("never");
}

__attribute__((noinline)) long child_work(int n) {
  TALLY();
  long s = 0;
  for (int i = 0; i < n; i++)
    s += step(i);
  return s;
}
