/* An indexed profile through the view (lib/profile_view.c), the reader of
 * `mipdata annotate` and of the compiler's -fmip-use: annotate as a
 * command, then every lookup the plugin makes (plugin/Profile.cpp): each
 * function by its key, its blocks, the hot threshold, each site's
 * decision. */
#include <stdint.h>

#include "fuzz.h"
#include "mipfmt.h"

static void as_the_plugin_reads(const char *path) {
  struct mip_view v;
  struct mip_error err;
  if (mip_view_open(path, &v, &err))
    return;
  uint64_t threshold;
  mip_view_hot_threshold(&v, 0.9, &threshold, &err);
  uint64_t functions = mip_view_count(&v, MIP_PROF_FUNCTIONS);
  for (uint64_t i = 0; i < functions && i < 4096; i++) {
    struct mip_profile_function f;
    if (mip_view_function(&v, i, &f, &err))
      break;
    uint64_t first;
    const char *key = mip_view_string(&v, f.key);
    if (key)
      mip_view_find(&v, key, &first);
    for (uint32_t b = 0; b < f.block_count && b < 4096; b++) {
      struct mip_block block;
      if (mip_view_block(&v, f.first_block + b, &block, &err))
        break;
    }
  }
  struct mip_decide_options options;
  mip_decide_defaults(&options);
  uint64_t sites = mip_view_count(&v, MIP_PROF_HEAP_SITES);
  for (uint64_t i = 0; i < sites && i < 4096; i++) {
    struct mip_heap_site site;
    struct mip_site_decision decision;
    if (mip_view_heap_site(&v, i, &site, &err) ||
        mip_view_site_decision(&v, (uint32_t)i, &options, &decision, &err))
      break;
  }
  mip_view_close(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *input = fuzz_input_file(data, size);
  fuzz_mipdata("annotate", "-p", input, "--format", "json", "--all", NULL);
  as_the_plugin_reads(input);
  return 0;
}
