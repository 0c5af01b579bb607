/*
 * Writing this image's profile (at exit, or when mip_dump() asks:
 * dump_all.c). Everything here may run in a signal handler: no stdio, no
 * malloc.
 */
#include <stdlib.h>

#include "sys.h"

/* MIP_PROFILE_FILE as the environment has it when the profile is
 * written (a program may set it to name a dump), else as it was when the
 * image started, copied then: a program may give the processes it forks
 * an environment of their own (nginx's workers keep TZ alone) or write
 * over its own strings (setproctitle), and their profiles go where the
 * process was started to write them. A pattern too long for a name
 * (MIP_RT_PATH_MAX) is not kept.
 * The copy is in memory mapped for it, sized to the value, only when the
 * variable is set: no image reserves room for it in its .bss (it was a
 * page of every instrumented image's memory, set or not). */
static const char *pattern_at_start;
static size_t pattern_copy_size;

void mip_rt_profile_pattern_init(void) {
  const char *given = getenv("MIP_PROFILE_FILE");
  size_t size = given && *given ? mip_rt_strlen(given) + 1 : 0;
  if (!size || size > MIP_RT_PATH_MAX)
    return;
  char *copy = mip_sys_map(size);
  if (!copy)
    return;
  mip_rt_append(copy, 0, size, given);
  pattern_copy_size = size;
  pattern_at_start = copy;
}

/* The copy given back by a shared library's destructor, once its profile
 * is written: a library that a program loads and unloads over and over
 * must not leave a page behind each time. The pointer goes first, so
 * that a later dump of the image takes the environment's pattern. */
void mip_rt_profile_pattern_release(void) {
  const char *copy =
      __atomic_exchange_n(&pattern_at_start, NULL, __ATOMIC_ACQ_REL);
  if (copy)
    mip_sys_unmap((void *)copy, pattern_copy_size);
}

const char *mip_rt_profile_pattern(void) {
  const char *now = getenv("MIP_PROFILE_FILE");
  const char *copy = __atomic_load_n(&pattern_at_start, __ATOMIC_ACQUIRE);
  return now && *now ? now : copy ? copy : MIP_RT_DEFAULT_PROFILE;
}

/* Set by the heap runtime when its image starts (mip_rt.h). */
const struct mip_rt_payload_source *mip_rt_heap_payloads;

/* A stand-in for edges.c, which replaces it when linked. */
__attribute__((weak)) size_t mip_rt_edge_payloads(struct mip_rt_payload *out,
                                                  size_t max) {
  (void)out;
  (void)max;
  return 0;
}

/* Pool mode's merge (merge.c) replaces this when the image is linked
 * with it (mipcc -fmip-pool; include/mip/link.h): 1, the run not merged
 * (mip_rt_dump_image writes it under a name of its own). */
__attribute__((weak)) int mip_rt_pool_dump(const char *path,
                                           const struct mip_rt_image *image) {
  (void)path;
  (void)image;
  return 1;
}

/* In continuous mode, the mapped file is finished where it is; else, and
 * when that file has gone, the profile is written whole. */
static int write_profile(const char *path, const struct mip_rt_image *image,
                         uint64_t *size, const char **why) {
  int rc = mip_rt_continuous_dump(path, size, why);
  return rc > 0 ? mip_rt_write_raw_size(path, image, size, why) : rc;
}

#ifndef MIP_RT_SHARED
int mip_rt_dump_self(void) { return mip_rt_dump_image(mip_rt_self()); }
#endif

/* Without pool mode, a pool pattern's run goes where pool mode puts a
 * run it cannot merge, under a name of its own, which `mipdata merge`
 * takes like any other; the first write of each process says so in one
 * line. */
static void say_unpooled(const char *pooled, const char *own) {
  static int32_t said_in; /* the pid that said it: a forked child says it */
  int32_t pid = (int32_t)mip_sys_getpid();
  if (__atomic_exchange_n(&said_in, pid, __ATOMIC_RELAXED) != pid)
    mip_rt_report("cannot pool profile into '", pooled,
                  "': linked without pool mode (mipcc -fmip-pool); wrote '",
                  own, "' instead");
}

int mip_rt_dump_image(const struct mip_rt_image *image) {
  const char *pattern = mip_rt_profile_pattern();
  char pooled[MIP_RT_PATH_MAX], own[MIP_RT_PATH_MAX];
  char *path = pooled;
  const char *why;
  uint64_t size = 0;
  int rc;
  if (mip_rt_profile_path(pattern, image, mip_rt_forked(), pooled,
                          sizeof pooled) != 0)
    goto too_long;
  if (mip_rt_pool_size(pattern)) {
    rc = mip_rt_pool_dump(pooled, image); /* says what it did itself */
    if (rc <= 0)
      return rc;
    path = own;
    if (mip_rt_pool_fallback_path(image, own, sizeof own) != 0)
      goto too_long;
  }
  if (write_profile(path, image, &size, &why) != 0) {
    /* Said once already, when continuous mode could not make the file. */
    if (!mip_rt_continuous_failed(path, why))
      mip_rt_report("cannot write profile '", path, "': ", why);
    return -1;
  }
  if (path == own) {
    say_unpooled(pooled, own);
    return -1;
  }
  if (mip_rt_options.verbose) {
    char bytes[24];
    mip_rt_append_u64(bytes, 0, sizeof bytes, size);
    mip_rt_report("wrote profile '", path, "' (", bytes, " bytes)");
  }
  return 0;
too_long:
  mip_rt_report("profile file name too long: ", pattern);
  return -1;
}
