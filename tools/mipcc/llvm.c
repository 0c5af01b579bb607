/*
 * Which LLVM release a command uses. A build of MIP can hold a plugin for
 * several, side by side in lib/mip/llvm-N/ (plugin/build.mk); each works
 * only in the clang of its own release. --mip-llvm=N or $MIP_LLVM picks
 * one, else the newest there is. The release the build was made with
 * (MIP_LLVM_MAJOR) runs the clang built in (MIP_CLANG); another release N
 * runs Debian's /usr/lib/llvm-N/bin/clang. A library directory without
 * any llvm-N (an older layout, or tests that copy libmip.so alone) has its
 * libmip.so used with the built-in clang.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mipcc.h"

#ifndef MIP_LLVM_MAJOR
#error "MIP_LLVM_MAJOR must be defined to the release MIP_CLANG belongs to"
#endif

/* The release chosen, 0 for none (the directory has no llvm-N), and
 * those there are, newest first ("19 16 14"). */
static int chosen;
static char available[256];

/* N of a directory entry "llvm-N", or 0. */
static int release_of(const char *name) {
  if (!has_prefix(name, "llvm-") || !name[5])
    return 0;
  char *end;
  long n = strtol(name + 5, &end, 10);
  return *end || n <= 0 || n > 999 ? 0 : (int)n;
}

static bool has_plugin(const char *dir, int n) {
  char sub[16];
  snprintf(sub, sizeof sub, "llvm-%d", n);
  char *path = xconcat(dir, "/", sub, "/libmip.so", NULL);
  bool there = access(path, R_OK) == 0;
  free(path);
  return there;
}

/* The releases the library directory holds a plugin for, newest first,
 * as "19 16 14" (empty for none); returns the newest, or 0. */
static int releases(const char *dir, char *list, size_t cap) {
  bool seen[1000] = {false};
  DIR *d = opendir(dir);
  if (d) {
    for (struct dirent *e; (e = readdir(d));) {
      int n = release_of(e->d_name);
      if (n && has_plugin(dir, n))
        seen[n] = true;
    }
    closedir(d);
  }
  int newest = 0;
  list[0] = '\0';
  for (int n = 999; n > 0; n--) {
    if (!seen[n])
      continue;
    if (!newest)
      newest = n;
    size_t len = strlen(list);
    snprintf(list + len, cap - len, "%s%d", len ? " " : "", n);
  }
  return newest;
}

void choose_llvm(const char *asked) {
  if (!asked) {
    const char *v = getenv("MIP_LLVM");
    asked = v && *v ? v : NULL;
  }
  char *dir = mip_libdir();
  char *list = available;
  int newest = releases(dir, list, sizeof available);
  if (!asked) {
    chosen = newest;
    free(dir);
    return;
  }
  int n = release_of(xconcat("llvm-", asked, NULL));
  if (!n || !has_plugin(dir, n))
    die("no MIP plugin for LLVM %s in %s (%s%s)", asked, dir,
        *list ? "there are: " : "there is none", list);
  chosen = n;
  free(dir);
}

int chosen_llvm(void) { return chosen; }

const char *llvm_compiler(bool cxx) {
  if (!chosen || chosen == MIP_LLVM_MAJOR)
    return cxx ? MIP_CLANGXX : MIP_CLANG;
  char dir[64];
  snprintf(dir, sizeof dir, "/usr/lib/llvm-%d/bin/", chosen);
  return xconcat(dir, cxx ? "clang++" : "clang", NULL);
}

char *llvm_plugin(void) {
  if (!chosen)
    return mip_file("libmip.so");
  char sub[32];
  snprintf(sub, sizeof sub, "llvm-%d/libmip.so", chosen);
  return mip_file(sub);
}

void print_llvm_version(void) {
  if (!chosen)
    return;
  fprintf(stderr, "%s: using LLVM %d (%s); plugins for LLVM %s\n", mipcc_name,
          chosen, compiler_path(false), available);
  if (chosen < 17)
    fprintf(stderr, "%s: LLVM %d has no block coverage inference: mode "
                    "blocks probes every block\n",
            mipcc_name, chosen);
}
