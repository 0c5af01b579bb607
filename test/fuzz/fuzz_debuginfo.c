/* A binary or debug file with DWARF: the reader behind --debug
 * (tools/mipdata/debuginfo/: libelf, libdwarf and the checks mipdata makes
 * before libdwarf reads what it does not check itself), on the input as
 * a file, as `show`, `annotate`, `export`, `merge` and `symbolize` open
 * it; then what the index answers for each function it found: the frames
 * at its first address and in its middle, and its declaration. A binary
 * refused must be refused in one line that names it. */
#include <stdint.h>

#include "fuzz.h"
#include "index.h"

/* How many functions are asked about: enough for every seed's own. */
#define MAX_ASKED 64

static void check_frames(struct debuginfo *di, uint64_t addr) {
  const struct mip_frame_info *frames;
  size_t n = debuginfo_frames(di, addr, &frames);
  if (n > MAX_FRAMES)
    fuzz_fail("%zu frames at 0x%llx", n, (unsigned long long)addr);
  for (size_t i = 0; i < n; i++)
    if (!frames[i].function || !frames[i].file)
      fuzz_fail("frame %zu at 0x%llx has no name or file", i,
                (unsigned long long)addr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *input = fuzz_input_file(data, size);
  struct mip_error err;
  struct debuginfo *di = debuginfo_open(input, &err);
  if (!di) {
    fuzz_refused(&err, input, NULL);
    return 0;
  }
  for (size_t i = 0; i < di->sub_range_count && i < MAX_ASKED; i++) {
    const struct span *at = &di->sub_ranges[i].at;
    const char *file;
    uint32_t line;
    check_frames(di, at->lo);
    check_frames(di, at->lo + (at->hi - at->lo) / 2);
    debuginfo_lookup(di, at->lo, &file, &line);
  }
  debuginfo_covers_program(di);
  debuginfo_close(di);
  return 0;
}
