/*
 * File names as MIP shows them. Debug information joins a unit's
 * directory and the file name as the compiler was given it: `clang
 * src/./a.c` in /build gives "/build/src/./a.c", and `clang .//src/a.c`
 * (as zstd's Makefile compiles) "/build/.//src/a.c". Each "." step after
 * a slash is dropped and each run of slashes is one, so that a file has
 * one name wherever it appears: heap sites, declarations, line tables,
 * inlined calls, FILE symbols. A leading "//" is one slash too: POSIX
 * leaves its meaning to the system, and on Linux it is the root. A
 * relative name's leading "." stays ("./a.c"). "dir/../" steps
 * stay: with a symbolic link on the way, "dir/.." is not the directory
 * that holds dir, and the compiler's own search paths
 * (/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include) are spelled so.
 */
#ifndef MIP_LIB_PATH_H
#define MIP_LIB_PATH_H

/* Drops path's "." steps and repeated slashes, in place: "/b/.//c/."
 * is "/b/c", "/." is "/". */
void mip_path_tidy(char *path);

#endif
