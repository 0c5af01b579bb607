/*
 * Pool mode's MIP_OPTIONS settings, which the core's parser (options.c)
 * hands over; an image without pool mode ignores them.
 *   pool_wait=N  seconds to wait for a pooled file's lock (0..3600,
 *                default 60; merge_lock.c)
 */
#include "merge.h"

int mip_rt_pool_wait = 60;

/* v as a number of 0..max, or -1. */
static int number(const char *v, int max) {
  int n = 0;
  if (!v || !*v)
    return -1;
  for (; *v; v++) {
    if (*v < '0' || *v > '9' || n > max)
      return -1;
    n = n * 10 + (*v - '0');
  }
  return n <= max ? n : -1;
}

void mip_rt_pool_option(const char *key, const char *value, int quiet) {
  if (!mip_rt_streq(key, "pool_wait")) {
    if (!quiet)
      mip_rt_report("MIP_OPTIONS: unknown option '", key, "' (ignored)");
    return;
  }
  int n = number(value, 3600);
  if (n >= 0)
    mip_rt_pool_wait = n;
  else if (!quiet)
    mip_rt_report("MIP_OPTIONS: pool_wait wants 0 to 3600, not '",
                  value ? value : "", "' (ignored)");
}
