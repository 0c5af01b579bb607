/* String tables with one offset per distinct string (intern.h). */
#include <stdlib.h>
#include <string.h>

#include "intern.h"
#include "path.h"

static uint64_t hash_string(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
  h *= 0x9e3779b97f4a7c15ULL;
  return h ^ (h >> 29);
}

static void place(struct mip_interner *t, uint32_t offset) {
  const char *s = (const char *)t->strings->data + offset;
  size_t i = hash_string(s) & (t->cap - 1);
  while (t->slots[i])
    i = (i + 1) & (t->cap - 1);
  t->slots[i] = offset + 1;
  t->count++;
}

static void grow(struct mip_interner *t) {
  uint32_t *old = t->slots;
  size_t old_cap = t->cap;
  t->cap = t->cap ? t->cap * 2 : 256;
  t->slots = mip_xcalloc(t->cap, sizeof *t->slots);
  t->count = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i])
      place(t, old[i] - 1);
  free(old);
}

uint32_t mip_intern(struct mip_interner *t, const char *s) {
  if (!*s)
    return 0;
  if ((t->count + 1) * 2 > t->cap)
    grow(t);
  size_t i = hash_string(s) & (t->cap - 1);
  for (; t->slots[i]; i = (i + 1) & (t->cap - 1))
    if (strcmp((const char *)t->strings->data + t->slots[i] - 1, s) == 0)
      return t->slots[i] - 1;
  uint32_t offset = (uint32_t)t->strings->size;
  mip_buf_append(t->strings, s, strlen(s) + 1);
  t->slots[i] = offset + 1;
  t->count++;
  return offset;
}

uint32_t mip_intern_path(struct mip_interner *t, const char *path) {
  /* Every name that mip_path_tidy changes has one of these (and a few it
   * keeps: "/.name", ".name"): the others are interned as they are. */
  if (path[0] != '.' && !strstr(path, "/.") && !strstr(path, "//"))
    return mip_intern(t, path);
  char *copy = mip_xstrdup(path);
  mip_path_tidy(copy);
  uint32_t offset = mip_intern(t, copy);
  free(copy);
  return offset;
}

void mip_interner_init(struct mip_interner *t, struct mip_buf *strings,
                       size_t from) {
  memset(t, 0, sizeof *t);
  t->strings = strings;
  for (size_t at = from; at < strings->size;) {
    const char *s = (const char *)strings->data + at;
    size_t n = strlen(s);
    if (n) {
      if ((t->count + 1) * 2 > t->cap)
        grow(t);
      place(t, (uint32_t)at);
    }
    at += n + 1;
  }
}

void mip_interner_free(struct mip_interner *t) {
  free(t->slots);
  t->slots = NULL;
  t->cap = t->count = 0;
}
