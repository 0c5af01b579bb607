/*
 * The shared runtime (mipcc -fmip-shared-runtime): libmip_rt.so, loaded
 * once by a process, writes the profiles of every image linked with
 * mip_rt_image.o (image.c), which keeps in the image only its counters,
 * its note and descriptor (note.c's, for mip_dump and the images'
 * rendezvous) and this registration. What passes between them, both
 * built from this header: an image built with one MIP and loaded with
 * another's libmip_rt.so is refused (version), with one line on stderr.
 */
#ifndef MIP_RT_SHARED_H
#define MIP_RT_SHARED_H

#include <stdint.h>

/* 2: the BCNT kind (block counts) added a section */
#define MIP_RT_REGISTRATION_VERSION 2u
/* The kinds of raw_kinds.inc, counted. */
#define MIP_RAW_KIND(id, NAME, section, elem_size) +1
enum { MIP_RT_KIND_COUNT = 0
#include "mip/layout/raw_kinds.inc"
};
#undef MIP_RAW_KIND

struct mip_rt_registration {
  uint32_t version; /* MIP_RT_REGISTRATION_VERSION */
  uint32_t size;    /* sizeof(struct mip_rt_registration) */
  /* Start and stop of each kind's section, in raw_kinds.inc's order (NULL
   * when the image has none); the registration itself lies in the image. */
  const uint8_t *sections[2 * MIP_RT_KIND_COUNT];
};

/* Default visibility, in libmip_rt.so. register: at the image's start-up
 * (its constructor); 0, or -1 after one line on stderr (the image writes
 * no profile then). dump: writes the image's profile (its descriptor's
 * dump). unregister: at its exit or dlclose, writes its profile unless
 * MIP_OPTIONS or a configure-time test program says not to, and forgets
 * it. */
#define MIP_RT_SHARED_API __attribute__((visibility("default")))
MIP_RT_SHARED_API int __mip_rt_register(const struct mip_rt_registration *image);
MIP_RT_SHARED_API int
__mip_rt_dump_image(const struct mip_rt_registration *image);
MIP_RT_SHARED_API void
__mip_rt_unregister(const struct mip_rt_registration *image);

#endif
