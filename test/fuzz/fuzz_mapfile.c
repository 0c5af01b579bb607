/* A .mipmap file (or a bare map section) made into a profile, as `mipdata
 * create` does: the map file's reader (lib/mapfile.c, lib/map.c), the
 * profile made from the map, and that profile as written and read back. */
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char path[] = "input.mipmap";
  struct mip_file bytes = fuzz_bytes(data, size);
  struct mip_map map;
  struct mip_error err;
  if (mip_mapfile_parse(&bytes, path, &map, &err) == 0) {
    struct mip_profile profile;
    mip_profile_from_map(&map, &profile);
    fuzz_written_profile(&profile, "created.mip", NULL);
    mip_profile_free(&profile);
  } else {
    fuzz_refused(&err, path, NULL);
  }
  mip_map_free(&map);
  return 0;
}
