/* C++ demangling through libiberty, the demangler binutils uses. */
#include <libiberty/demangle.h>
#include <stdlib.h>

#include "demangle.h"
#include "mipfmt.h"

char *demangle(const char *name) {
  char *d = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES);
  return d ? d : mip_xstrdup(name);
}
