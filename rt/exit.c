/*
 * When the profile is written: once the program is done, after its own
 * atexit handlers and C++ static destructors (those run before the
 * fini_array this destructor sits in) and, for a shared library, when it is
 * unloaded. Nothing here may change the program's behaviour: errors become
 * one stderr line, errno is restored, the exit status is untouched.
 */
#include <errno.h>
#include <stdlib.h>

#include "mip_rt.h"

#define MIP_DEFAULT_PROFILE "default.mipraw"

/* Referenced by the compiler driver (-u) so the linker pulls this file,
 * and with it the constructor and destructor, out of libmip_rt.a. */
MIP_RT_HIDDEN const char __mip_rt_anchor = 1;

__attribute__((constructor(101))) static void mip_rt_init(void) {
  int saved = errno;
  mip_rt_self_init();
  errno = saved;
}

static const char *profile_pattern(void) {
  const char *pattern = getenv("MIP_PROFILE_FILE");
  return pattern && *pattern ? pattern : MIP_DEFAULT_PROFILE;
}

__attribute__((destructor(101))) static void mip_rt_fini(void) {
  int saved = errno;
  char path[MIP_RT_PATH_MAX];
  const char *why;
  if (mip_rt_expand_path(profile_pattern(), path, sizeof path) != 0)
    mip_rt_report("profile file name too long: ", profile_pattern(), NULL);
  else if (mip_rt_write_raw(path, mip_rt_self(), &why) != 0)
    mip_rt_report("cannot write profile '", path, "': ", why, NULL);
  errno = saved;
}
