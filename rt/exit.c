/*
 * When the profile is written: once the program is done, after its own
 * atexit handlers and C++ static destructors (those run before the
 * fini_array this destructor sits in) and, for a shared library, when it is
 * unloaded; not at all with MIP_OPTIONS=dump_at_exit=0. Nothing here may
 * change the program's behaviour: errors become one stderr line, errno is
 * restored, the exit status is untouched.
 */
#include <errno.h>
#include <stdlib.h>

#include "mip_rt.h"

/* Referenced by the compiler driver (-u) so the linker pulls this file,
 * and with it the constructor and destructor (and, through them, the rest
 * of the runtime, mip_dump included), out of libmip_rt.a. */
MIP_RT_HIDDEN const char __mip_rt_anchor = 1;

__attribute__((constructor(101))) static void mip_rt_init(void) {
  int saved = errno;
  mip_rt_stderr_init();
  mip_rt_self_init();
  /* Every image's runtime reads the same MIP_OPTIONS: only the first to
   * start reports what is wrong with it. */
  const char *options = getenv("MIP_OPTIONS");
  if (options && *options)
    mip_rt_options_parse(options, mip_rt_other_ready());
  mip_rt_fork_init();
  mip_rt_set_ready();
  errno = saved;
}

__attribute__((destructor(101))) static void mip_rt_fini(void) {
  if (mip_rt_options.dump_at_exit)
    mip_rt_dump_self();
}
