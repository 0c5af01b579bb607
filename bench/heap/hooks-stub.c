/*
 * Heap-mode hooks that do nothing but mark their site, for the *heap-stub*
 * build of `make bench-heap` (bench/README.md, "What is measured").
 * Linked before libmip_rt.a, these definitions keep the archive's hooks
 * out, so that build runs the same instrumented code as *heap* (inline
 * access counts, frame pointers, the calls of the hooks, the interposed
 * free and realloc) without the runtime's work per block: no walk, no
 * table insert, no MemInfoBlock (memcpy and memset ranges still count, as
 * the program's own loads and stores do). Its time against plain's is
 * what heap mode costs before any bookkeeping; against heap's, what the
 * bookkeeping costs.
 */
#include "heap_hooks.h" /* rt/heap/ */

void __mip_heap_alloc(void *p, uint64_t size, uint8_t *site) {
  (void)p;
  (void)size;
  *site = 1;
}

void __mip_heap_alloc_str(void *p, uint8_t *site) {
  (void)p;
  *site = 1;
}

void __mip_heap_alloc_at(void **out, int result, uint64_t size,
                         uint8_t *site) {
  (void)out;
  (void)result;
  (void)size;
  *site = 1;
}

void __mip_heap_realloc(void *old, void *p, uint64_t size, uint8_t *site) {
  (void)old;
  (void)p;
  (void)size;
  *site = 1;
}

void __mip_heap_free(void *p, uint8_t *site) {
  (void)p;
  *site = 1;
}

/* One access to each granule of the range, in the shadow the runtime
 * mapped at start-up (docs/heap.md has the layout; never run under
 * valgrind, whose smaller shadow does not cover every address). */
void __mip_heap_access_range(const void *p, uint64_t size) {
  if (!size)
    return;
  uintptr_t first = (uintptr_t)p >> 6, last = ((uintptr_t)p + size - 1) >> 6;
  for (uintptr_t g = first; g <= last && g < (1ull << (47 - 6)); g++)
    ++*(volatile uint64_t *)(0x7fff8000ull + (g << 3));
}
