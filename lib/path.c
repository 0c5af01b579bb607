/* File names as MIP shows them (path.h). */
#include <string.h>

#include "path.h"

void mip_path_tidy(char *path) {
  char *dot;
  while ((dot = strstr(path, "/./")))
    memmove(dot, dot + 2, strlen(dot + 2) + 1);
}
