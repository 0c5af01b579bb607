/* What `mipdata merge` takes as an input, raw profiles first, merged into
 * the profile of their build (FUZZ_PROFILE, with FUZZ_BINARY to symbolize
 * heap stacks): the raw reader (lib/raw.c, lib/heap_raw.c), the run added
 * with its heap stacks symbolized, the merged profile as written and read
 * back; then shown as heap contexts in every format, as a user would next
 * (`show --heap`). An input with an indexed profile's magic is read and
 * merged as one, as merge does. */
#include <stdint.h>

#include "report.h"
#include "show_heap.h"
#include "fuzz.h"

static const char profile_path[] = "heap.mip";

static void show(const struct mip_profile *profile) {
  fuzz_written_profile(profile, profile_path, NULL);
  struct mip_buf bytes = {0};
  mip_profile_encode(profile, &bytes);
  struct mip_file file = fuzz_bytes(bytes.data, bytes.size);
  mip_buf_free(&bytes);
  struct report r;
  struct mip_error err;
  if (report_parse(&file, profile_path, &r, &err))
    fuzz_fail("%s: merged, then refused by show: %s", profile_path, err.msg);
  show_heap(&r, EMIT_JSON, HEAP_BY_SIZE);
  show_heap(&r, EMIT_YAML, HEAP_BY_COUNT);
  show_heap(&r, EMIT_TEXT, HEAP_BY_SIZE);
  report_free(&r);
}

static void merge_raw(struct mip_file *bytes, const char *path) {
  struct mip_raw raw;
  struct mip_error err;
  struct mip_profile profile;
  if (mip_raw_parse(bytes, path, &raw, &err))
    fuzz_refused(&err, path, NULL);
  else if (fuzz_fixture_profile("FUZZ_PROFILE", profile_path, &profile) == 0) {
    if (fuzz_add_raw(&profile, profile_path, &raw, path) == 0)
      show(&profile);
    mip_profile_free(&profile);
  }
  mip_raw_free(&raw);
}

static void merge_profile(struct mip_file *bytes, const char *path) {
  struct mip_profile other, profile;
  struct mip_error err;
  if (mip_profile_parse(bytes, path, &other, &err))
    fuzz_refused(&err, path, NULL);
  else if (fuzz_fixture_profile("FUZZ_PROFILE", profile_path, &profile) == 0) {
    if (fuzz_add_profile(&profile, profile_path, &other, path) == 0)
      show(&profile);
    mip_profile_free(&profile);
  }
  mip_profile_free(&other);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct mip_file bytes = fuzz_bytes(data, size);
  if (mip_file_magic(&bytes) == MIP_PROFILE_MAGIC)
    merge_profile(&bytes, "input.mip");
  else
    merge_raw(&bytes, "input.mipraw");
  return 0;
}
