/*
 * Internal interface of the MIP runtime (libmip_rt.a). Everything here is
 * hidden: each instrumented image (executable or shared library) links its
 * own copy and writes its own profile.
 *
 * The runtime runs inside someone else's program, so it allocates nothing,
 * takes no locks, never exits, and sticks to async-signal-safe calls once
 * mip_rt_init() has run.
 */
#ifndef MIP_RT_H
#define MIP_RT_H

#include <stddef.h>
#include <stdint.h>

#include "mip/format.h"
#include "mip/le.h"

#define MIP_RT_HIDDEN __attribute__((visibility("hidden")))

/* One payload of the raw profile: a counter section of this image as it
 * is in memory now, or something the runtime gathered (call edges). */
struct mip_rt_payload {
  uint32_t kind;
  uint32_t elem_size;
  uint64_t link_addr; /* where the linker put it (counters), else 0 */
  uint64_t size;
  const uint8_t *data; /* written as it is, unless write is set */
  int (*write)(int fd, const struct mip_rt_payload *payload);
};

/* What this image is: filled once by mip_rt_image_init(). */
struct mip_rt_image {
  uintptr_t load_bias;
  uintptr_t code_start, code_end; /* its executable segments */
  uint32_t build_id_size;
  uint8_t build_id[MIP_BUILD_ID_MAX];
};

#define MIP_RT_MAX_PAYLOADS 16
#define MIP_RT_PATH_MAX 4096

/* image.c */
MIP_RT_HIDDEN void mip_rt_image_init(struct mip_rt_image *image);
/* This image, as found at start-up. */
MIP_RT_HIDDEN const struct mip_rt_image *mip_rt_self(void);
MIP_RT_HIDDEN void mip_rt_self_init(void);
MIP_RT_HIDDEN size_t mip_rt_counter_payloads(const struct mip_rt_image *image,
                                             struct mip_rt_payload *out,
                                             size_t max);

/* order.c, edges.c */
MIP_RT_HIDDEN void mip_rt_order_reset(void);
MIP_RT_HIDDEN void mip_rt_edges_reset(void);
MIP_RT_HIDDEN size_t mip_rt_edge_payloads(struct mip_rt_payload *out,
                                          size_t max);

/* path.c: expands a MIP_PROFILE_FILE pattern; 0 on success, -1 when the
 * result does not fit. */
MIP_RT_HIDDEN int mip_rt_expand_path(const char *pattern, char *out,
                                     size_t size);

/* write.c: writes the raw profile to path through a temporary file.
 * Returns 0, or -1 with *why set to a short reason. */
MIP_RT_HIDDEN int mip_rt_write_raw(const char *path,
                                   const struct mip_rt_image *image,
                                   const char **why);

/* util.c */
MIP_RT_HIDDEN size_t mip_rt_strlen(const char *s);
MIP_RT_HIDDEN size_t mip_rt_append(char *out, size_t at, size_t size,
                                   const char *s);
MIP_RT_HIDDEN size_t mip_rt_append_u64(char *out, size_t at, size_t size,
                                       uint64_t v);
/* One line on stderr: "mip: " and the strings up to the NULL. */
MIP_RT_HIDDEN void mip_rt_report(const char *first, ...)
    __attribute__((sentinel));

#endif
