/*
 * Configure-time test programs. A build configured with the flags of an
 * instrumented build (CC=mipcc CFLAGS=-fmip-generate ./configure) builds
 * its probes the same way, and the ones it runs (autoconf's AC_RUN_IFELSE
 * conftest, CMake's try_run cmTC_* programs) would each leave a profile,
 * of a program nobody profiles, in the build tree, where a later
 * `mipdata merge *.mipraw` picks it up. So a process whose executable has
 * such a name writes no profile at exit, from any of its images, unless
 * MIP_PROFILE_FILE names a file: then someone asked for one. Decided
 * once, at start-up (readlink, getenv).
 *
 * Only those programs carry this file: mipcc links it into an executable
 * whose output has such a name (MIP_RT_PROBE_SYMBOL, mip/link.h), and
 * every other image does without it (it was a third of a kilobyte of
 * every instrumented image). The images of a probe's process that do not
 * carry it, its instrumented shared libraries, learn it from their state
 * word, which the probe's executable marks (MIP_RT_STATE_PROBE) in every
 * image that has the runtime: at start-up, and again at exit, before any
 * library's destructor runs, for those loaded since. The shared runtime,
 * one for every image, links it always and asks it directly.
 */
#include <stdlib.h>

#include "mip/link.h"
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

#ifndef MIP_RT_SHARED
/* What mipcc names (-u) to link this file: the references to it are the
 * probe's link command's own. */
MIP_RT_HIDDEN const char mip_rt_probe_anchor __asm__(MIP_RT_PROBE_SYMBOL) = 1;

/* Marks the runtime of one loaded object, if it has one. */
static int mark(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  struct mip_rt_descriptor d;
  if (mip_rt_find_descriptor(info, &d))
    __atomic_or_fetch((uint32_t *)d.state, MIP_RT_STATE_PROBE,
                      __ATOMIC_RELAXED);
  return 0;
}

static void mark_every_image(void) { dl_iterate_phdr(mark, NULL); }
#else
static void mark_every_image(void) {}
#endif

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
  if (!probe_name(name))
    return;
  mip_rt_append(probe, 0, sizeof probe, name);
  mark_every_image();
}

int mip_rt_probe_exit(const struct mip_rt_image *image) {
  if (!probe[0])
    return 0;
  mark_every_image();
  if (mip_rt_options.verbose && image->is_main)
    mip_rt_report("no profile for '", probe,
                  "', a configure-time test program (set MIP_PROFILE_FILE "
                  "to write one)");
  return 1;
}
