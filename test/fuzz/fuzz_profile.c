/* An indexed profile, read whole (lib/profile_read.c, heap data
 * normalized), and what the commands do with it: shown as functions
 * (`show`, text) and as heap contexts (`show --heap`), ordered (`order -o
 * --explain=json`), merged into another profile as an input (`merge -p
 * FUZZ_PROFILE INPUT`), and merged into as the profile updated (`merge -p
 * INPUT FUZZ_MERGED`, an indexed profile of the same build, so that no
 * binary needs reading), each merged profile as written and read back.
 * show and order run as commands, for their reports, on a profile the
 * reader took (on any other they stop where the parse below does). */
#include <stdint.h>

#include "fuzz.h"

/* Not an indexed profile: merge reads it as a raw profile. */
static void merged_as_raw(const uint8_t *data, size_t size, const char *path) {
  static const char into_path[] = "work.mip";
  struct mip_file bytes = fuzz_bytes(data, size);
  struct mip_raw raw;
  struct mip_error err;
  struct mip_profile into;
  if (mip_raw_parse(&bytes, path, &raw, &err))
    fuzz_refused(&err, path, NULL);
  else if (fuzz_fixture_profile("FUZZ_PROFILE", into_path, &into) == 0) {
    if (fuzz_add_raw(&into, into_path, &raw, path) == 0)
      fuzz_written_profile(&into, into_path, NULL);
    mip_profile_free(&into);
  }
  mip_raw_free(&raw);
}

static void merged(struct mip_profile *p, const char *path) {
  static const char into_path[] = "work.mip";
  struct mip_profile into;
  if (fuzz_fixture_profile("FUZZ_PROFILE", into_path, &into) == 0) {
    if (fuzz_add_profile(&into, into_path, p, path) == 0)
      fuzz_written_profile(&into, into_path, NULL);
    mip_profile_free(&into);
  }
  const struct mip_profile *other = fuzz_fixture_profile_once("FUZZ_MERGED");
  if (other && fuzz_add_profile(p, path, other, "FUZZ_MERGED") == 0)
    fuzz_written_profile(p, path, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char path[] = "input.mip";
  struct mip_file bytes = fuzz_bytes(data, size);
  if (mip_file_magic(&bytes) != MIP_PROFILE_MAGIC) {
    mip_file_free(&bytes);
    merged_as_raw(data, size, path);
    return 0;
  }
  struct mip_profile p;
  struct mip_error err;
  if (mip_profile_parse(&bytes, path, &p, &err) == 0) {
    const char *file = fuzz_input_file(data, size);
    fuzz_mipdata("show", "-p", file, NULL);
    fuzz_mipdata("order", "-p", file, "-o", fuzz_scratch("order.txt"),
                 "--explain=json", NULL);
    fuzz_mipdata("show", "-p", file, "--heap", "--format", "yaml", NULL);
    merged(&p, path);
  } else {
    fuzz_refused(&err, path, NULL);
  }
  mip_profile_free(&p);
  return 0;
}
