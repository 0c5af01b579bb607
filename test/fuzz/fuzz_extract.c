/* A linked binary: `mipdata extract` (libelf, the map section, its
 * extents against the section headers, the symbol table, the build-id),
 * run as a command on the input as a file; then the map file it wrote
 * made into a profile, as `mipdata create` does, written and read back. */
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *input = fuzz_input_file(data, size);
  const char *out = fuzz_scratch("out.mipmap");
  if (fuzz_mipdata("extract", input, "-o", out, NULL) != 0)
    return 0;
  struct mip_map map;
  struct mip_error err;
  if (mip_mapfile_read(out, &map, &err))
    fuzz_fail("extract wrote a map file its reader refuses: %s", err.msg);
  struct mip_profile profile;
  mip_profile_from_map(&map, &profile);
  fuzz_written_profile(&profile, "created.mip", NULL);
  mip_profile_free(&profile);
  mip_map_free(&map);
  return 0;
}
