#ifndef DIFF_CI_WRAP_H
#define DIFF_CI_WRAP_H

#include <stddef.h>

/* A block of n bytes, filled; never NULL (as xmalloc). */
void *make(size_t n);

#endif
