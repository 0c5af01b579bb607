/*
 * By hand, what the plugin adds to code built with -fmip-generate=heap
 * (docs/heap.md): the hook calls, the site bytes, the shadow increments,
 * and once per object the references to the runtime, to its code for
 * counters of every kind (the site bytes) and to the heap interposer
 * (include/mip/link.h), which heap_rt.sh links as mipcc does
 * (mip_interpose.o or mip_interpose_shared.o before libmip_rt.a); beside
 * main, the .preinit_array entry. So the runtime can be tested on its own.
 */
#ifndef HEAP_RT_GLUE_H
#define HEAP_RT_GLUE_H

#include <stdint.h>

#include "heap_hooks.h" /* rt/heap/: the hooks */

/* One access by instrumented code: the granule's counter goes up. */
#define TOUCH(p)                                                               \
  (++*(uint64_t *)((((uintptr_t)(p)) >> 6 << 3) + 0x7fff8000))

__asm__(".pushsection .rodata.mip.link,\"aR\",@progbits\n"
        ".p2align 2\n"
        ".long __mip_link_with_mipcc_or_libmip_rt@PLT\n"
        ".hidden __mip_link_with_mipcc_or_libmip_rt\n"
        ".long __mip_heap_link_with_mipcc_or_mip_interpose@PLT\n"
        ".hidden __mip_heap_link_with_mipcc_or_mip_interpose\n"
        /* site bytes: counters of another kind than coverage bytes */
        ".long __mip_link_counter_kinds@PLT\n"
        ".hidden __mip_link_counter_kinds\n"
        ".popsection\n");

#ifdef HEAP_RT_MAIN
__asm__(".pushsection .preinit_array,\"aw\",@preinit_array\n"
        ".p2align 3\n"
        ".quad __mip_heap_preinit\n"
        ".hidden __mip_heap_preinit\n"
        ".popsection\n");
#endif

#endif
