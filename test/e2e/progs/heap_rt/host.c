/*
 * host [dlopen]: a program built without heap mode using the heap
 * library: linked (the library's free is its own, hidden: the program's
 * calls reach libc's, which the library redirects to its own), or loaded
 * and unloaded twice with dlopen (the same redirection; each load starts
 * a new heap state, owned by the library).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *lib_alloc(size_t n) __attribute__((weak));
void lib_release(void *p) __attribute__((weak));

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "dlopen") == 0) {
    for (int round = 0; round < 2; round++) {
      void *h = dlopen(argv[2], RTLD_NOW);
      if (!h) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
      }
      void *(*alloc)(size_t) = (void *(*)(size_t))dlsym(h, "lib_alloc");
      free(alloc(100)); /* redirected to the library's: it dies */
      alloc(200);
      dlclose(h);
    }
    return 0;
  }
  free(lib_alloc(100)); /* libc's free, redirected: the block dies */
  lib_release(lib_alloc(50)); /* the library's free closes it */
  lib_alloc(300);
  return 0;
}
