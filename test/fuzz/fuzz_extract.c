/* A linked binary: `mipdata extract` (libelf, the map section, its
 * extents against the section headers, the symbol table, the build-id),
 * then the map it wrote made into a profile; the binary dumped too. */
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *input = fuzz_input_file(data, size);
  const char *map = fuzz_scratch("out.mipmap");
  fuzz_mipdata("dump", input, "--format", "json", NULL);
  if (fuzz_mipdata("extract", input, "-o", map, NULL) == 0)
    fuzz_mipdata("create", "-p", fuzz_scratch("out.mip"), map, NULL);
  return 0;
}
