/*
 * File names as MIP shows them. Debug information joins a unit's
 * directory and the file name as the compiler was given it: `clang
 * src/./a.c` in /build gives "/build/src/./a.c". Each "/./" step is
 * dropped, so that a file has one name wherever it appears: heap sites,
 * declarations, line tables, inlined calls, FILE symbols. "dir/../" steps
 * stay: with a symbolic link on the way, "dir/.." is not the directory
 * that holds dir, and the compiler's own search paths
 * (/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include) are spelled so.
 */
#ifndef MIP_LIB_PATH_H
#define MIP_LIB_PATH_H

/* Drops path's "/./" steps, in place. */
void mip_path_tidy(char *path);

#endif
