// The hinted operator new forms called the way C++ code calls them, through
// the declarations of <mip/alloc.h>, for the C tests (test_cxx.c).
#define MIP_ALLOC_DECLARE_HOT_COLD_NEW
#include "mip/alloc.h"

#include <new>

extern "C" {
#include "suites.h"
}

extern "C" int cxx_form_aligned(int form) { return form >= 4; }
extern "C" int cxx_form_nothrow(int form) { return form & 2; }

extern "C" void *cxx_new(int form, size_t size, size_t align, uint8_t hint) {
  __hot_cold_t h = static_cast<__hot_cold_t>(hint);
  std::align_val_t a = static_cast<std::align_val_t>(align);
  switch (form) {
  case 0:
    return operator new(size, h);
  case 1:
    return operator new[](size, h);
  case 2:
    return operator new(size, std::nothrow, h);
  case 3:
    return operator new[](size, std::nothrow, h);
  case 4:
    return operator new(size, a, h);
  case 5:
    return operator new[](size, a, h);
  case 6:
    return operator new(size, a, std::nothrow, h);
  default:
    return operator new[](size, a, std::nothrow, h);
  }
}

extern "C" void *cxx_new_standard(int form, size_t size, size_t align) {
  std::align_val_t a = static_cast<std::align_val_t>(align);
  switch (form) {
  case 0:
    return operator new(size);
  case 1:
    return operator new[](size);
  case 2:
    return operator new(size, std::nothrow);
  case 3:
    return operator new[](size, std::nothrow);
  case 4:
    return operator new(size, a);
  case 5:
    return operator new[](size, a);
  case 6:
    return operator new(size, a, std::nothrow);
  default:
    return operator new[](size, a, std::nothrow);
  }
}

extern "C" void cxx_delete(int form, void *p, size_t size, size_t align) {
  // if/else, not ?: (clang 19 evaluates both arms of a ?: whose arms are
  // calls of operator delete).
  std::align_val_t a = static_cast<std::align_val_t>(align);
  bool array = form & 1;
  if (cxx_form_aligned(form)) {
    if (array && size)
      operator delete[](p, size, a);
    else if (array)
      operator delete[](p, a);
    else if (size)
      operator delete(p, size, a);
    else
      operator delete(p, a);
  } else if (cxx_form_nothrow(form)) {
    if (array)
      operator delete[](p, std::nothrow);
    else
      operator delete(p, std::nothrow);
  } else if (array) {
    if (size)
      operator delete[](p, size);
    else
      operator delete[](p);
  } else {
    if (size)
      operator delete(p, size);
    else
      operator delete(p);
  }
}

static int handler_calls;

static void handler() {
  if (++handler_calls == 3)
    std::set_new_handler(nullptr);
}

extern "C" int cxx_fails(int form, int hinted, uint8_t hint, int *calls) {
  // More than any allocator can give (beyond PTRDIFF_MAX).
  size_t size = static_cast<size_t>(-1) / 2 + 4096;
  handler_calls = 0;
  std::set_new_handler(handler);
  int failed = 0;
  try {
    void *p = hinted ? cxx_new(form, size, 64, hint)
                     : cxx_new_standard(form, size, 64);
    failed = p == nullptr && cxx_form_nothrow(form);
  } catch (const std::bad_alloc &) {
    failed = !cxx_form_nothrow(form);
  }
  std::set_new_handler(nullptr);
  *calls = handler_calls;
  return failed;
}
