/* A raw profile merged into the profile of its build (FUZZ_PROFILE, with
 * FUZZ_BINARY to symbolize heap stacks): `mipdata merge`, from the read
 * through the heap payloads and their symbolization to the written
 * profile; then the merged profile shown, as a user would next. The
 * input dumped first (`mipdata dump`, which reads it as merge does). */
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *input = fuzz_input_file(data, size);
  fuzz_mipdata("dump", input, "--format", "json", NULL);
  const char *profile = fuzz_fixture_copy("FUZZ_PROFILE", "work.mip");
  const char *binary = fuzz_fixture("FUZZ_BINARY");
  if (!profile || !binary)
    return 0;
  if (fuzz_mipdata("merge", "-p", profile, "--debug", binary, input, NULL) ==
      0)
    fuzz_mipdata("show", "-p", profile, "--heap", "--format", "json", NULL);
  return 0;
}
