/* What the two files of heap_opt share. */
#ifndef HEAP_OPT_H
#define HEAP_OPT_H

#define KEPT 7

#ifdef __cplusplus
extern "C" {
#endif
void c_sites(unsigned rounds);
void cxx_sites(unsigned rounds);
/* Writes to a block, so that it is not optimized away. */
void touch(void *p);
#ifdef __cplusplus
}
#endif

#endif
