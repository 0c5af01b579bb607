/* The program test/e2e/diff.sh profiles in two versions (v1/, v2/). Its
 * counts and sizes come from the test's -D flags, which also computes
 * what the diff must say. */
#ifndef DIFFPROG_H
#define DIFFPROG_H

#include <stddef.h>

void *grow(size_t n);
void fill_c(void);
void *leak(void); /* version 2 only */

#endif
