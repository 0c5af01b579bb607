/*
 * This run's raw profile written into a descriptor, as the file would
 * hold it: pool mode (merge.c) renders the run into memory before it
 * takes the pooled file's lock. A file of its own, so that only the images
 * linked with pool mode carry it (libmip_rt.a's members are linked by
 * need).
 */
#include "mip_rt.h"

int mip_rt_write_raw_fd(int fd, const struct mip_rt_image *image,
                        uint64_t *size) {
  struct mip_rt_payload sections[MIP_RT_MAX_PAYLOADS];
  const struct mip_rt_payload_source *heap;
  size_t count = mip_rt_gather_run(image, sections, &heap);
  struct mip_rt_raw raw = mip_rt_one_run(image, sections, count);
  *size = mip_rt_raw_size(&raw);
  int rc = mip_rt_raw_fill(fd, &raw);
  if (heap)
    heap->release(sections, count);
  return rc;
}
