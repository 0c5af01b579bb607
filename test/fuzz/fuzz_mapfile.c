/* A .mipmap file (or a bare map section) made into a profile: `mipdata
 * create`, from the read to the written profile; and dumped. */
#include <stdint.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *input = fuzz_input_file(data, size);
  fuzz_mipdata("create", "-p", fuzz_scratch("out.mip"), input, NULL);
  fuzz_mipdata("dump", input, NULL);
  return 0;
}
