// A C++ program using the hinted operator new, linked the documented way.
// Prints which object its operator new is in ("operators: jemalloc" or
// "operators: C++ runtime"), then where hinted blocks go. Built with
// -DREPLACE it replaces the global operator new and delete (with malloc
// and free, counting its calls) and says whether hinted news went through
// its operator new.
#define MIP_ALLOC_DECLARE_HOT_COLD_NEW
#include "mip/alloc.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <jemalloc/jemalloc.h>
#include <new>

#ifdef REPLACE
static int replaced_news;
void *operator new(size_t size) {
  replaced_news++;
  if (void *p = malloc(size ? size : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept { free(p); }
void operator delete(void *p, size_t) noexcept { free(p); }
#endif

static unsigned arena_of(void *p) {
  unsigned arena;
  size_t size = sizeof arena;
  if (mallctl("arenas.lookup", &arena, &size, &p, sizeof p))
    abort();
  return arena;
}

static unsigned thread_arena() {
  unsigned arena;
  size_t size = sizeof arena;
  if (mallctl("thread.arena", &arena, &size, nullptr, 0))
    abort();
  return arena;
}

int main() {
  void *(*standard)(size_t) = &operator new;
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(standard), &info) && info.dli_fname)
    std::printf("operators: %s\n",
                std::strstr(info.dli_fname, "jemalloc") ? "jemalloc"
                : std::strstr(info.dli_fname, "libstdc++") ? "C++ runtime"
                                                           : "program");
  static const struct {
    const char *name;
    uint8_t hint;
  } kinds[] = {{"cold", MIP_HINT_COLD},
               {"hot", MIP_HINT_HOT},
               {"notcold", MIP_HINT_NOTCOLD}};
  for (const auto &kind : kinds) {
    mallctl("thread.tcache.flush", nullptr, nullptr, nullptr, 0);
    __hot_cold_t hint = static_cast<__hot_cold_t>(kind.hint);
    void *p = operator new(100, hint);
    void *a = operator new[](100, std::align_val_t(256), hint);
    std::printf("%s: %s, aligned %s\n", kind.name,
                arena_of(p) == thread_arena() ? "plain" : "own arena",
                arena_of(a) == thread_arena() ? "plain" : "own arena");
    operator delete(p);
    operator delete[](a, std::align_val_t(256));
  }
  char *c = static_cast<char *>(__mip_malloc_hint(100, MIP_HINT_COLD));
  std::printf("C cold: %s\n",
              arena_of(c) == thread_arena() ? "plain" : "own arena");
  free(c);
#ifdef REPLACE
  std::printf("replaced operator new: %d calls\n", replaced_news);
#endif
  return 0;
}
