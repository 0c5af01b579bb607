/* libplaindl: a library built without MIP that the host loads after the
 * heap library started: its free and realloc must be redirected too. */
#include <stdlib.h>

__attribute__((visibility("default"))) void plain_release(void *p) { free(p); }

__attribute__((visibility("default"))) void *plain_grow(void *p, size_t n) {
  return realloc(p, n);
}
