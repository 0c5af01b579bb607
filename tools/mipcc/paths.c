/*
 * Where things are. The real compiler's path is built in (it is where the
 * plugin was built against); the plugin and the libraries are found next
 * to this executable, in ../lib/mip, and mipdata in the same directory as
 * it: the same layout in the build tree and in an installed prefix.
 * Environment variables override each, for tests and unusual installs.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mipcc.h"

#ifndef MIP_CLANG
#error "MIP_CLANG must be defined to the path of the real clang"
#endif
#ifndef MIP_CLANGXX
#error "MIP_CLANGXX must be defined to the path of the real clang++"
#endif

/* The value of an environment variable, NULL when unset or empty. */
static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

const char *compiler_path(bool cxx) {
  const char *v = env(cxx ? "MIP_CLANGXX" : "MIP_CLANG");
  return v ? v : llvm_compiler(cxx);
}

/* The absolute path of this executable, symlinks resolved (so mipc++ ->
 * mipcc leads to the directory mipcc really is in). */
static char *self_exe(void) {
  size_t cap = 256;
  for (;;) {
    char *buf = xmalloc(cap);
    ssize_t n = readlink("/proc/self/exe", buf, cap);
    if (n < 0)
      die("cannot find my own executable (/proc/self/exe): %s",
          strerror(errno));
    if ((size_t)n < cap) {
      buf[n] = '\0';
      return buf;
    }
    free(buf);
    cap *= 2;
  }
}

/* Cuts the last path component off path, in place ("/a/b" -> "/a"). */
static void strip_last(char *path) {
  char *slash = strrchr(path, '/');
  if (slash)
    *slash = '\0';
}

static char *default_libdir(void) {
  char *exe = self_exe();
  strip_last(exe); /* <prefix>/bin */
  strip_last(exe); /* <prefix> */
  char *dir = xconcat(exe, "/lib/mip", NULL);
  free(exe);
  return dir;
}

/* The directory of the libraries: $MIP_LIBDIR, or ../lib/mip. */
char *mip_libdir(void) {
  const char *dir = env("MIP_LIBDIR");
  return dir ? xstrdup(dir) : default_libdir();
}

char *mip_file(const char *name) {
  char *owned = mip_libdir();
  char *path = xconcat(owned, "/", name, NULL);
  /* clang runs the plugin from its own cc1 process: give it an absolute,
   * canonical path, which also proves that the file is there. */
  char *abs = realpath(path, NULL);
  if (!abs || access(abs, R_OK) != 0)
    die("cannot find %s (set MIP_LIBDIR to the directory that holds it)",
        path);
  free(path);
  free(owned);
  return abs;
}

#if defined(__x86_64__)
#define HOST_ARCH "x86_64"
#elif defined(__aarch64__)
#define HOST_ARCH "aarch64"
#else
#define HOST_ARCH ""
#endif

/* The absolute path of dir/sub/name, NULL if there is no such file. */
static char *existing(const char *dir, const char *sub, const char *name) {
  char *path = xconcat(dir, "/", sub, "/", name, NULL);
  char *abs = realpath(path, NULL);
  free(path);
  if (abs && access(abs, R_OK) == 0)
    return abs;
  free(abs);
  return NULL;
}

/* The architecture of a triple, as the libraries' directories name it. */
static char *triple_arch(const char *triple) {
  size_t n = strcspn(triple, "-");
  char *arch = xmalloc(n + 1);
  memcpy(arch, triple, n);
  arch[n] = '\0';
  if (strcmp(arch, "arm64") == 0) {
    free(arch);
    return xstrdup("aarch64");
  }
  return arch;
}

bool mip_target_is_arm32(const char *triple) {
  if (!triple)
    return false;
  char *arch = triple_arch(triple);
  bool arm = (has_prefix(arch, "arm") || has_prefix(arch, "thumb")) &&
             !has_suffix(arch, "eb") && strcmp(arch, "arm64") != 0;
  free(arch);
  return arm;
}

/* The directory of a triple's runtime when it is not the triple itself:
 * ARCH-linux-gnu, and for every 32-bit Arm spelling (arm, armv7,
 * armv7l, thumbv7a...) the one Armv7 runtime, armv7a-linux-gnueabihf. */
static char *runtime_triple(const char *triple) {
  if (mip_target_is_arm32(triple))
    return xstrdup("armv7a-linux-gnueabihf");
  char *arch = triple_arch(triple);
  char *linux_triple = xconcat(arch, "-linux-gnu", NULL);
  free(arch);
  return linux_triple;
}

/* Where a target's copy of name is: lib/mip/TRIPLE/, then the directory
 * runtime_triple names, then, for the host's architecture, lib/mip/;
 * NULL if none has it. searched: the last directory looked in. */
static char *target_lookup(const char *triple, const char *name,
                           char **searched) {
  char *dir = mip_libdir();
  char *arch = triple_arch(triple);
  char *linux_triple = runtime_triple(triple);
  char *found = existing(dir, triple, name);
  if (!found)
    found = existing(dir, linux_triple, name);
  if (!found && strcmp(arch, HOST_ARCH) == 0)
    found = existing(dir, ".", name);
  *searched = xconcat(dir, "/", linux_triple, NULL);
  free(linux_triple);
  free(arch);
  free(dir);
  return found;
}

char *mip_target_file(const char *triple, const char *name) {
  if (!triple)
    return mip_file(name);
  char *searched;
  char *found = target_lookup(triple, name, &searched);
  if (!found)
    die("no MIP runtime for target %s: %s/%s is missing (MIP supports "
        "x86_64-linux-gnu, aarch64-linux-gnu and armv7a-linux-gnueabihf)",
        triple, searched, name);
  free(searched);
  return found;
}

bool mip_target_has(const char *triple, const char *name) {
  if (!triple)
    return true; /* the host's: a missing one is said when it is used */
  char *searched;
  char *found = target_lookup(triple, name, &searched);
  free(searched);
  free(found);
  return found != NULL;
}

char *mipdata_path(void) {
  const char *v = env("MIP_MIPDATA");
  if (v && !strchr(v, '/'))
    return xstrdup(v); /* found through PATH when it runs */
  char *path;
  if (v) {
    path = xstrdup(v);
  } else {
    char *exe = self_exe();
    strip_last(exe); /* <prefix>/bin */
    path = xconcat(exe, "/mipdata", NULL);
    free(exe);
  }
  if (access(path, X_OK) != 0)
    die("cannot find %s (set MIP_MIPDATA to the mipdata to run)", path);
  return path;
}

void check_not_self(const char *compiler) {
  if (!strchr(compiler, '/'))
    return; /* found through PATH at exec time */
  char *target = realpath(compiler, NULL);
  char *self = self_exe();
  bool same = target && strcmp(target, self) == 0;
  free(target);
  free(self);
  if (same)
    die("the real compiler %s is mipcc itself (check MIP_CLANG and "
        "MIP_CLANGXX)",
        compiler);
}
