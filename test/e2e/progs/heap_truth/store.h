#ifndef STORE_H
#define STORE_H
#include <stddef.h>
struct store {
  long *items;
  size_t count, cap;
};
void store_init(struct store *s);
void store_add(struct store *s, long v);
void store_done(struct store *s);
char *text_copy(const char *s);
char *text_prefix(const char *s, size_t n);
int *table_zeroed(size_t n);
void *buffer_aligned(size_t n);
void *buffer_posix(size_t n);
/* suite.c */
long suite_round(int r);
#endif
