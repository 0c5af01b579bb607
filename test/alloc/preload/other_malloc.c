/* A malloc that is not jemalloc's, for test_switch.c: glibc's allocator
 * under every standard name, preloaded into a child of the tests so that
 * all of the child's allocation functions are this one (unversioned
 * names, which every reference binds to). */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void *__libc_valloc(size_t);
void *__libc_pvalloc(size_t);
void __libc_free(void *);

void *malloc(size_t size) { return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t align, size_t size) {
  return __libc_memalign(align, size);
}
void *aligned_alloc(size_t align, size_t size) {
  return __libc_memalign(align, size);
}
void *valloc(size_t size) { return __libc_valloc(size); }
void *pvalloc(size_t size) { return __libc_pvalloc(size); }

int posix_memalign(void **out, size_t align, size_t size) {
  if (!align || (align & (align - 1)) || align % sizeof(void *))
    return EINVAL;
  void *p = __libc_memalign(align, size);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}
