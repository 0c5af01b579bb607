/*
 * Where jemalloc put a block, for the tests of allocation hints
 * (test/e2e/use.sh, lto_use.sh): the hinted allocator keeps hot and cold
 * blocks in arenas of their own. The including file declares mallctl
 * (weak: NULL with glibc's malloc, where every block is "in" no arena).
 */
static unsigned arena_of(void *p) {
  unsigned a = 0xffffffffu;
  size_t n = sizeof a;
  if (mallctl)
    mallctl("arenas.lookup", &a, &n, &p, sizeof p);
  return a;
}

/* 1 when every block of the list is in arena a */
static int all_in(void **blocks, int n, unsigned a) {
  for (int i = 0; i < n; i++)
    if (arena_of(blocks[i]) != a)
      return 0;
  return 1;
}
