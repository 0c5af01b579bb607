/* test/e2e/diff_ci.sh's program, in two versions (VERSION 1, the base;
 * 2, the change): four callers of one allocation wrapper (lib/wrap.c).
 * In version 2, grows allocates twice as often, leaks keeps a block to
 * the end, goes_away is no longer called and steady is as it was. With
 * an argument, either version calls leaks alone (another path through
 * one build). */
#include <stdlib.h>

#include "wrap.h"

#define VERSION 1
#define GROW_SIZE 4096
#define LEAK_SIZE 8192
#define GONE_SIZE 16384
#define STEADY_SIZE 2048

static void *kept;

static void grows(int times) {
  for (int i = 0; i < times; i++)
    free(make(GROW_SIZE));
}

static void leaks(void) { kept = make(LEAK_SIZE); }

static void goes_away(void) { free(make(GONE_SIZE)); }

static void steady(void) {
  for (int i = 0; i < 3; i++)
    free(make(STEADY_SIZE));
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1) {
    leaks();
    return 0;
  }
  grows(VERSION == 1 ? 4 : 8);
  if (VERSION == 1)
    goes_away();
  else
    leaks();
  steady();
  return kept == NULL ? 0 : 0;
}
