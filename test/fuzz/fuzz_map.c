/* The map section's parser (lib/map.c), on bytes: what extract and
 * create read out of a binary. */
#include <stdint.h>

#include "fuzz.h"
#include "mipfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct mip_map map = {0};
  struct mip_error err;
  mip_map_parse(data, size, "input", &map, &err);
  mip_map_free(&map);
  return 0;
}
