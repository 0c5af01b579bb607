/* An indexed profile through the view (lib/profile_view.c), the reader of
 * `mipdata annotate` and of the compiler's -fmip-use: every lookup the
 * plugin makes (plugin/Profile.cpp), each function by its key, its
 * blocks, the hot threshold, each site's decision; then, on a profile the
 * view took, annotate as a command, for its decisions and report. */
#include <stdint.h>

#include "fuzz.h"
#include "mipfmt.h"

static void as_the_plugin_reads(const struct mip_view *v) {
  const char *path = v->path;
  struct mip_error err;
  uint64_t threshold;
  if (mip_view_hot_threshold(v, 0.9, &threshold, &err))
    fuzz_refused(&err, path, NULL);
  uint64_t functions = mip_view_count(v, MIP_PROF_FUNCTIONS);
  for (uint64_t i = 0; i < functions && i < 4096; i++) {
    struct mip_profile_function f;
    if (mip_view_function(v, i, &f, &err)) {
      fuzz_refused(&err, path, NULL);
      break;
    }
    uint64_t first;
    const char *key = mip_view_string(v, f.key);
    if (key)
      mip_view_find(v, key, &first);
    for (uint32_t b = 0; b < f.block_count && b < 4096; b++) {
      struct mip_block block;
      if (mip_view_block(v, f.first_block + b, &block, &err)) {
        fuzz_refused(&err, path, NULL);
        break;
      }
    }
  }
  struct mip_decide_options options;
  mip_decide_defaults(&options);
  uint64_t sites = mip_view_count(v, MIP_PROF_HEAP_SITES);
  for (uint64_t i = 0; i < sites && i < 4096; i++) {
    struct mip_heap_site site;
    struct mip_site_decision decision;
    if (mip_view_heap_site(v, i, &site, &err) ||
        mip_view_site_decision(v, (uint32_t)i, &options, &decision, &err)) {
      fuzz_refused(&err, path, NULL);
      break;
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char path[] = "input.mip";
  struct mip_file bytes = fuzz_bytes(data, size);
  struct mip_view v;
  struct mip_error err;
  if (mip_view_parse(&bytes, path, &v, &err)) {
    fuzz_refused(&err, path, NULL);
    return 0;
  }
  as_the_plugin_reads(&v);
  mip_view_close(&v);
  fuzz_mipdata("annotate", "-p", fuzz_input_file(data, size), "--format",
               "json", "--all", NULL);
  return 0;
}
