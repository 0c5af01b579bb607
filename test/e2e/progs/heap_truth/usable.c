/*
 * A program that uses all of what malloc_usable_size says a block has:
 * 100 blocks of 40 bytes, each filled to its usable size; the even ones
 * freed, the odd ones left live at exit. With records beside the blocks
 * (rt/heap/heap_tail.c), the size it is told leaves the record out, so
 * that every death is still seen: 100 allocations, 50 live at exit, 2000
 * bytes.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *blocks[100];

__attribute__((noinline)) static char *make_block(void) { return malloc(40); }

int main(void) {
  size_t least = (size_t)-1;
  for (int i = 0; i < 100; i++) {
    blocks[i] = make_block();
    size_t n = malloc_usable_size(blocks[i]);
    memset(blocks[i], 0xa5, n);
    least = n < least ? n : least;
  }
  for (int i = 0; i < 100; i += 2)
    free(blocks[i]);
  printf("%s\n", least >= 40 ? "usable" : "too small");
  return 0;
}
