/* An indexed profile, read whole (lib/profile_read.c, heap data
 * normalized): shown as functions and as heap contexts, ordered, merged
 * into another profile as an input (FUZZ_PROFILE), and merged into as the
 * profile updated (with FUZZ_MERGED, an indexed profile of that build, so
 * that no binary needs reading), as those commands do; and dumped. */
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *input = fuzz_input_file(data, size);
  fuzz_mipdata("show", "-p", input, NULL);
  fuzz_mipdata("dump", input, "--format", "yaml", NULL);
  fuzz_mipdata("show", "-p", input, "--heap", "--format", "yaml", NULL);
  fuzz_mipdata("order", "-p", input, "-o", fuzz_scratch("order.txt"),
               "--explain=json", NULL);
  const char *other = fuzz_fixture_copy("FUZZ_PROFILE", "work.mip");
  if (other)
    fuzz_mipdata("merge", "-p", other, input, NULL);
  const char *merged = fuzz_fixture("FUZZ_MERGED");
  if (merged)
    fuzz_mipdata("merge", "-p", fuzz_scratch_file("updated.mip", data, size),
                 merged, NULL);
  return 0;
}
