/*
 * Configure-time test programs. A build configured with the flags of an
 * instrumented build (CC=mipcc CFLAGS=-fmip-generate ./configure) builds
 * its probes the same way, and the ones it runs (autoconf's AC_RUN_IFELSE
 * conftest, CMake's try_run cmTC_* programs) would each leave a profile,
 * of a program nobody profiles, in the build tree, where a later
 * `mipdata merge *.mipraw` picks it up. So a process whose executable has
 * such a name writes no profile at exit, unless MIP_PROFILE_FILE names a
 * file: then someone asked for one. Decided once, at start-up (readlink,
 * getenv), for every image of the process.
 */
#include <stdlib.h>

#include "sys.h"

/* The executable's file name when it is a probe's, else "": for the
 * verbose line at exit only, so no more than the names build systems give
 * (conftest, cmTC_ and 5 hex digits) is kept of it. */
static char probe[16];

/* Names build systems give the test programs they run. */
static int probe_name(const char *name) {
  static const char cmake[] = "cmTC_";
  for (size_t i = 0; i < sizeof cmake - 1; i++)
    if (name[i] != cmake[i])
      return mip_rt_streq(name, "conftest");
  return 1;
}

void mip_rt_probe_init(void) {
  const char *file = getenv("MIP_PROFILE_FILE");
  if (file && *file)
    return;
  char exe[MIP_RT_PATH_MAX];
  ssize_t n = mip_sys_readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return;
  exe[n] = '\0';
  const char *name = exe;
  for (const char *p = exe; *p; p++)
    if (*p == '/')
      name = p + 1;
  if (probe_name(name))
    mip_rt_append(probe, 0, sizeof probe, name);
}

const char *mip_rt_probe(void) { return probe[0] ? probe : NULL; }
