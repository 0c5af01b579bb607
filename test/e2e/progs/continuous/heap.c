/*
 *   heapcont FIFO
 * Heap mode: ten blocks from one call site, a dump, five from another,
 * a second dump, then "ready PID" on FIFO, and it waits to be killed.
 * With FIFO "-", it returns instead.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mip/mip.h>

/* volatile: the blocks must be allocated, not optimized away */
static void *volatile kept[15];

__attribute__((noinline)) static void first(void) {
  for (int i = 0; i < 10; i++)
    kept[i] = malloc(100); /* site A */
}

__attribute__((noinline)) static void second(void) {
  for (int i = 10; i < 15; i++)
    kept[i] = malloc(200); /* site B */
}

int main(int argc, char **argv) {
  int fifo = argc > 1 && strcmp(argv[1], "-") ? open(argv[1], O_WRONLY) : -1;
  first();
  if (mip_dump() != 0)
    return 1;
  second();
  if (mip_dump() != 0)
    return 1;
  if (fifo < 0)
    return 0;
  char line[64];
  int n = snprintf(line, sizeof line, "ready %d\n", (int)getpid());
  if (write(fifo, line, (size_t)n) != n)
    return 1;
  for (;;)
    pause();
}
