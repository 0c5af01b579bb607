/*
 * When the profile is written: once the program is done, after its own
 * atexit handlers and C++ static destructors (those run before the
 * fini_array this destructor sits in) and, for a shared library, when it is
 * unloaded; not at all with MIP_OPTIONS=dump_at_exit=0, nor in a
 * configure-time test program (probe.c). Nothing here may change the
 * program's behaviour: errors become one stderr line, errno is untouched
 * (the system calls here never set it: sys.h; what pool and continuous
 * mode call of libc they save it around), the exit status too.
 */
#include <stdlib.h>

#include "mip/link.h"
#include "mip_rt.h"

/* What every image's runtime reads of the process once, at its start-up
 * (the shared runtime: once for every image). */
void mip_rt_process_init(void) {
  mip_rt_stderr_init();
  mip_rt_profile_pattern_init();
  /* Every image's runtime reads the same MIP_OPTIONS: only the first to
   * start reports what is wrong with it. */
  const char *options = getenv("MIP_OPTIONS");
  if (options && *options)
    mip_rt_options_parse(options, mip_rt_other_ready());
  mip_rt_probe_init();
  mip_rt_fork_init();
}

void mip_rt_write_at_exit(const struct mip_rt_image *image) {
  if (mip_rt_options.dump_at_exit && !mip_rt_probe_exit(image))
    mip_rt_dump_image(image);
}

#ifndef MIP_RT_SHARED
/* Stand-ins for probe.c, which only a configure-time test program's
 * executable links: any other image learns from its state word whether
 * such a program's marked it. */
__attribute__((weak)) void mip_rt_probe_init(void) {}

__attribute__((weak)) int
mip_rt_probe_exit(const struct mip_rt_image *image) {
  (void)image;
  return __atomic_load_n(&mip_rt_state, __ATOMIC_RELAXED) & MIP_RT_STATE_PROBE;
}
#endif

/* The shared runtime's images have their own object (rt/shared/image.c). */
#ifndef MIP_RT_SHARED
/* Every instrumented object refers to this symbol (include/mip/link.h),
 * and mipcc names it with -u for objects of older plugins that do not: it
 * makes the linker pull this file, and with it the constructor and
 * destructor (and, through them, the rest of the runtime, mip_dump
 * included), out of libmip_rt.a. Its name is what a link without the
 * runtime reports as undefined. */
MIP_RT_HIDDEN const char mip_rt_link_anchor __asm__(MIP_RT_LINK_SYMBOL) = 1;

__attribute__((constructor(101))) static void mip_rt_init(void) {
  mip_rt_self_init();
  mip_rt_process_init();
  mip_rt_continuous_init();
  mip_rt_set_ready();
}

__attribute__((destructor(101))) static void mip_rt_fini(void) {
  mip_rt_write_at_exit(mip_rt_self());
  /* A library may be unloaded (dlclose) and loaded again, many times. */
  if (!mip_rt_self()->is_main)
    mip_rt_profile_pattern_release();
}
#endif
