/*
 * libheapdl: a library built with -fmip-generate=heap (or plainly, for
 * DHAT) whose blocks code MIP did not instrument frees: the host (built
 * without MIP) with its own free and realloc, through the pointer to
 * free that lib_free_fn takes here, and through one this library keeps in
 * its data. One allocation site per function, so that the host can tell
 * what each site's profile must say.
 */
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default"), noinline))

/* The host frees these with its free. */
API void *lib_alloc(size_t n) {
  char *p = malloc(n);
  if (p)
    memset(p, 1, n);
  return p;
}

/* These go through a pointer to free: taken in code, or held in data. */
API void *lib_alloc_ptr(size_t n) { return malloc(n); }

API void (*lib_free_fn(void))(void *) { return free; }

static void (*volatile releaser)(void *) = free;

API void lib_release(void *p) { releaser(p); }

/* The host reallocates these. */
API void *lib_alloc_grow(size_t n) { return malloc(n); }

/* The host keeps these to the end. */
API void *lib_alloc_keep(size_t n) { return calloc(1, n); }

#ifdef SECOND
/* A second library: other contents, another build-id. */
API const char *lib_name(void) { return "second"; }
#endif
