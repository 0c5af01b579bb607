/* The runtime's pool merge (rt/pool/merge*.c), which reads whatever file it
 * finds under a pool's name, inside the profiled program: the input as
 * that file, merged with a run of the heap build (FUZZ_POOL_RUN, its raw
 * profile of one run) as the runtime merges it. What it writes then goes
 * through `mipdata merge` into the heap build's profile, as a user's
 * pooled file would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../rt/pool/merge.h"
#include "fuzz.h"

static struct mip_file run;
static struct mip_rt_image image;
/* What a heap image's runtime sets when it starts: its heap merge. */
static const struct mip_rt_payload_source heap = {.merge = mip_rt_merge_heap};

/* The run, and what the runtime knows of its image: its build-id and
 * where its code was (the executable's segment, for its heap sites). */
static int load_run(void) {
  if (run.data)
    return 1;
  const char *path = getenv("FUZZ_POOL_RUN");
  struct mip_raw raw;
  struct mip_error err;
  if (!path || mip_raw_read(path, &raw, &err))
    return 0;
  /* The runtime points at its image's note; here, at a copy of it. */
  static uint8_t build_id[sizeof raw.build_id.bytes];
  memcpy(build_id, raw.build_id.bytes, raw.build_id.size);
  image.build_id_size = raw.build_id.size;
  image.build_id = build_id;
  for (size_t i = 0; i < raw.heap.segment_count; i++)
    if (!raw.heap.segments[i].path[0])
      image.code_start = raw.heap.segments[i].start;
  mip_rt_heap_payloads = &heap;
  run.size = raw.file.size;
  run.data = malloc(run.size);
  memcpy(run.data, raw.file.data, run.size);
  mip_raw_free(&raw);
  return 1;
}

/* What the runtime wrote, merged as `mipdata merge -p FUZZ_PROFILE
 * --debug FUZZ_BINARY` merges it. */
static void merged_by_mipdata(const struct mip_rt_raw *raw) {
  static const char into_path[] = "work.mip";
  const char *merged = fuzz_scratch("merged.mipraw");
  FILE *f = fopen(merged, "wb");
  if (!f || mip_rt_raw_fill(fileno(f), raw) != 0 || fclose(f) != 0)
    abort();
  struct mip_raw read;
  struct mip_error err;
  struct mip_profile into;
  if (mip_raw_read(merged, &read, &err))
    fuzz_fail("the runtime wrote a pooled file mipdata refuses: %s", err.msg);
  if (fuzz_fixture_profile("FUZZ_PROFILE", into_path, &into) == 0) {
    if (fuzz_add_raw(&into, into_path, &read, merged) == 0)
      fuzz_written_profile(&into, into_path, NULL);
    mip_profile_free(&into);
  }
  mip_raw_free(&read);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!fuzz_fixture("FUZZ_PROFILE") || !fuzz_symbolizer() || !load_run())
    return 0;
  struct mip_rt_merge m;
  memset(&m, 0, sizeof m);
  m.image = &image;
  uint8_t *old = malloc(size + 1); /* the runtime's copy is its own too */
  memcpy(old, data, size);
  struct mip_rt_raw raw;
  if (mip_rt_view_read(run.data, run.size, &m.run, &m.why) == 0 &&
      (size == 0 || mip_rt_view_read(old, size, &m.old, &m.why) == 0) &&
      mip_rt_merge_all(&m, &raw) == 0)
    merged_by_mipdata(&raw);
  mip_rt_arena_free(&m.arena);
  free(old);
  return 0;
}
