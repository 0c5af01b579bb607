/*
 * The heap-mode hooks as instrumented code calls them (mode heap,
 * docs/heap.md; plugin/HeapSites.cpp and HeapAccesses.cpp emit the
 * calls): declared once here for the runtime that defines them
 * (heap_hooks.c) and for the test and benchmark code that calls them or
 * stands in for them. Hidden: every image has its own.
 */
#ifndef MIP_RT_HEAP_HOOKS_H
#define MIP_RT_HEAP_HOOKS_H

#include <stdint.h>

#define MIP_HEAP_HOOK __attribute__((visibility("hidden")))

MIP_HEAP_HOOK void __mip_heap_alloc(void *p, uint64_t size, uint8_t *site);
MIP_HEAP_HOOK void __mip_heap_alloc_str(void *p, uint8_t *site);
MIP_HEAP_HOOK void __mip_heap_alloc_at(void **out, int result, uint64_t size,
                                       uint8_t *site);
MIP_HEAP_HOOK void __mip_heap_realloc(void *old, void *p, uint64_t size,
                                      uint8_t *site);
MIP_HEAP_HOOK void __mip_heap_free(void *p, uint8_t *site);
MIP_HEAP_HOOK void __mip_heap_access_range(const void *p, uint64_t size);

#endif
