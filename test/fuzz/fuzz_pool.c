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
  const char *path = fuzz_fixture("FUZZ_POOL_RUN");
  struct mip_raw raw;
  struct mip_error err;
  if (!path || mip_raw_read(path, &raw, &err))
    return 0;
  image.build_id_size = raw.build_id.size;
  memcpy(image.build_id, raw.build_id.bytes, raw.build_id.size);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *profile = fuzz_fixture_copy("FUZZ_PROFILE", "work.mip");
  const char *binary = fuzz_fixture("FUZZ_BINARY");
  if (!profile || !binary || !load_run())
    return 0;
  struct mip_rt_merge m;
  memset(&m, 0, sizeof m);
  m.image = &image;
  uint8_t *old = malloc(size + 1); /* the runtime's copy is its own too */
  memcpy(old, data, size);
  struct mip_rt_raw raw;
  if (mip_rt_view_read(run.data, run.size, &m.run, &m.why) == 0 &&
      (size == 0 || mip_rt_view_read(old, size, &m.old, &m.why) == 0) &&
      mip_rt_merge_all(&m, &raw) == 0) {
    const char *merged = fuzz_scratch("merged.mipraw");
    FILE *f = fopen(merged, "wb");
    if (!f || mip_rt_raw_fill(fileno(f), &raw) != 0 || fclose(f) != 0)
      abort();
    fuzz_mipdata("merge", "-p", profile, "--debug", binary, merged, NULL);
  }
  mip_rt_arena_free(&m.arena);
  free(old);
  return 0;
}
