/*
 * MIP allocation hints: the allocator side (libmip_alloc.a).
 *
 * When a program is rebuilt with a profile (mipcc -fmip-use=FILE), the
 * compiler classifies every allocation call site as cold, notcold or hot
 * and rewrites the calls of cold and hot sites into the calls below: the
 * same function with the site's class as one more, last, argument. The
 * library gives cold blocks and hot blocks jemalloc arenas of their own,
 * apart from the default arena, so that hot data is packed densely and
 * cold data does not dilute its pages and cache lines.
 *
 * Every block is an ordinary jemalloc block: free(), realloc(),
 * malloc_usable_size(), operator delete (every form) and jemalloc's own
 * dallocx()/sdallocx() accept it, whichever arena it came from. This holds
 * because jemalloc is the process's malloc (link with -ljemalloc); when it
 * is not (a preloaded malloc, a sanitizer's), the library notices at its
 * first hinted call, says so once on stderr and makes every call a plain
 * one. MIP_ALLOC_HINTS=0 in the environment makes every call plain too.
 * __mip_alloc_hint_stats (below) says what the calls did with their hints.
 *
 * Link: mipcc adds the library itself; by hand,
 *     cc ... /usr/local/lib/mip/libmip_alloc.a -ljemalloc
 * (C++ programs link the C++ runtime anyway). See docs/alloc.md.
 */
#ifndef MIP_ALLOC_H
#define MIP_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/*
 * Hint values, the same as tcmalloc's and LLVM's __hot_cold_t. Any byte
 * is a hint: 0-127 cold, 128-191 notcold (the default arena: a plain
 * call), 192-255 hot.
 */
#define MIP_HINT_COLD 1
#define MIP_HINT_NOTCOLD 128
#define MIP_HINT_HOT 254

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Each behaves exactly as the function it is named after (return value,
 * errno, NULL on failure, the size 0 and overflow cases, alignment rules,
 * what is left untouched on failure); only the arena differs. A notcold
 * hint, and any hint while hints are off, makes it a call of that
 * function.
 */
void *__mip_malloc_hint(size_t size, uint8_t hint);
void *__mip_calloc_hint(size_t n, size_t size, uint8_t hint);
/* A block that is resized in place stays in the arena it is in. */
void *__mip_realloc_hint(void *p, size_t size, uint8_t hint);
void *__mip_reallocarray_hint(void *p, size_t n, size_t size, uint8_t hint);
void *__mip_aligned_alloc_hint(size_t align, size_t size, uint8_t hint);
int __mip_posix_memalign_hint(void **out, size_t align, size_t size,
                              uint8_t hint);
void *__mip_memalign_hint(size_t align, size_t size, uint8_t hint);
void *__mip_valloc_hint(size_t size, uint8_t hint);
void *__mip_pvalloc_hint(size_t size, uint8_t hint);
char *__mip_strdup_hint(const char *s, uint8_t hint);
char *__mip_strndup_hint(const char *s, size_t n, uint8_t hint);

/*
 * What the entry points did with their hints, since the process started:
 * the calls of each kind and the bytes they asked for (for calloc n times
 * size, 0 when that overflows; for realloc the new size; for strdup the
 * string with its terminator; for pvalloc the size before rounding),
 * whether or not the allocation then succeeded:
 *   cold, hot: calls served from the cold or the hot arena;
 *   notcold:   calls with a notcold hint (plain calls, as asked);
 *   plain:     cold and hot hints served by the standard function
 *              instead: hints off (MIP_ALLOC_HINTS=0, malloc not
 *              jemalloc's, no arenas, operator new replaced), or a
 *              request only it answers (an alignment that is not a power
 *              of two, realloc to size 0).
 * A realloc of NULL counts as the malloc it is. Kept with relaxed atomic
 * additions, so a reading taken while other threads allocate may have one
 * kind's calls and bytes from slightly different moments.
 * MIP_ALLOC_STATS=1 prints them on stderr at exit (docs/alloc.md).
 */
struct mip_alloc_hint_count {
  uint64_t calls;
  uint64_t bytes;
};

struct mip_alloc_hint_stats {
  struct mip_alloc_hint_count cold, hot, notcold, plain;
};

/* Copies the counts so far into *out. */
void __mip_alloc_hint_stats(struct mip_alloc_hint_stats *out);

#ifdef __cplusplus
}
#endif

/*
 * C++: tcmalloc's operator new with a __hot_cold_t, the forms LLVM's
 * hot/cold new rewriting calls (x86-64 Itanium names
 * _Znwm12__hot_cold_t, _ZnamRKSt9nothrow_t12__hot_cold_t,
 * _ZnwmSt11align_val_t12__hot_cold_t, ...). They behave as the standard
 * forms: the throwing ones call the new_handler and throw std::bad_alloc
 * when memory runs out, the nothrow ones return NULL; size 0 gives a
 * unique pointer. A program that replaces the global operator new or
 * delete gets the standard forms (see docs/alloc.md). Declared only when
 * asked for, since the type's name is reserved to the implementation and
 * tcmalloc's headers declare the same.
 */
#if defined(__cplusplus) && defined(MIP_ALLOC_DECLARE_HOT_COLD_NEW)
#include <new>

enum class __hot_cold_t : uint8_t;

void *operator new(size_t size, __hot_cold_t hint);
void *operator new[](size_t size, __hot_cold_t hint);
void *operator new(size_t size, const std::nothrow_t &,
                   __hot_cold_t hint) noexcept;
void *operator new[](size_t size, const std::nothrow_t &,
                     __hot_cold_t hint) noexcept;
void *operator new(size_t size, std::align_val_t align, __hot_cold_t hint);
void *operator new[](size_t size, std::align_val_t align, __hot_cold_t hint);
void *operator new(size_t size, std::align_val_t align, const std::nothrow_t &,
                   __hot_cold_t hint) noexcept;
void *operator new[](size_t size, std::align_val_t align,
                     const std::nothrow_t &, __hot_cold_t hint) noexcept;
#endif

#endif
