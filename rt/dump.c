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

#include "mip_rt.h"

static const char *profile_pattern(void) {
  const char *pattern = getenv("MIP_PROFILE_FILE");
  return pattern && *pattern ? pattern : MIP_RT_DEFAULT_PROFILE;
}

int mip_rt_dump_self(void) {
  int saved = errno;
  const char *pattern = profile_pattern();
  const struct mip_rt_image *image = mip_rt_self();
  char path[MIP_RT_PATH_MAX];
  const char *why;
  uint64_t size = 0;
  int rc = -1;
  if (mip_rt_profile_path(pattern, image, mip_rt_forked(), path,
                          sizeof path) != 0) {
    mip_rt_report("profile file name too long: ", pattern, NULL);
  } else if (mip_rt_write_raw_size(path, image, &size, &why) != 0) {
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

static int dump_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  const struct mip_rt_descriptor *d = mip_rt_find_descriptor(info);
  if (d && d->dump() != 0)
    *(int *)arg = -1;
  return 0;
}

/* Default visibility: the one symbol the runtime exports. Any image's copy
 * will do, since each writes every image's profile. */
__attribute__((visibility("default"))) int mip_dump(void);

int mip_dump(void) {
  int saved = errno;
  int rc = 0;
  dl_iterate_phdr(dump_object, &rc);
  errno = saved;
  return rc;
}
