/*
 * The C entry points (include/mip/alloc.h): the standard function's own
 * call when the hint is notcold or hints are off; otherwise the same
 * request to jemalloc's mallocx/rallocx with the arena's flags.
 *
 * What the standard function does with a request it rejects (an
 * alignment that is not a power of two, realloc to size 0) it does here
 * too: such requests go to it unchanged, so that its return value and
 * errno are the answer. mallocx and rallocx leave errno alone and forbid
 * size 0, so a failure here sets ENOMEM, and size 0 asks for 1 byte (a
 * unique pointer, as malloc(0) gives).
 *
 * Each call is counted once (alloc.h): by mip_alloc_flags, or, for a
 * request only the standard function answers, here, as plain.
 */
#include <errno.h>
#include <jemalloc/jemalloc.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static int power_of_two(size_t a) { return a && !(a & (a - 1)); }

static void *no_memory(void) {
  errno = ENOMEM;
  return NULL;
}

static void *get(size_t size, int flags) {
  void *p = mallocx(size ? size : 1, flags);
  return p ? p : no_memory();
}

static size_t larger(size_t a, size_t b) { return a > b ? a : b; }

/* No flags for a request only the standard function answers: counted
 * here, since mip_alloc_flags never sees it. */
static int rejected(uint8_t hint, size_t bytes) {
  mip_alloc_count_unhinted(hint, bytes);
  return 0;
}

MIP_ALLOC_API void *__mip_malloc_hint(size_t size, uint8_t hint) {
  int flags = mip_alloc_flags(hint, size, size);
  return flags ? get(size, flags) : malloc(size);
}

MIP_ALLOC_API void *__mip_calloc_hint(size_t n, size_t size, uint8_t hint) {
  size_t total;
  int overflow = __builtin_mul_overflow(n, size, &total);
  size_t bytes = overflow ? 0 : total;
  int flags = mip_alloc_flags(hint, total, bytes);
  if (!flags)
    return calloc(n, size);
  if (overflow)
    return no_memory();
  return get(total, flags | MALLOCX_ZERO);
}

/* rallocx (the old block never goes to an explicit cache). */
static void *move(void *p, size_t size, int flags) {
  void *q = rallocx(p, size, flags);
  return q ? q : no_memory();
}

/* realloc(NULL, n) is the hinted malloc(n), and counted as one;
 * realloc(p, 0) the process's realloc's, which frees p or not. */
MIP_ALLOC_API void *__mip_realloc_hint(void *p, size_t size, uint8_t hint) {
  if (!p)
    return __mip_malloc_hint(size, hint);
  int flags = size ? mip_alloc_move_flags(hint, size) : rejected(hint, 0);
  if (!flags)
    return realloc(p, size);
  return move(p, size, flags);
}

MIP_ALLOC_API void *__mip_reallocarray_hint(void *p, size_t n, size_t size,
                                            uint8_t hint) {
  size_t total;
  int overflow = __builtin_mul_overflow(n, size, &total);
  if (!p && !overflow)
    return __mip_malloc_hint(total, hint);
  size_t bytes = overflow ? 0 : total;
  int flags =
      overflow || total ? mip_alloc_move_flags(hint, bytes) : rejected(hint, 0);
  if (!flags)
    return reallocarray(p, n, size);
  if (overflow)
    return no_memory(); /* p untouched */
  return move(p, total, flags);
}

MIP_ALLOC_API void *__mip_aligned_alloc_hint(size_t align, size_t size,
                                             uint8_t hint) {
  int flags = power_of_two(align)
                  ? mip_alloc_flags(hint, larger(size, align), size)
                  : rejected(hint, size);
  if (!flags)
    return aligned_alloc(align, size);
  return get(size, flags | MALLOCX_ALIGN(align));
}

MIP_ALLOC_API int __mip_posix_memalign_hint(void **out, size_t align,
                                            size_t size, uint8_t hint) {
  int valid = power_of_two(align) && !(align % sizeof(void *));
  int flags = valid ? mip_alloc_flags(hint, larger(size, align), size)
                    : rejected(hint, size);
  if (!flags)
    return posix_memalign(out, align, size);
  void *p = mallocx(size ? size : 1, flags | MALLOCX_ALIGN(align));
  if (!p)
    return ENOMEM; /* *out and errno untouched, as posix_memalign */
  *out = p;
  return 0;
}

MIP_ALLOC_API void *__mip_memalign_hint(size_t align, size_t size,
                                        uint8_t hint) {
  int flags = power_of_two(align)
                  ? mip_alloc_flags(hint, larger(size, align), size)
                  : rejected(hint, size);
  if (!flags)
    return memalign(align, size);
  return get(size, flags | MALLOCX_ALIGN(align));
}

MIP_ALLOC_API void *__mip_valloc_hint(size_t size, uint8_t hint) {
  int flags = mip_alloc_flags(hint, larger(size, mip_alloc_page), size);
  if (!flags)
    return valloc(size);
  return get(size, flags | MALLOCX_ALIGN(mip_alloc_page));
}

/* Page-aligned, the size rounded up to whole pages (0: one page). */
MIP_ALLOC_API void *__mip_pvalloc_hint(size_t size, uint8_t hint) {
  int flags = mip_alloc_flags(hint, larger(size, mip_alloc_page), size);
  if (!flags)
    return pvalloc(size);
  size_t page = mip_alloc_page, rounded;
  if (__builtin_add_overflow(size, page - 1, &rounded))
    return no_memory();
  rounded &= ~(page - 1);
  return get(rounded ? rounded : page, flags | MALLOCX_ALIGN(page));
}

MIP_ALLOC_API char *__mip_strdup_hint(const char *s, uint8_t hint) {
  size_t size = strlen(s) + 1;
  int flags = mip_alloc_flags(hint, size, size);
  if (!flags)
    return strdup(s);
  char *p = get(size, flags);
  if (p)
    memcpy(p, s, size);
  return p;
}

MIP_ALLOC_API char *__mip_strndup_hint(const char *s, size_t n, uint8_t hint) {
  size_t length = strnlen(s, n);
  int flags = mip_alloc_flags(hint, length + 1, length + 1);
  if (!flags)
    return strndup(s, n);
  char *p = get(length + 1, flags);
  if (p) {
    memcpy(p, s, length);
    p[length] = '\0';
  }
  return p;
}
