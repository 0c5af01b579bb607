/* fuzz.h's merging: what `mipdata merge -p INTO --debug BINARY INPUT`
 * does with its one input once it is read (tools/mipdata/commands/cmd_merge.c's
 * add_to: with one profile, every input goes to it, and the library's own
 * checks refuse another build's). The --debug binary is indexed once for
 * the whole run rather than once per merge. */
#include <stdlib.h>

#include "debuginfo.h"
#include "fuzz.h"

static struct mip_symbolizer binary_callback;

/* The symbolizer of another image, by build-id: the binary's, when the
 * stack's image is the binary (cmd_merge.c's other_image). */
static const struct mip_symbolizer *other_image(void *images,
                                                const struct mip_build_id *id) {
  (void)images;
  struct debuginfo *s = fuzz_symbolizer();
  return s && mip_build_id_equal(debuginfo_build_id(s), id) ? &binary_callback
                                                             : NULL;
}

/* A raw profile with heap data needs the binary of the profile's build
 * (cmd_merge.c's symbolizer_for): -1 with err set when there is none. */
static int add_heap_run(struct mip_profile *into, const char *into_path,
                        const struct mip_raw *raw, const char *path,
                        struct mip_error *err) {
  struct debuginfo *s = fuzz_symbolizer();
  const struct mip_build_id *want = &into->build_id;
  if (!s)
    return mip_fail(err, path, "has heap data: give the profiled binary");
  if (want->size && !mip_build_id_equal(debuginfo_build_id(s), want))
    return mip_fail(err, path, "the binary's build-id does not match");
  binary_callback = (struct mip_symbolizer){debuginfo_frames, s, NULL, NULL};
  struct mip_symbolizer callback = {debuginfo_frames, s, other_image, NULL};
  return mip_profile_add_run(into, into_path, raw, path, &callback, err);
}

int fuzz_add_raw(struct mip_profile *into, const char *into_path,
                 const struct mip_raw *raw, const char *path) {
  const struct mip_build_id *id = &raw->build_id;
  struct mip_error err;
  int rc;
  if (raw->heap.present &&
      (!id->size || !into->build_id.size ||
       mip_build_id_equal(id, &into->build_id)))
    rc = add_heap_run(into, into_path, raw, path, &err);
  else
    rc = mip_profile_add_raw(into, into_path, raw, path, &err);
  if (rc)
    fuzz_refused(&err, path, into_path);
  return rc;
}

int fuzz_add_profile(struct mip_profile *into, const char *into_path,
                     const struct mip_profile *other, const char *path) {
  struct mip_error err;
  int rc = mip_profile_add_profile(into, into_path, other, path, &err);
  if (rc)
    fuzz_refused(&err, path, into_path);
  return rc;
}
