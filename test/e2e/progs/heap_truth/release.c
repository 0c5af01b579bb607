/* Not instrumented: a library that frees what it is given. */
#include <stdlib.h>

void lib_release(void *p) { free(p); }
