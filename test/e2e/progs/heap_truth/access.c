/* A known access pattern: every 8-byte word of a 64-byte-aligned 4 KiB
 * block written 10 times (5120 stores), then read 3 times (1536 loads);
 * volatile, so every access stays one instruction. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  volatile uint64_t *p = aligned_alloc(64, 4096);
  for (int r = 0; r < 10; r++)
    for (int i = 0; i < 512; i++)
      p[i] = (uint64_t)r;
  uint64_t sum = 0;
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < 512; i++)
      sum += p[i];
  free((void *)p);
  printf("%lu\n", (unsigned long)sum);
  return 0;
}
