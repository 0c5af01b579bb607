/*
 * File names as MIP shows them. Debug information joins a unit's
 * directory and the file name as the compiler was given it: `clang
 * src/./a.c` in /build gives "/build/src/./a.c", `clang .//src/a.c` (as
 * zstd's Makefile compiles) "/build/.//src/a.c", and a program built in
 * programs/ from ../lib/common/x.c "/build/programs/../lib/common/x.c".
 * Each name is tidied lexically, so that a file has one name wherever it
 * appears (heap sites, declarations, line tables, inlined calls, FILE
 * symbols) and every report and export shows it without steps: "."
 * steps go, a run of slashes is one, and "dir/.." goes with the
 * directory before it. A leading "//" is one slash too: POSIX leaves its
 * meaning to the system, and on Linux it is the root. ".." at the root
 * is the root; a relative name keeps the ".." steps that lead out of it
 * ("../a.c"). The steps are resolved without asking the file system: a
 * symbolic link on the way can make "dir/.." another directory than the
 * one that holds dir, but the names are those of a build, read anywhere,
 * and one name per file is what reports and matching need.
 */
#ifndef MIP_LIB_PATH_H
#define MIP_LIB_PATH_H

/* Tidies path in place: "/b/.//c/." is "/b/c", "/b/x/../c" is "/b/c",
 * "./a.c" is "a.c", "/.." is "/", "a/.." is ".". A trailing slash
 * stays. */
void mip_path_tidy(char *path);

#endif
