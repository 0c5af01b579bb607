/*
 * MIP_PROFILE_FILE patterns:
 *   %p  the process id
 *   %h  the host name
 *   %%  a literal %
 * Any other %x is kept as written.
 */
#include <sys/utsname.h>
#include <unistd.h>

#include "mip_rt.h"

static size_t append_host(char *out, size_t at, size_t size) {
  struct utsname u;
  if (uname(&u) != 0)
    return mip_rt_append(out, at, size, "unknown-host");
  return mip_rt_append(out, at, size, u.nodename);
}

int mip_rt_expand_path(const char *pattern, char *out, size_t size) {
  size_t at = 0;
  out[0] = '\0';
  for (const char *p = pattern; *p; p++) {
    char piece[2] = {*p, '\0'};
    if (*p != '%' || !p[1]) {
      at = mip_rt_append(out, at, size, piece);
      continue;
    }
    switch (*++p) {
    case 'p':
      at = mip_rt_append_u64(out, at, size, (uint64_t)getpid());
      break;
    case 'h':
      at = append_host(out, at, size);
      break;
    case '%':
      at = mip_rt_append(out, at, size, "%");
      break;
    default:
      at = mip_rt_append(out, at, size, "%");
      piece[0] = *p;
      at = mip_rt_append(out, at, size, piece);
      break;
    }
  }
  return at < size ? 0 : -1;
}
