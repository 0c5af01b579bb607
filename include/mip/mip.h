/*
 * MIP runtime: what an instrumented program may call.
 *
 * The runtime writes each image's raw profile when the program exits (or a
 * shared library is unloaded). A program that never returns normally (a
 * server stopped by a signal, a child that ends with _exit) can write it
 * when it chooses with mip_dump().
 *
 * The declaration is weak, so the same code builds and links without MIP:
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

#ifdef __cplusplus
}
#endif

#endif
