/*
 * By hand, what the plugin adds to code built with -fmip-generate=heap
 * (docs/heap.md): the hook calls, the site bytes, the shadow increments,
 * and once per object the weak free/realloc/reallocarray that jump to
 * the runtime (with the marker __mip_heap_interpose); beside main, the
 * .preinit_array entry. So the runtime can be tested on its own.
 */
#ifndef HEAP_RT_GLUE_H
#define HEAP_RT_GLUE_H

#include <stdint.h>

#include "heap_hooks.h" /* rt/: the hooks */

/* One access by instrumented code: the granule's counter goes up. */
#define TOUCH(p)                                                               \
  (++*(uint64_t *)((((uintptr_t)(p)) >> 6 << 3) + 0x7fff8000))

__asm__(".pushsection .text.__mip_heap_interpose,\"axG\",@progbits,"
        "__mip_heap_interpose,comdat\n"
        ".weak __mip_heap_interpose\n"
        ".hidden __mip_heap_interpose\n"
        ".type __mip_heap_interpose,@function\n"
        "__mip_heap_interpose:\n"
        ".weak free\n"
        ".type free,@function\n"
        "free:\n"
        "  jmp __mip_heap_interposed_free\n"
        ".size free, .-free\n"
        ".weak realloc\n"
        ".type realloc,@function\n"
        "realloc:\n"
        "  jmp __mip_heap_interposed_realloc\n"
        ".size realloc, .-realloc\n"
        ".weak reallocarray\n"
        ".type reallocarray,@function\n"
        "reallocarray:\n"
        "  jmp __mip_heap_interposed_reallocarray\n"
        ".size reallocarray, .-reallocarray\n"
        ".size __mip_heap_interpose, .-__mip_heap_interpose\n"
        ".hidden __mip_heap_interposed_free\n"
        ".hidden __mip_heap_interposed_realloc\n"
        ".hidden __mip_heap_interposed_reallocarray\n"
        ".popsection\n");

#ifdef HEAP_RT_MAIN
__asm__(".pushsection .preinit_array,\"aw\",@preinit_array\n"
        ".p2align 3\n"
        ".quad __mip_heap_preinit\n"
        ".hidden __mip_heap_preinit\n"
        ".popsection\n");
#endif

#endif
