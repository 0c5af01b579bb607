/*
 * The linker's share of the command line, as far as mipcc needs it: which
 * files the linker reads that the driver does not see as inputs (named
 * through -Wl, or -Xlinker, or found by -l NAME in the -L directories),
 * and whether the command makes a shared library. scan.c then looks into
 * them: a build may name its static libraries only with -L and -l, and
 * libtool names convenience archives with -Wl,--whole-archive.
 *
 * This is a reading for one purpose, not a linker: what it misreads is at
 * worst a file not looked into, and then an instrumented object that
 * reaches the link that way still names the runtime in its undefined
 * symbol (include/mip/link.h), or a file looked into that the linker does
 * not read, which adds nothing unless it is an instrumented object.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mipcc.h"

/* -l NAME as read: whether only a static library would do at that point
 * (-static, or -Bstatic in force). */
struct libref {
  const char *name;
  bool static_only;
};

struct linkargs {
  struct strvec dirs;  /* -L directories, in order */
  struct strvec files; /* files named through -Wl, and -Xlinker */
  struct libref *libs; /* -l NAME, in order */
  size_t nlibs, cap;
  bool bstatic;    /* -Bstatic (or -static, -dn, -non_shared) in force */
  bool all_static; /* the driver's -static: no shared library at all */
  bool shared;     /* -shared */
  /* What the next linker argument is: the value of an option (skipped),
   * a -L directory, a -l name. */
  enum { LD_NONE, LD_SKIP, LD_DIR, LD_LIB } pending;
};

struct linkargs *linkargs_new(void) {
  struct linkargs *la = xmalloc(sizeof *la);
  memset(la, 0, sizeof *la);
  return la;
}

static void add_lib(struct linkargs *la, const char *name) {
  if (!*name)
    return;
  if (la->nlibs == la->cap) {
    la->cap = la->cap ? 2 * la->cap : 8;
    la->libs = xrealloc(la->libs, la->cap * sizeof *la->libs);
  }
  la->libs[la->nlibs++] = (struct libref){name, la->bstatic || la->all_static};
}

static void add_dir(struct linkargs *la, const char *dir) {
  if (*dir)
    strvec_push(&la->dirs, dir);
}

/* GNU ld options (and lld's and gold's spellings of them) whose value is
 * the next linker argument: that value is no input file. */
static const char *const ld_separate[] = {
    "--architecture", "--auxiliary",     "--defsym",
    "--dependency-file", "--dynamic-linker", "--dynamic-list",
    "--entry",        "--exclude-libs",  "--export-dynamic-symbol",
    "--filter",       "--format",        "--image-base",
    "--just-symbols", "--Map",           "--output",
    "--plugin",       "--plugin-opt",    "--require-defined",
    "--retain-symbols-file", "--rpath",  "--rpath-link",
    "--script",       "--section-ordering-file", "--soname",
    "--symbol-ordering-file", "--trace-symbol", "--undefined",
    "--version-script", "--wrap",        "-A",
    "-F",             "-G",              "-I",
    "-Map",           "-R",              "-T",
    "-Tbss",          "-Tdata",          "-Ttext",
    "-Ttext-segment", "-Y",              "-a",
    "-assert",        "-b",              "-dynamic-linker",
    "-e",             "-f",              "-fini",
    "-h",             "-init",           "-m",
    "-o",             "-plugin",         "-plugin-opt",
    "-rpath",         "-rpath-link",     "-soname",
    "-u",             "-version-script", "-y",
    "-z",
};

static bool takes_value(const char *arg) {
  for (size_t i = 0; i < sizeof ld_separate / sizeof *ld_separate; i++)
    if (strcmp(arg, ld_separate[i]) == 0)
      return true;
  return false;
}

/* One argument as the linker gets it, from -Wl, or -Xlinker. */
static void linker_arg(struct linkargs *la, const char *a) {
  int pending = la->pending;
  la->pending = LD_NONE;
  if (pending == LD_DIR)
    return add_dir(la, a);
  if (pending == LD_LIB)
    return add_lib(la, a);
  if (pending == LD_SKIP)
    return;
  if (a[0] != '-') {
    if (*a)
      strvec_push(&la->files, a);
  } else if (strcmp(a, "-L") == 0 || strcmp(a, "--library-path") == 0) {
    la->pending = LD_DIR;
  } else if (has_prefix(a, "--library-path=")) {
    add_dir(la, a + strlen("--library-path="));
  } else if (has_prefix(a, "-L")) {
    add_dir(la, a + 2);
  } else if (strcmp(a, "-l") == 0 || strcmp(a, "--library") == 0) {
    la->pending = LD_LIB;
  } else if (has_prefix(a, "--library=")) {
    add_lib(la, a + strlen("--library="));
  } else if (has_prefix(a, "-l")) {
    add_lib(la, a + 2);
  } else if (strcmp(a, "-Bstatic") == 0 || strcmp(a, "-static") == 0 ||
             strcmp(a, "-dn") == 0 || strcmp(a, "-non_shared") == 0) {
    la->bstatic = true;
  } else if (strcmp(a, "-Bdynamic") == 0 || strcmp(a, "-dy") == 0 ||
             strcmp(a, "-call_shared") == 0) {
    la->bstatic = false;
  } else if (strcmp(a, "-shared") == 0 || strcmp(a, "--shared") == 0 ||
             strcmp(a, "-Bshareable") == 0) {
    la->shared = true;
  } else if (takes_value(a)) {
    la->pending = LD_SKIP;
  }
}

/* -Wl,A,B,C: each comma-separated piece is one linker argument. */
static void linker_args(struct linkargs *la, const char *list) {
  char *copy = xstrdup(list);
  for (char *at = copy;;) {
    char *comma = strchr(at, ',');
    if (comma)
      *comma = '\0';
    linker_arg(la, at);
    if (!comma)
      break;
    at = comma + 1;
  }
}

bool linkargs_flag(struct linkargs *la, const char *arg) {
  if (has_prefix(arg, "-Wl,"))
    linker_args(la, arg + 4);
  else if (has_prefix(arg, "--library-directory="))
    add_dir(la, arg + strlen("--library-directory="));
  else if (has_prefix(arg, "-L") && arg[2])
    add_dir(la, arg + 2);
  else if (has_prefix(arg, "-l") && arg[2])
    add_lib(la, arg + 2);
  else if (strcmp(arg, "-static") == 0 || strcmp(arg, "-static-pie") == 0)
    la->all_static = true;
  else if (strcmp(arg, "-shared") == 0 || strcmp(arg, "--shared") == 0)
    la->shared = true;
  else
    return false;
  return true;
}

bool linkargs_option(struct linkargs *la, const char *option,
                     const char *value) {
  if (strcmp(option, "-Xlinker") == 0 || strcmp(option, "--for-linker") == 0)
    linker_arg(la, value);
  else if (strcmp(option, "-L") == 0 ||
           strcmp(option, "--library-directory") == 0)
    add_dir(la, value);
  else if (strcmp(option, "-l") == 0)
    add_lib(la, value);
  else
    return false;
  return true;
}

bool linkargs_shared(const struct linkargs *la) { return la->shared; }

static bool regular_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The static library -l NAME finds in the -L directories, or NULL: none,
 * or a shared library comes first. -l:FILE looks for FILE itself. */
static char *find_static(const struct linkargs *la, const struct libref *l) {
  bool exact = l->name[0] == ':';
  for (size_t i = 0; i < la->dirs.n; i++) {
    const char *dir = la->dirs.v[i];
    if (exact) {
      char *path = xconcat(dir, "/", l->name + 1, NULL);
      if (regular_file(path))
        return path; /* a shared one is passed over by the scan */
      free(path);
      continue;
    }
    if (!l->static_only) {
      char *so = xconcat(dir, "/lib", l->name, ".so", NULL);
      bool shared = regular_file(so);
      free(so);
      if (shared)
        return NULL;
    }
    char *a = xconcat(dir, "/lib", l->name, ".a", NULL);
    if (regular_file(a))
      return a;
    free(a);
  }
  return NULL;
}

void linkargs_files(const struct linkargs *la, struct strvec *files) {
  for (size_t i = 0; i < la->files.n; i++)
    strvec_push(files, la->files.v[i]);
  for (size_t i = 0; i < la->nlibs; i++) {
    char *path = find_static(la, &la->libs[i]);
    if (path)
      strvec_push(files, path);
  }
}
