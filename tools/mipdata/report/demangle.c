/* C++ demangling through libiberty, the demangler binutils uses. */
#include <libiberty/demangle.h>
#include <stdlib.h>

#include "demangle.h"
#include "mipfmt.h"

char *demangle(const char *name) {
  /* Only Itanium-mangled names: a C function called "f" is no type. */
  if (name[0] != '_' || name[1] != 'Z')
    return mip_xstrdup(name);
  char *d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
  return d ? d : mip_xstrdup(name);
}
