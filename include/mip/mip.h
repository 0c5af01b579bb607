/*
 * MIP runtime: what an instrumented program may call.
 *
 * The runtime writes each image's raw profile when the program exits (or a
 * shared library is unloaded). A program that never returns normally (a
 * server stopped by a signal, a child that ends with _exit) can write it
 * when it chooses with mip_dump().
 *
 * An image links it when one of its instrumented objects calls it (a
 * call from an object built without -fmip-generate finds it only in an
 * image that links it for another object). The declaration is weak, so
 * the same code builds and links without MIP:
 *
 *     #include <mip/mip.h>
 *     ...
 *     if (mip_dump)
 *       mip_dump();
 *
 * See docs/runtime.md for where profiles go.
 */
#ifndef MIP_MIP_H
#define MIP_MIP_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the raw profile of every instrumented image in the process (the
 * executable and each instrumented shared library, whichever of them the
 * caller is in) to the file it would write at exit, replacing what an
 * earlier call wrote there. Counters keep running and are not reset, so
 * each file holds everything counted since the image started (or, in a
 * forked child, since the fork).
 *
 * Returns 0 when every profile was written, -1 otherwise (each failure has
 * printed one line on stderr). A call while another is under way (in
 * another thread, or in a signal handler that interrupted it) writes
 * nothing and returns -1 at once, silently: the one under way writes the
 * files. errno is preserved. Safe to call from a signal handler and from
 * several threads; allocates nothing.
 */
int mip_dump(void) __attribute__((weak));

/*
 * Heap profiling (-fmip-generate=heap) of a region of the program; defined
 * only in programs with heap code (test the pointer, as for mip_dump).
 *
 * mip_heap_stop() stops recording allocations, mip_heap_start() starts it
 * again; recording is on from the start unless MIP_OPTIONS has
 * heap_record=0. Both return 1 when recording was on before the call, 0
 * when it was off, -1 when heap profiling is off. What recording decides
 * is a block's birth: a block allocated while it is on is followed to its
 * death whenever that comes, even after mip_heap_stop() (and through
 * realloc, which continues a block); a block allocated while it is off is
 * counted nowhere, before or after mip_heap_start(), and its free is no
 * ghost free.
 *
 * mip_heap_reset() starts the heap profile over, as
 * __llvm_profile_reset_counters does counters: every context's counts, the
 * statistics, the timeline and its peak go back to zero, and the blocks
 * live at that moment are forgotten (their deaths change nothing).
 * Returns 0, or -1 when heap profiling is off. Blocks that other threads
 * allocate or free during the call may or may not be counted.
 *
 * None allocates; errno is preserved. Not for signal handlers (they take
 * the runtime's locks).
 */
int mip_heap_start(void) __attribute__((weak));
int mip_heap_stop(void) __attribute__((weak));
int mip_heap_reset(void) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#endif
