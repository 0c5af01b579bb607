/* File names as MIP shows them (path.h). */
#include "path.h"

#include <string.h>

/* Whether the component of n bytes at s is "." or "..". */
static int is_dot(const char *s, size_t n) { return n == 1 && s[0] == '.'; }
static int is_dot_dot(const char *s, size_t n) {
  return n == 2 && s[0] == '.' && s[1] == '.';
}

/* The output so far: path[0..*w), its components after `base` (1 for an
 * absolute name's root slash, else 0). Drops the last component unless
 * there is none or it is "..", which a further ".." cannot undo. */
static int pop(char *path, size_t base, size_t *w) {
  if (*w == base)
    return 0;
  size_t start = *w;
  while (start > base && path[start - 1] != '/')
    start--;
  if (is_dot_dot(path + start, *w - start))
    return 0;
  *w = start > base ? start - 1 : base;
  return 1;
}

void mip_path_tidy(char *path) {
  const size_t len = strlen(path);
  const size_t base = path[0] == '/';
  const int trailing = len > 1 && path[len - 1] == '/';
  size_t w = base;
  for (size_t r = base; r < len;) {
    size_t n = strcspn(path + r, "/");
    const char *comp = path + r;
    if (n == 0 || is_dot(comp, n)) {
      /* an empty or "." step: nothing */
    } else if (is_dot_dot(comp, n) && (pop(path, base, &w) || base)) {
      /* the step undid its directory; at the root, ".." is the root */
    } else {
      if (w > base)
        path[w++] = '/';
      memmove(path + w, comp, n);
      w += n;
    }
    r += n + (path[r + n] == '/');
  }
  if (w == base && !base && len)
    path[w++] = '.'; /* a relative name that is its directory */
  else if (trailing && w > base)
    path[w++] = '/';
  path[w] = '\0';
}
