/* File names as MIP shows them (path.h). */
#include "path.h"

/* Whether the slash at s starts a "." step: "/." then a slash or the end. */
static int dot_step(const char *s) {
  return s[1] == '.' && (s[2] == '/' || s[2] == '\0');
}

void mip_path_tidy(char *path) {
  char *out = path;
  for (const char *in = path; *in;) {
    if (*in != '/') {
      *out++ = *in++;
      continue;
    }
    while (in[1] == '/')
      in++;
    if (dot_step(in))
      in += 2; /* the step and its slash: the next slash, if any, stays */
    else
      *out++ = *in++;
  }
  /* "/." and "//." are the root: its slash was dropped with the step. */
  if (out == path && *path == '/')
    out++;
  *out = '\0';
}
