/*
 * The heap interposer: free, realloc and reallocarray that send a heap
 * image's frees to its runtime (rt/heap_interpose.c), so that a block
 * allocated in instrumented code dies when code MIP did not instrument
 * frees or reallocates it (docs/heap.md); and malloc, calloc and
 * malloc_usable_size, which make room for a small block's record beside
 * it (rt/heap/heap_tail.c). mipcc links this object into
 * every image that has heap code, beside libmip_rt.a, built twice:
 *
 *   mip_interpose.o         executables: default visibility, so the
 *                           process's free is this one, whoever calls it
 *   mip_interpose_shared.o  shared libraries: the two symbols below only.
 *                           A library exports nothing of libc's, and
 *                           defines no free of its own either: a pointer
 *                           to free it hands out must stay good after it
 *                           is unloaded. Where the process's free is not
 *                           an executable's interposed one, the runtime
 *                           redirects the GOT slots of every loaded
 *                           object, the library's included (heap_got.c),
 *                           to code that outlives the library.
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
#include "arch.h"
#include "mip/link.h"

/* A weak function that jumps to the runtime's __mip_heap_interposed_NAME. */
#define FORWARD(name)                                                          \
  ".weak " name "\n"                                                           \
  ".type " name ",%function\n" MIP_RT_ASM_FUNCTION_STATE name ":\n"           \
  MIP_RT_ASM_TAIL_JUMP("__mip_heap_interposed_" name)                          \
  ".size " name ", .-" name "\n"                                               \
  ".hidden __mip_heap_interposed_" name "\n"

#ifdef MIP_INTERPOSE_FOR_SHARED
#define FUNCTIONS MIP_RT_ASM_TRAP /* for the symbols to name; never run */
#else
#define FUNCTIONS                                                              \
  FORWARD("free") FORWARD("realloc") FORWARD("reallocarray")                   \
  FORWARD("malloc") FORWARD("calloc") FORWARD("malloc_usable_size")
#endif

__asm__(".pushsection .text.__mip_heap_interpose,\"ax\",%progbits\n"
        ".weak __mip_heap_interpose\n"
        ".hidden __mip_heap_interpose\n"
        ".type __mip_heap_interpose,%function\n"
        ".weak " MIP_HEAP_LINK_SYMBOL "\n"
        ".hidden " MIP_HEAP_LINK_SYMBOL "\n"
        MIP_RT_ASM_FUNCTION_STATE
        "__mip_heap_interpose:\n" MIP_HEAP_LINK_SYMBOL ":\n" FUNCTIONS
        ".size __mip_heap_interpose, .-__mip_heap_interpose\n"
        ".popsection\n");
