/* Loads plugin.so (a library carrying libmip_alloc.a) in a thread, has it
 * allocate a hot block (which gives the thread its hot cache, destroyed
 * when the thread exits), unloads it, and only then lets the thread
 * exit: the destructor must still be there to run. Prints "ok". */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *path;

static void *thread(void *arg) {
  (void)arg;
  void *plugin = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!plugin) {
    fprintf(stderr, "%s\n", dlerror());
    exit(1);
  }
  void *(*hot_block)(void) =
      (void *(*)(void))(uintptr_t)dlsym(plugin, "plugin_hot_block");
  free(hot_block());
  dlclose(plugin);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  path = argv[1];
  pthread_t t;
  pthread_create(&t, NULL, thread, NULL);
  pthread_join(t, NULL);
  puts("ok");
  return 0;
}
