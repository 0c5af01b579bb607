/*
 * host MODE [LIB [PLAIN]]: a program built without MIP that uses the heap
 * library libheapdl (lib.c) and frees its blocks itself. It prints what
 * each of the library's allocation sites must show in the profile,
 *   site FUNCTION BLOCKS BYTES LIVE_AT_EXIT
 * and what it saw of errno (as it does with the library built without
 * MIP), and exits with status 3.
 *
 *   dlopen LIB        loads LIB with dlopen, then work()
 *   linked            LIB is linked (DT_NEEDED): its functions by name
 *   late LIB PLAIN    loads LIB, then PLAIN (a bare name, found through
 *                     the host's RUNPATH), frees LIB's blocks through
 *                     PLAIN's code
 *   dlclose LIB       frees part of LIB's blocks, unloads LIB, then frees
 *                     the rest (with free, the pointer LIB gave, and
 *                     dlsym's free)
 *   next LIB          frees blocks through dlsym(RTLD_NEXT, "free"),
 *                     which nothing redirects, then allocates as many
 *                     again: prints how many addresses came back
 *   handover LIB LIB2 loads both heap libraries (LIB owns the heap
 *                     state), unloads LIB, then works with LIB2, which
 *                     takes the state over: prints LIB2's sites
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*free_fn)(void *);

struct lib {
  void *(*alloc)(size_t);
  void *(*alloc_ptr)(size_t);
  free_fn (*free_fn)(void);
  void (*release)(void *);
  void *(*grow)(size_t);
  void *(*keep)(size_t);
};

/* What the profile must say, per site. */
enum { ALLOC, PTR, GROW, KEEP, SITES };
static const char *const site_name[SITES] = {
    "lib_alloc", "lib_alloc_ptr", "lib_alloc_grow", "lib_alloc_keep"};
static struct {
  unsigned long blocks, bytes, live;
} truth[SITES];

static void born(int site, size_t n) {
  truth[site].blocks++;
  truth[site].bytes += n;
  truth[site].live++;
}

static void died(int site) { truth[site].live--; }

/* Whether errno still held what was set before each call of a kind. */
enum { BY_FREE, BY_REALLOC, AFTER_DLCLOSE, KINDS };
static const char *const errno_what[KINDS] = {"free", "realloc",
                                              "free after dlclose"};
static int errno_changed[KINDS];

static void check_errno(int want, int kind) {
  if (errno != want)
    errno_changed[kind] = 1;
}

/* The host's own pointer to free, taken in code once the library is
 * loaded (a copy made before would be libc's free itself): in a non-PIE
 * build, the address of the host's PLT entry, which is then free's
 * address for the whole process (dlsym's answer too). */
static free_fn volatile host_free;

static void *must(void *p) {
  if (!p) {
    puts("allocation failed");
    exit(1);
  }
  return p;
}

static void work(const struct lib *l) {
  /* (a) The host's free, and its pointer to free. */
  host_free = free;
  for (int i = 0; i < 20; i++) {
    void *p = must(l->alloc(100 + i));
    born(ALLOC, 100 + i);
    errno = 4242;
    if (i % 4 == 3)
      host_free(p);
    else
      free(p);
    check_errno(4242, BY_FREE);
    died(ALLOC);
  }
  /* (b) Through the pointer the library took, and the one it keeps. */
  free_fn f = l->free_fn();
  for (int i = 0; i < 15; i++) {
    void *p = must(l->alloc_ptr(200 + i));
    born(PTR, 200 + i);
    if (i < 10)
      f(p);
    else
      l->release(p);
    died(PTR);
  }
  /* (c) realloc and reallocarray in the host: the library's block dies
   * there (the one realloc returns is the host's). */
  for (int i = 0; i < 8; i++) {
    void *p = must(l->grow(16 + i));
    born(GROW, 16 + i);
    errno = 77;
    p = must(realloc(p, 4000 + i));
    check_errno(77, BY_REALLOC);
    died(GROW);
    free(p);
  }
  void *q = must(l->grow(32));
  born(GROW, 32);
  errno = 0;
  if (realloc(q, SIZE_MAX / 2) != NULL)
    puts("realloc of SIZE_MAX / 2 succeeded");
  printf("errno after a failing realloc: %d\n", errno);
  q = must(reallocarray(q, 4, 100));
  died(GROW);
  free(q);
  /* (d) Live at exit. */
  for (int i = 0; i < 3; i++) {
    must(l->keep(48));
    born(KEEP, 48);
  }
}

static void *need(void *handle, const char *name) {
  void *p = dlsym(handle, name);
  if (!p) {
    printf("no %s: %s\n", name, dlerror());
    exit(1);
  }
  return p;
}

static void *open_or_die(const char *path) {
  void *h = dlopen(path, RTLD_NOW);
  if (!h) {
    printf("dlopen %s: %s\n", path, dlerror());
    exit(1);
  }
  return h;
}

static struct lib bind(void *h) {
  struct lib l;
  l.alloc = (void *(*)(size_t))need(h, "lib_alloc");
  l.alloc_ptr = (void *(*)(size_t))need(h, "lib_alloc_ptr");
  l.free_fn = (free_fn(*)(void))need(h, "lib_free_fn");
  l.release = (void (*)(void *))need(h, "lib_release");
  l.grow = (void *(*)(size_t))need(h, "lib_alloc_grow");
  l.keep = (void *(*)(size_t))need(h, "lib_alloc_keep");
  return l;
}

/* late: blocks of the heap library freed and reallocated by a library
 * loaded after it. */
static void late(const struct lib *l, const char *plain) {
  void *h = open_or_die(plain);
  void (*release)(void *) = (void (*)(void *))need(h, "plain_release");
  void *(*grow)(void *, size_t) =
      (void *(*)(void *, size_t))need(h, "plain_grow");
  for (int i = 0; i < 12; i++) {
    void *p = must(l->alloc(300 + i));
    born(ALLOC, 300 + i);
    if (i % 2) {
      release(p);
    } else {
      p = must(grow(p, 5000));
      release(p);
    }
    died(ALLOC);
  }
}

/* dlclose: what outlives the library is freed after it is gone. */
static void unload(void *h, const struct lib *l) {
  void *p[10];
  for (int i = 0; i < 10; i++) {
    p[i] = must(l->alloc(64));
    born(ALLOC, 64);
  }
  for (int i = 0; i < 4; i++) {
    free(p[i]);
    died(ALLOC);
  }
  free_fn f = l->free_fn();
  free_fn g = (free_fn)need(dlopen(NULL, RTLD_NOW), "free");
  dlclose(h);
  /* Written at dlclose: the six blocks still live were live then. */
  free(p[4]);
  free(p[5]);
  f(p[6]);
  f(p[7]);
  g(p[8]);
  errno = 5;
  g(p[9]);
  check_errno(5, AFTER_DLCLOSE);
  void *r = must(realloc(must(malloc(8)), 800));
  free(r);
}

/* next: frees nothing can redirect. */
static void next(const struct lib *l) {
  free_fn real = (free_fn)need(RTLD_NEXT, "free");
  void *p[6], *q[6];
  for (int i = 0; i < 6; i++) {
    p[i] = must(l->alloc(40));
    born(ALLOC, 40);
  }
  for (int i = 5; i >= 0; i--)
    real(p[i]);
  int reused = 0;
  for (int i = 0; i < 6; i++) {
    q[i] = must(l->alloc(40));
    born(ALLOC, 40);
    for (int j = 0; j < 6; j++)
      reused += q[i] == p[j];
  }
  for (int i = 0; i < 6; i++) {
    free(q[i]);
    died(ALLOC);
  }
  printf("reused %d\n", reused);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  const char *path = argc > 2 ? argv[2] : "";
  if (strcmp(mode, "linked") == 0) {
    struct lib l = bind(RTLD_DEFAULT);
    work(&l);
  } else if (strcmp(mode, "dlopen") == 0) {
    struct lib l = bind(open_or_die(path));
    work(&l);
  } else if (strcmp(mode, "late") == 0 && argc > 3) {
    struct lib l = bind(open_or_die(path));
    late(&l, argv[3]);
  } else if (strcmp(mode, "dlclose") == 0) {
    void *h = open_or_die(path);
    struct lib l = bind(h);
    unload(h, &l);
  } else if (strcmp(mode, "handover") == 0 && argc > 3) {
    void *h = open_or_die(path);
    struct lib first = bind(h), second = bind(open_or_die(argv[3]));
    for (int i = 0; i < 5; i++)
      free(must(first.alloc(70)));
    dlclose(h);
    /* LIB2 takes the state over at its first allocation; a pointer to
     * free taken before that is libc's own. */
    free(must(second.alloc(8)));
    born(ALLOC, 8);
    died(ALLOC);
    work(&second);
  } else if (strcmp(mode, "next") == 0) {
    struct lib l = bind(open_or_die(path));
    next(&l);
  } else {
    fprintf(stderr, "usage: host dlopen|linked|late|dlclose|next|handover "
                    "[LIB [PLAIN|LIB2]]\n");
    return 2;
  }
  for (int i = 0; i < SITES; i++)
    printf("site %s %lu %lu %lu\n", site_name[i], truth[i].blocks,
           truth[i].bytes, truth[i].live);
  for (int i = 0; i < KINDS; i++)
    printf("errno after %s: %s\n", errno_what[i],
           errno_changed[i] ? "changed" : "kept");
  return 3;
}
