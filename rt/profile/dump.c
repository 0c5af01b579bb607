/*
 * Writing profiles: this image's (at exit, or when asked), and every
 * image's at once through mip_dump(), the one public entry point (declared
 * in mip/mip.h). mip_dump reaches the other images' runtimes through their
 * notes (note.c), so it works from any copy, whichever image the caller is
 * in. Everything here may run in a signal handler: no stdio, no malloc.
 */
#include <errno.h>
#include <link.h>
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

/* Pool mode's merge (merge.c) replaces this when the image is linked
 * with it (mipcc -fmip-pool; include/mip/link.h). Without it a pool
 * pattern's run goes where pool mode puts a run it cannot merge, under a
 * name of its own, which `mipdata merge` takes like any other; the first
 * write of each process says so in one line. */
__attribute__((weak)) int mip_rt_pool_dump(const char *path,
                                           const struct mip_rt_image *image) {
  static int32_t said_in; /* the pid that said it: a forked child says it */
  char other[MIP_RT_PATH_MAX];
  const char *why = "its name is too long";
  uint64_t size = 0;
  int said = __atomic_exchange_n(&said_in, (int32_t)mip_sys_getpid(),
                                 __ATOMIC_RELAXED) == (int32_t)mip_sys_getpid();
  int wrote = mip_rt_pool_fallback_path(image, other, sizeof other) == 0 &&
              mip_rt_write_raw_size(other, image, &size, &why) == 0;
  if (!wrote || !said)
    mip_rt_report("cannot pool profile into '", path,
                  "': linked without pool mode (mipcc -fmip-pool); ",
                  wrote ? "wrote '" : "cannot write '", other,
                  wrote ? "' instead" : "' either: ", wrote ? "" : why, NULL);
  return -1;
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

int mip_rt_dump_image(const struct mip_rt_image *image) {
  int saved = errno;
  const char *pattern = mip_rt_profile_pattern();
  char path[MIP_RT_PATH_MAX];
  const char *why;
  uint64_t size = 0;
  int rc = -1;
  if (mip_rt_profile_path(pattern, image, mip_rt_forked(), path,
                          sizeof path) != 0) {
    mip_rt_report("profile file name too long: ", pattern, NULL);
  } else if (mip_rt_pool_size(pattern)) {
    rc = mip_rt_pool_dump(path, image); /* says what it did itself */
  } else if (write_profile(path, image, &size, &why) != 0) {
    /* Said once already, when continuous mode could not make the file. */
    if (!mip_rt_continuous_failed(path, why))
      mip_rt_report("cannot write profile '", path, "': ", why, NULL);
  } else {
    rc = 0;
    if (mip_rt_options.verbose) {
      char bytes[24];
      mip_rt_append_u64(bytes, 0, sizeof bytes, size);
      mip_rt_report("wrote profile '", path, "' (", bytes, " bytes)", NULL);
    }
  }
  errno = saved;
  return rc;
}

/* The runtimes of the loaded images, gathered first: each dump runs with
 * the loader's lock released (a heap dump waits for table locks, whose
 * holders may themselves wait for the loader's lock, in a signal handler
 * that dumps). Up to DUMP_BATCH at a time, from object index from on. */
#define DUMP_BATCH 32

struct gather {
  const struct mip_rt_descriptor *found[DUMP_BATCH];
  size_t count;
  size_t from, index; /* objects to skip, objects seen */
};

static int gather_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct gather *g = arg;
  if (g->index++ < g->from)
    return 0;
  const struct mip_rt_descriptor *d = mip_rt_find_descriptor(info);
  if (d)
    g->found[g->count++] = d;
  return g->count == DUMP_BATCH; /* full: the rest next time */
}

/* Default visibility: the one symbol the runtime exports. Any image's copy
 * will do, since each writes every image's profile. */
__attribute__((visibility("default"))) int mip_dump(void);

/* Set while a mip_dump() of this copy is under way. A second call meanwhile,
 * from another thread or from a signal handler that interrupted the first,
 * returns at once: the dump under way writes the same files, and dumps
 * that queued up behind each other (a timer that fires faster than a dump
 * takes on a loaded machine) would leave the program no time to run. */
static int dumping;

int mip_dump(void) {
  if (__atomic_exchange_n(&dumping, 1, __ATOMIC_ACQUIRE))
    return -1;
  int saved = errno;
  int rc = 0;
  for (size_t from = 0;;) {
    struct gather g = {.from = from};
    int more = mip_rt_each_object(gather_object, &g);
    for (size_t i = 0; i < g.count; i++)
      if (g.found[i]->dump() != 0)
        rc = -1;
    if (!more)
      break;
    from = g.index;
  }
  errno = saved;
  __atomic_store_n(&dumping, 0, __ATOMIC_RELEASE);
  return rc;
}
