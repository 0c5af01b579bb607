#include <stdio.h>

#include "order.h"

static int verbose;
static int table[64];

void NOINLINE config_load(int argc) { verbose = argc > 2; }

/* A static function whose name cold.c uses too. */
static void NOINLINE helper(int *t, int n) {
  for (int i = 0; i < n; i++)
    t[i] = i * i;
}

void NOINLINE tables_init(void) { helper(table, 64); }

void NOINLINE log_open(void) {
  if (verbose)
    fputs("log open\n", stderr);
}

void NOINLINE progress(long i) {
  if (verbose)
    fprintf(stderr, "at %ld\n", i);
}

void NOINLINE report(unsigned long long acc) { printf("%llu %d\n", acc, table[7]); }
