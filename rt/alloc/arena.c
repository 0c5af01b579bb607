/*
 * The cold and hot arenas, and whether hints are on at all: decided once,
 * at the first hinted call that is not notcold (pthread_once), and never
 * again.
 *
 * Hints are on when MIP_ALLOC_HINTS is not "0", jemalloc is the process's
 * malloc (what malloc, realloc and free do reaches the jemalloc that
 * mallocx is: not so under a preloaded malloc or a sanitizer's, whose
 * free() would be handed jemalloc's blocks), and jemalloc made two arenas
 * (arenas.create). Otherwise every call is plain, after one line on
 * stderr when jemalloc is not malloc or made no arenas.
 *
 * jemalloc's thread cache (tcache) has one bin per size class, not per
 * arena: an allocation that may use the thread's cache can be handed a
 * block of any arena that this thread freed. So a hinted allocation never
 * uses the automatic cache:
 *   cold: no cache (MALLOCX_TCACHE_NONE), straight from the arena's bins;
 *   hot: an explicit cache of the thread's own (tcache.create), which only
 *        hot allocations use and nothing ever frees into, so it holds only
 *        blocks filled from the hot arena; destroyed (its blocks returned)
 *        when the thread exits. Only for blocks up to
 *        MIP_ALLOC_HOT_CACHE_MAX: the cache fills ahead, 10 regions and
 *        more a size class, which the thread keeps until it exits; larger
 *        blocks, and any where no cache can be made (more than about 4000
 *        threads at once), take no cache, as for cold.
 * docs/alloc.md has the measurement behind the hot choice.
 */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <jemalloc/jemalloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "mip/alloc.h"

size_t mip_alloc_page = 4096;
struct mip_alloc_counter mip_alloc_counters[MIP_ALLOC_KINDS];

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready;      /* set (release) when init has run */
static int cold_flags; /* 0 while hints are off */
static int hot_flags;  /* the hot arena, cache not yet chosen */

/* glibc's registration of thread-exit destructors (C++ thread_local's):
 * unlike a pthread key's, it keeps the image that registered loaded
 * until they have run, so a library that carries this one can be
 * unloaded while its threads live. */
int __cxa_thread_atexit_impl(void (*)(void *), void *, void *);
extern void *const __dso_handle MIP_ALLOC_HIDDEN;

/* This thread's explicit cache for hot blocks: 0 none yet, n > 0 cache
 * n - 1, -1 none (none could be made, or the thread is exiting). */
static __thread int hot_cache __attribute__((tls_model("initial-exec")));

void mip_alloc_report(const char *why) {
  char line[400];
  size_t n = 0;
  for (const char *s = "mip: "; *s && n < sizeof line - 1; s++)
    line[n++] = *s;
  for (const char *s = why; *s && n < sizeof line - 1; s++)
    line[n++] = *s;
  line[n++] = '\n';
  if (write(STDERR_FILENO, line, n) < 0) {
    /* nowhere else to say it */
  }
}

const void *mip_alloc_jemalloc(void) {
  return (const void *)(uintptr_t)mallocx;
}

int mip_alloc_same_object(const void *a, const void *b) {
  Dl_info x, y;
  return dladdr(a, &x) && dladdr(b, &y) && x.dli_fbase == y.dli_fbase;
}

/* The bytes this thread has allocated and freed through jemalloc (its
 * statistics); -1 when this jemalloc keeps none. */
static int counted(uint64_t *allocated, uint64_t *freed) {
  size_t a = sizeof *allocated, f = sizeof *freed;
  if (mallctl("thread.allocated", allocated, &a, NULL, 0) ||
      mallctl("thread.deallocated", freed, &f, NULL, 0))
    return -1;
  return 0;
}

/*
 * Whether malloc, realloc and free, as this process calls them, are the
 * jemalloc whose mallocx we call: asked of jemalloc itself, which counts
 * what it allocates and frees per thread. Asking the dynamic linker
 * instead (dlsym) can give another answer than the program's own calls
 * get: glibc's libc_malloc_debug.so, preloaded, defines malloc under a
 * non-default symbol version, which relocations bind to and dlsym skips.
 * Without the counters (a jemalloc built without statistics), the
 * addresses this object's calls go to are compared with mallocx's object.
 */
static int jemalloc_is_malloc(void) {
  /* Called through volatile pointers, so no call can be left out. */
  void *(*volatile get)(size_t) = malloc;
  void *(*volatile resize)(void *, size_t) = realloc;
  void (*volatile release)(void *) = free;
  uint64_t a0 = 0, f0 = 0, a1 = 0, f1 = 0, a2 = 0, f2 = 0, a3 = 0, f3 = 0;
  if (counted(&a0, &f0)) {
    const void *je = mip_alloc_jemalloc();
    return mip_alloc_same_object((const void *)(uintptr_t)get, je) &&
           mip_alloc_same_object((const void *)(uintptr_t)resize, je) &&
           mip_alloc_same_object((const void *)(uintptr_t)release, je);
  }
  void *p = get(64);
  counted(&a1, &f1);
  void *q = p ? resize(p, 8192) : NULL; /* another size class: it moves */
  counted(&a2, &f2);
  release(q ? q : p);
  counted(&a3, &f3);
  return p && q && a1 - a0 >= 64 && a2 - a1 >= 8192 && f2 - f1 >= 64 &&
         f3 - f2 >= 8192;
}

static int new_arena(unsigned *index) {
  size_t size = sizeof *index;
  return mallctl("arenas.create", index, &size, NULL, 0);
}

/* Thread exit (and exit() for the main thread): the cache's blocks go
 * back to the hot arena. */
static void drop_cache(void *value) {
  unsigned cache = (unsigned)((uintptr_t)value - 1);
  hot_cache = -1;
  mallctl("tcache.destroy", NULL, NULL, &cache, sizeof cache);
}

static void init(void) {
  int saved = errno;
  const char *env = getenv("MIP_ALLOC_HINTS");
  unsigned cold, hot;
  if (env && strcmp(env, "0") == 0) {
    /* off, as asked */
  } else if (!jemalloc_is_malloc()) {
    mip_alloc_report("allocation hints off: malloc is not jemalloc's");
  } else if (new_arena(&cold) || new_arena(&hot)) {
    mip_alloc_report("allocation hints off: jemalloc made no arena for them");
  } else {
    long page = sysconf(_SC_PAGESIZE);
    if (page > 0)
      mip_alloc_page = (size_t)page;
    hot_flags = MALLOCX_ARENA(hot);
    cold_flags = MALLOCX_ARENA(cold) | MALLOCX_TCACHE_NONE;
  }
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
  errno = saved;
}

static void start(void) {
  if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    pthread_once(&once, init);
}

int mip_alloc_enabled(void) {
  start();
  return cold_flags != 0;
}

static int make_cache(void) {
  int saved = errno;
  unsigned cache;
  size_t size = sizeof cache;
  int value = -1;
  if (mallctl("tcache.create", &cache, &size, NULL, 0) == 0) {
    if (__cxa_thread_atexit_impl(drop_cache, (void *)(uintptr_t)(cache + 1),
                                 (void *)&__dso_handle) == 0)
      value = (int)cache + 1;
    else
      mallctl("tcache.destroy", NULL, NULL, &cache, sizeof cache);
  }
  hot_cache = value;
  errno = saved;
  return value;
}

int mip_alloc_flags(unsigned hint, size_t size, size_t bytes) {
  if (mip_alloc_is_notcold(hint)) {
    mip_alloc_add(MIP_ALLOC_NOTCOLD, bytes);
    return 0;
  }
  start();
  if (!cold_flags) {
    mip_alloc_add(MIP_ALLOC_PLAIN, bytes);
    return 0;
  }
  if (hint < 128) {
    mip_alloc_add(MIP_ALLOC_COLD, bytes);
    return cold_flags;
  }
  mip_alloc_add(MIP_ALLOC_HOT, bytes);
  if (size > MIP_ALLOC_HOT_CACHE_MAX)
    return hot_flags | MALLOCX_TCACHE_NONE;
  int cache = hot_cache;
  if (cache == 0)
    cache = make_cache();
  return hot_flags |
         (cache > 0 ? MALLOCX_TCACHE(cache - 1) : MALLOCX_TCACHE_NONE);
}

int mip_alloc_move_flags(unsigned hint, size_t bytes) {
  if (mip_alloc_is_notcold(hint)) {
    mip_alloc_add(MIP_ALLOC_NOTCOLD, bytes);
    return 0;
  }
  start();
  if (!cold_flags) {
    mip_alloc_add(MIP_ALLOC_PLAIN, bytes);
    return 0;
  }
  mip_alloc_add(hint < 128 ? MIP_ALLOC_COLD : MIP_ALLOC_HOT, bytes);
  return hint < 128 ? cold_flags : hot_flags | MALLOCX_TCACHE_NONE;
}

/* ---- The allocation functions jemalloc lacks ---------------------------
 *
 * Linking this library makes jemalloc the process's malloc, and jemalloc
 * defines no pvalloc: a program's untouched pvalloc() would get a block
 * from glibc's heap, which jemalloc's free() cannot take (it crashes).
 * pvalloc is valloc with the size rounded up to whole pages (0: one page),
 * so it is defined here as that: the process's valloc, jemalloc's or any
 * other malloc's, serves it, and the block pairs with the process's free.
 * This file is linked whenever any hinted call is (every entry point asks
 * it whether hints are on), and the definition is exported, so calls from
 * shared libraries reach it too.
 */
MIP_ALLOC_API void *pvalloc(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE), rounded;
  if (__builtin_add_overflow(size, page - 1, &rounded)) {
    errno = ENOMEM;
    return NULL;
  }
  rounded &= ~(page - 1);
  return valloc(rounded ? rounded : page);
}

/* ---- The hint counters (include/mip/alloc.h) --------------------------- */

static struct mip_alloc_hint_count count_of(enum mip_alloc_kind kind) {
  const struct mip_alloc_counter *c = &mip_alloc_counters[kind];
  struct mip_alloc_hint_count n = {
      __atomic_load_n(&c->calls, __ATOMIC_RELAXED),
      __atomic_load_n(&c->bytes, __ATOMIC_RELAXED)};
  return n;
}

MIP_ALLOC_API void __mip_alloc_hint_stats(struct mip_alloc_hint_stats *out) {
  out->cold = count_of(MIP_ALLOC_COLD);
  out->hot = count_of(MIP_ALLOC_HOT);
  out->notcold = count_of(MIP_ALLOC_NOTCOLD);
  out->plain = count_of(MIP_ALLOC_PLAIN);
}

/* Whether the process's __mip_alloc_hint_stats is this copy's: with the
 * library in several images, the entry points of the first in lookup
 * order serve every call, and only that copy's counters move. One that is
 * not exported (a program's own, with no library calling it) is. */
static int counts_here(void) {
  const void *used = dlsym(RTLD_DEFAULT, "__mip_alloc_hint_stats");
  return !used || mip_alloc_same_object(used, (const void *)(uintptr_t)count_of);
}

/* MIP_ALLOC_STATS=1: the counts, one line on stderr at exit. */
__attribute__((destructor)) static void print_hint_stats(void) {
  const char *env = getenv("MIP_ALLOC_STATS");
  if (!env || strcmp(env, "1") != 0 || !counts_here())
    return;
  int saved = errno;
  struct mip_alloc_hint_stats s;
  __mip_alloc_hint_stats(&s);
  char line[360];
  snprintf(line, sizeof line,
           "allocation hints: cold %" PRIu64 " calls %" PRIu64
           " bytes, hot %" PRIu64 " calls %" PRIu64 " bytes, notcold %" PRIu64
           " calls %" PRIu64 " bytes, plain %" PRIu64 " calls %" PRIu64
           " bytes",
           s.cold.calls, s.cold.bytes, s.hot.calls, s.hot.bytes,
           s.notcold.calls, s.notcold.bytes, s.plain.calls, s.plain.bytes);
  mip_alloc_report(line);
  errno = saved;
}
