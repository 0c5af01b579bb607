#!/bin/sh
# bench/pool/gen.sh cov|heap N: a C program for bench/pool/run.sh.
#   cov N   N functions, each called or not depending on the run's
#           number (argv[1]), so that runs differ as a test suite's do
#   heap N  N allocation sites, each at the end of a recursion of its own
#           depth (1 to 8 frames): N contexts, their blocks freed
# Either then times mip_dump() (the exit-time write, called early) and
# prints its microseconds.
set -eu
kind=$1 n=$2
cat <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <mip/mip.h>

typedef long (*fn)(long);
static void *volatile keep; /* blocks escape: no allocation is elided */
C
i=0
while [ "$i" -lt "$n" ]; do
  if [ "$kind" = cov ]; then
    echo "__attribute__((noinline)) long f$i(long x) { return x % $((i + 3)) ? x + $i : x - 1; }"
  else
    echo "__attribute__((noinline)) long f$i(long d) { if (d) return f$i(d - 1) + 1; char *p = malloc($((16 + i % 200))); keep = p; p[0] = (char)d; long r = p[0]; free(p); return r; }"
  fi
  i=$((i + 1))
done
echo "static const fn table[] = {"
i=0
while [ "$i" -lt "$n" ]; do echo "  f$i,"; i=$((i + 1)); done
cat <<C
};

int main(int argc, char **argv) {
  long run = argc > 1 ? atol(argv[1]) : 0, s = 0;
  for (long i = 0; i < $n; i++)
    if ("$kind"[0] == 'h' || (i * 7 + run) % 3)
      s += table[i]("$kind"[0] == 'h' ? i % 8 : i + run);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  int rc = mip_dump();
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%d %ld %.1f\n", rc, s & 1,
         (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3);
  return 0;
}
C
