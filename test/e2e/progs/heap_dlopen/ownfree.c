/*
 * ownfree PLAIN: an executable built with heap mode whose program defines
 * free (myfree.c, built without MIP) but not realloc: the process's free
 * is then the program's, its realloc MIP's. Blocks allocated here are
 * freed and reallocated by libplaindl (loaded with dlopen), through the
 * program's free. Prints what its allocation site must show, as host.c
 * does, and whether the program's free saw them; exits with status 3.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern unsigned long my_frees;

int main(int argc, char **argv) {
  void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
  if (!h) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  void (*release)(void *) = (void (*)(void *))dlsym(h, "plain_release");
  void *(*grow)(void *, size_t) =
      (void *(*)(void *, size_t))dlsym(h, "plain_grow");
  unsigned long bytes = 0, before = my_frees;
  for (int i = 0; i < 16; i++) {
    char *p = malloc(24 + i);
    if (!p)
      return 1;
    memset(p, 'x', 24 + i);
    bytes += 24 + i;
    if (i % 2)
      p = grow(p, 1000);
    release(p);
  }
  printf("site main 16 %lu 0\n", bytes);
  printf("the program's free saw %s\n",
         my_frees - before >= 16 ? "them all" : "too few");
  return 3;
}
