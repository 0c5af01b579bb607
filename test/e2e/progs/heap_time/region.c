/* Regions of the heap profile (mip/mip.h), run with MIP_OPTIONS
 * heap_record=0. `region`: 10 blocks before mip_heap_start (not recorded,
 * freed inside: no ghost frees), 20 inside, one of them reallocated
 * (continued), 5 after mip_heap_stop (not recorded), the 20 freed after
 * it (recorded deaths), and a free of getcwd's buffer, which libc
 * allocated where MIP does not see: a ghost free at that free's call.
 * `reset`: 7 blocks, then mip_heap_reset, then 3 blocks; all freed. */
#include <mip/mip.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *volatile kept[64];

__attribute__((noinline)) static void *before(void) { return malloc(100); }
__attribute__((noinline)) static void *inside(void) { return malloc(200); }
__attribute__((noinline)) static void *after(void) { return malloc(300); }
__attribute__((noinline)) static void *grown(void *p) {
  return realloc(p, 400);
}
__attribute__((noinline)) static void release(void *p) { free(p); }

static int region(void) {
  for (int i = 0; i < 10; i++)
    kept[i] = before();
  if (mip_heap_start() != 0) /* off until now */
    return 1;
  for (int i = 10; i < 30; i++)
    kept[i] = inside();
  for (int i = 0; i < 10; i++)
    free(kept[i]);
  kept[10] = grown(kept[10]);
  if (mip_heap_stop() != 1)
    return 1;
  for (int i = 30; i < 35; i++)
    kept[i] = after();
  for (int i = 10; i < 35; i++)
    free(kept[i]);
  mip_heap_start();
  char *cwd = getcwd(NULL, 0);
  release(cwd);
  return 0;
}

static int reset(void) {
  mip_heap_start();
  for (int i = 0; i < 7; i++)
    kept[i] = before();
  if (mip_heap_reset() != 0)
    return 1;
  for (int i = 7; i < 10; i++)
    kept[i] = inside();
  for (int i = 0; i < 10; i++)
    free(kept[i]);
  return 0;
}

int main(int argc, char **argv) {
  if (!mip_heap_start || !mip_heap_stop || !mip_heap_reset)
    return 2;
  return argc > 1 && strcmp(argv[1], "reset") == 0 ? reset() : region();
}
