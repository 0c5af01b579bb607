/*
 * The C++ entry points: tcmalloc's operator new with a __hot_cold_t (an
 * enum class of uint8_t, last), under their x86-64 Itanium names. In a
 * file of their own, since they call the standard operators: a C program
 * that uses only the C entry points never pulls this file, nor the C++
 * runtime, from the archive.
 *
 * A hinted block comes from mallocx; when that fails, or the hint is
 * notcold, or hints are off, the standard operator of the same form is
 * called, and it does what the standard says: retries through the
 * new_handler, then throws std::bad_alloc (or returns NULL, the nothrow
 * forms). So the hinted forms fail exactly as the standard ones do.
 * Compiled with -fexceptions: an exception thrown by the standard
 * operator may pass through these frames.
 *
 * A block from here will be given to the program's operator delete, and
 * jemalloc's blocks are only safe where delete calls free (or is
 * jemalloc's own); and a program that defines its own operator new wants
 * every new to be its own. So hints hold for operator new only if every
 * global operator new and delete, where this object's calls of them go
 * (where the program's go too), is the C++ runtime's (the object that
 * defines std::get_new_handler) or jemalloc's; a program that replaces
 * any of them gets the standard forms, after one line on stderr.
 */
#include <jemalloc/jemalloc.h>
#include <pthread.h>

#include "alloc.h"

typedef struct nothrow nothrow_t; /* std::nothrow_t, only ever by address */

void *_Znwm(size_t);
void *_Znam(size_t);
void *_ZnwmRKSt9nothrow_t(size_t, const nothrow_t *);
void *_ZnamRKSt9nothrow_t(size_t, const nothrow_t *);
void *_ZnwmSt11align_val_t(size_t, size_t);
void *_ZnamSt11align_val_t(size_t, size_t);
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t, size_t, const nothrow_t *);
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t, size_t, const nothrow_t *);

/* The operator delete forms, and std::get_new_handler, for the check. */
void _ZdlPv(void *);
void _ZdaPv(void *);
void _ZdlPvm(void *, size_t);
void _ZdaPvm(void *, size_t);
void _ZdlPvRKSt9nothrow_t(void *, const nothrow_t *);
void _ZdaPvRKSt9nothrow_t(void *, const nothrow_t *);
void _ZdlPvSt11align_val_t(void *, size_t);
void _ZdaPvSt11align_val_t(void *, size_t);
void _ZdlPvmSt11align_val_t(void *, size_t, size_t);
void _ZdaPvmSt11align_val_t(void *, size_t, size_t);
void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *, size_t, const nothrow_t *);
void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *, size_t, const nothrow_t *);
void (*_ZSt15get_new_handlerv(void))(void);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready, on;

#define ADDRESS(f) ((const void *)(uintptr_t)(f))

/* Whether every global operator new and delete, where this process's calls
 * of them go, is the C++ runtime's or jemalloc's. */
static int standard_operators(void) {
  const void *operators[] = {
      ADDRESS(_Znwm),
      ADDRESS(_Znam),
      ADDRESS(_ZnwmRKSt9nothrow_t),
      ADDRESS(_ZnamRKSt9nothrow_t),
      ADDRESS(_ZnwmSt11align_val_t),
      ADDRESS(_ZnamSt11align_val_t),
      ADDRESS(_ZnwmSt11align_val_tRKSt9nothrow_t),
      ADDRESS(_ZnamSt11align_val_tRKSt9nothrow_t),
      ADDRESS(_ZdlPv),
      ADDRESS(_ZdaPv),
      ADDRESS(_ZdlPvm),
      ADDRESS(_ZdaPvm),
      ADDRESS(_ZdlPvRKSt9nothrow_t),
      ADDRESS(_ZdaPvRKSt9nothrow_t),
      ADDRESS(_ZdlPvSt11align_val_t),
      ADDRESS(_ZdaPvSt11align_val_t),
      ADDRESS(_ZdlPvmSt11align_val_t),
      ADDRESS(_ZdaPvmSt11align_val_t),
      ADDRESS(_ZdlPvSt11align_val_tRKSt9nothrow_t),
      ADDRESS(_ZdaPvSt11align_val_tRKSt9nothrow_t),
  };
  const void *runtime = ADDRESS(_ZSt15get_new_handlerv);
  for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++)
    if (!mip_alloc_same_object(operators[i], mip_alloc_jemalloc()) &&
        !mip_alloc_same_object(operators[i], runtime))
      return 0;
  return 1;
}

static void init(void) {
  if (mip_alloc_enabled()) {
    on = standard_operators();
    if (!on)
      mip_alloc_report("allocation hints off for operator new: the program "
                       "replaces operator new or delete");
  }
  __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
}

/* mip_alloc_flags counts the call, unless the program replaced the
 * operators. */
static int flags(uint8_t hint, size_t size, size_t bytes) {
  if (mip_alloc_is_notcold(hint))
    return mip_alloc_flags(hint, size, bytes);
  if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
    pthread_once(&once, init);
  if (on)
    return mip_alloc_flags(hint, size, bytes);
  mip_alloc_count_unhinted(hint, bytes);
  return 0;
}

/* Each counts the call (alloc.h), whoever serves it: the standard
 * operator they leave it to counts nothing. */
static void *hinted(size_t size, uint8_t hint) {
  int f = flags(hint, size, size);
  return f ? mallocx(size ? size : 1, f) : NULL;
}

/* NULL when the standard operator is to decide, as for an alignment that
 * is not a power of two. */
static void *hinted_aligned(size_t size, size_t align, uint8_t hint) {
  int valid = align && !(align & (align - 1));
  if (!valid) {
    mip_alloc_count_unhinted(hint, size);
    return NULL;
  }
  int f = flags(hint, size > align ? size : align, size);
  return f ? mallocx(size ? size : 1, f | MALLOCX_ALIGN(align)) : NULL;
}

MIP_ALLOC_API void *_Znwm12__hot_cold_t(size_t size, uint8_t hint) {
  void *p = hinted(size, hint);
  return p ? p : _Znwm(size);
}

MIP_ALLOC_API void *_Znam12__hot_cold_t(size_t size, uint8_t hint) {
  void *p = hinted(size, hint);
  return p ? p : _Znam(size);
}

MIP_ALLOC_API void *_ZnwmRKSt9nothrow_t12__hot_cold_t(size_t size,
                                                      const nothrow_t *nt,
                                                      uint8_t hint) {
  void *p = hinted(size, hint);
  return p ? p : _ZnwmRKSt9nothrow_t(size, nt);
}

MIP_ALLOC_API void *_ZnamRKSt9nothrow_t12__hot_cold_t(size_t size,
                                                      const nothrow_t *nt,
                                                      uint8_t hint) {
  void *p = hinted(size, hint);
  return p ? p : _ZnamRKSt9nothrow_t(size, nt);
}

MIP_ALLOC_API void *_ZnwmSt11align_val_t12__hot_cold_t(size_t size,
                                                       size_t align,
                                                       uint8_t hint) {
  void *p = hinted_aligned(size, align, hint);
  return p ? p : _ZnwmSt11align_val_t(size, align);
}

MIP_ALLOC_API void *_ZnamSt11align_val_t12__hot_cold_t(size_t size,
                                                       size_t align,
                                                       uint8_t hint) {
  void *p = hinted_aligned(size, align, hint);
  return p ? p : _ZnamSt11align_val_t(size, align);
}

MIP_ALLOC_API void *
_ZnwmSt11align_val_tRKSt9nothrow_t12__hot_cold_t(size_t size, size_t align,
                                                 const nothrow_t *nt,
                                                 uint8_t hint) {
  void *p = hinted_aligned(size, align, hint);
  return p ? p : _ZnwmSt11align_val_tRKSt9nothrow_t(size, align, nt);
}

MIP_ALLOC_API void *
_ZnamSt11align_val_tRKSt9nothrow_t12__hot_cold_t(size_t size, size_t align,
                                                 const nothrow_t *nt,
                                                 uint8_t hint) {
  void *p = hinted_aligned(size, align, hint);
  return p ? p : _ZnamSt11align_val_tRKSt9nothrow_t(size, align, nt);
}
