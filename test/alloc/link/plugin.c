/* A shared library with libmip_alloc.a in it, for loader.c. */
#include <stdlib.h>

#include "mip/alloc.h"

void *plugin_hot_block(void) { return __mip_malloc_hint(64, MIP_HINT_HOT); }
