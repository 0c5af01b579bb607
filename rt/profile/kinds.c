/*
 * Every counter kind of raw_kinds.inc, for the images that have more than
 * coverage bytes: their payloads (image.c) and their reset in a forked
 * child (fork.c). A member of libmip_rt.a of its own: an instrumented
 * object with counters of another kind than coverage refers to
 * MIP_RT_KINDS_SYMBOL (include/mip/link.h), which pulls it, and its
 * definitions replace the core's weak ones, which know the coverage bytes
 * only: a coverage image carries no code, and no bounds, for the others.
 */
#include "mip/link.h"
#include "mip_rt.h"

MIP_RT_HIDDEN const char mip_rt_kinds_anchor __asm__(MIP_RT_KINDS_SYMBOL) = 1;

#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  extern uint8_t __start_##section[] __attribute__((weak)) MIP_RT_HIDDEN;      \
  extern uint8_t __stop_##section[] __attribute__((weak)) MIP_RT_HIDDEN;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND

size_t mip_rt_counter_payloads(const struct mip_rt_image *image,
                               struct mip_rt_payload *out, size_t max) {
  const struct mip_rt_counter_list list = {out, max, image};
  size_t n = 0;
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  n = mip_rt_add_counters(&list, n, (id) | (elem_size) << 16,                  \
                          __start_##section, __stop_##section);
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  return n;
}

void mip_rt_counters_reset(void) {
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  mip_rt_fill(__start_##section, __stop_##section,                             \
              id == MIP_RAW_COV ? MIP_RT_COV_NOT_YET : 0);
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
}
