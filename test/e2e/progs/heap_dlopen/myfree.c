/* The program's own free (built without MIP): counts, then glibc's. */
#include <stddef.h>

extern void __libc_free(void *);
unsigned long my_frees;

void free(void *p) {
  if (p)
    my_frees++;
  __libc_free(p);
}
