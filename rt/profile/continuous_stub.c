/*
 * Continuous mode's entry points in the runtime. The mode itself (and the
 * page padding it needs, which every image linked with it pays for) is
 * mip_continuous.o, rt/continuous/, which mipcc links only with
 * -fmip-continuous. Without it the weak stand-ins below say, once per
 * image at start-up, how to get it, and the profile is written at exit.
 */
#include "mip_rt.h"

/* One line: image does not count into its file, and why. */
static void say_not_continuous(const char *pattern,
                               const struct mip_rt_image *image,
                               const char *because) {
  char path[MIP_RT_PATH_MAX];
  if (mip_rt_profile_path(pattern, image, mip_rt_forked(), path,
                          sizeof path) == 0)
    mip_rt_report("cannot count into profile '", path, "': ", because,
                  " (it is written at exit instead)");
}

/* At start-up: continuous mode when the pattern asks for it (%c). Whether
 * it also pools (%Nm) is continuous mode's own question (continuous.c):
 * without it the stand-in below says how to get it, pool or no pool. */
#ifndef MIP_RT_SHARED
void mip_rt_continuous_init(void) {
  const char *pattern = mip_rt_profile_pattern();
  if (mip_rt_pattern_continuous(pattern))
    mip_rt_continuous_start(pattern);
}

__attribute__((weak)) void mip_rt_continuous_start(const char *pattern) {
  say_not_continuous(pattern, mip_rt_self(),
                     "linked without -fmip-continuous");
}
#else
void mip_rt_continuous_refused(const struct mip_rt_image *image) {
  const char *pattern = mip_rt_profile_pattern();
  if (!mip_rt_pattern_continuous(pattern))
    return;
  if (mip_rt_pool_size(pattern))
    mip_rt_report("MIP_PROFILE_FILE '", pattern,
                  "' pools (%Nm) and asks for continuous mode (%c), which "
                  "would replace the pooled file: pooled only");
  else
    say_not_continuous(pattern, image,
                       "linked with -fmip-shared-runtime, which has no "
                       "continuous mode");
}
#endif

__attribute__((weak)) int mip_rt_continuous_dump(const char *path,
                                                 uint64_t *size,
                                                 const char **why) {
  (void)path;
  (void)size;
  (void)why;
  return 1;
}

__attribute__((weak)) int mip_rt_continuous_failed(const char *path,
                                                   const char *why) {
  (void)path;
  (void)why;
  return 0;
}

__attribute__((weak)) int mip_rt_continuous_forked(void) { return 0; }

__attribute__((weak)) void mip_rt_continuous_restarted(void) {}
