/*
 * The heap interposer: free, realloc and reallocarray that send a heap
 * image's frees to its runtime (rt/heap_interpose.c), so that a block
 * allocated in instrumented code dies when code MIP did not instrument
 * frees or reallocates it (docs/heap.md). mipcc links this object into
 * every image that has heap code, beside libmip_rt.a, built twice:
 *
 *   mip_interpose.o         executables: default visibility, so the
 *                           process's free is this one, whoever calls it
 *   mip_interpose_shared.o  shared libraries: hidden, so the library's own
 *                           calls and function pointers reach the runtime
 *                           and the library exports nothing of libc's
 *
 * It cannot be a member of libmip_rt.a: the linker takes an archive
 * member for any undefined symbol it defines, and would take one defining
 * free into every program that frees memory. Weak, so that a program that
 * defines its own free keeps it (then only the hooks see its frees).
 *
 * It also defines the two symbols heap code needs: __mip_heap_interpose,
 * whose presence tells the heap runtime that its image is a heap image
 * (heap_owner.c), and MIP_HEAP_LINK_SYMBOL, which every heap object
 * refers to, so that a heap link without this object fails and says so
 * (include/mip/link.h).
 */
#include "mip/link.h"

#ifdef MIP_INTERPOSE_HIDDEN
#define VISIBILITY(name) ".hidden " name "\n"
#else
#define VISIBILITY(name) ""
#endif

/* A weak function that jumps to the runtime's __mip_heap_interposed_NAME. */
#define FORWARD(name)                                                          \
  ".weak " name "\n" VISIBILITY(name) ".type " name ",@function\n" name        \
  ":\n"                                                                        \
  "  jmp __mip_heap_interposed_" name "\n"                                     \
  ".size " name ", .-" name "\n"                                               \
  ".hidden __mip_heap_interposed_" name "\n"

__asm__(".pushsection .text.__mip_heap_interpose,\"ax\",@progbits\n"
        ".weak __mip_heap_interpose\n"
        ".hidden __mip_heap_interpose\n"
        ".type __mip_heap_interpose,@function\n"
        ".weak " MIP_HEAP_LINK_SYMBOL "\n"
        ".hidden " MIP_HEAP_LINK_SYMBOL "\n"
        "__mip_heap_interpose:\n" MIP_HEAP_LINK_SYMBOL ":\n" FORWARD("free")
            FORWARD("realloc") FORWARD("reallocarray")
        ".size __mip_heap_interpose, .-__mip_heap_interpose\n"
        ".popsection\n");
