/*
 *   app PLUGIN.so
 * Calls libfoo (linked), then dlopens PLUGIN.so, calls it and dlcloses it,
 * then calls libfoo again; after the dlclose it prints how many *.mipraw
 * files the current directory holds, which shows whether the plug-in's
 * profile was written at unload.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "foo.h"

__attribute__((noinline)) int app_only(int x) { return x * 2; }
__attribute__((noinline)) int app_unused(int x) { return x + 7; }

static int raw_files(void) {
  DIR *d = opendir(".");
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    n += len > 7 && strcmp(e->d_name + len - 7, ".mipraw") == 0;
  }
  if (d)
    closedir(d);
  return n;
}

int main(int argc, char **argv) {
  int sum = 0;
  for (int i = 0; i < 7; i++)
    sum += foo_add(i, 1);
  sum += foo_twice(3);
  for (int i = 0; i < 3; i++)
    sum += app_only(i);
  if (argc > 1) {
    void *plugin = dlopen(argv[1], RTLD_NOW);
    if (!plugin) {
      fprintf(stderr, "dlopen: %s\n", dlerror());
      return 1;
    }
    int (*run)(int) = (int (*)(int))dlsym(plugin, "plug_run");
    for (int i = 0; run && i < 5; i++)
      sum += run(i);
    if (dlclose(plugin) != 0)
      return 1;
    printf("after dlclose: %d raw files\n", raw_files());
  }
  for (int i = 0; i < 2; i++)
    sum += foo_add(i, i);
  printf("sum %d\n", sum);
  return 0;
}
