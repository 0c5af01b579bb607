/*
 * What an image linked with the shared runtime (mipcc
 * -fmip-shared-runtime) keeps of it: mip_rt_image.o, linked into each
 * image in place of libmip_rt.a. Its counters' bounds, handed to
 * libmip_rt.so at start-up (shared.h); its note and descriptor, through
 * which mip_dump() and the runtimes of the process find it (note.c); and
 * the call at exit or dlclose that writes its profile. The rest is
 * libmip_rt.so's, once for the whole process.
 */
#include "mip/link.h"
#include "mip_rt.h"
#include "shared.h"

/* What instrumented objects refer to (include/mip/link.h). */
MIP_RT_HIDDEN const char mip_rt_link_anchor __asm__(MIP_RT_LINK_SYMBOL) = 1;
/* mip_dump is libmip_rt.so's, for every image. */
MIP_RT_HIDDEN const char mip_rt_dump_anchor __asm__(MIP_RT_DUMP_SYMBOL) = 1;
/* libmip_rt.so knows every kind of counter. */
MIP_RT_HIDDEN const char mip_rt_kinds_anchor __asm__(MIP_RT_KINDS_SYMBOL) = 1;

#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  extern const uint8_t __start_##section[] __attribute__((weak)) MIP_RT_HIDDEN; \
  extern const uint8_t __stop_##section[] __attribute__((weak)) MIP_RT_HIDDEN;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND

static struct mip_rt_registration registration = {
    .version = MIP_RT_REGISTRATION_VERSION,
    .size = sizeof(struct mip_rt_registration),
};
MIP_RT_HIDDEN __attribute__((used)) uint32_t mip_rt_image_state;

MIP_RT_HIDDEN __attribute__((used)) int mip_rt_image_dump_if_ready(void);
int mip_rt_image_dump_if_ready(void) {
  if (!(__atomic_load_n(&mip_rt_image_state, __ATOMIC_ACQUIRE) &
        MIP_RT_STATE_READY))
    return 0;
  return __mip_rt_dump_image(&registration);
}

__asm__(MIP_RT_NOTE_ASM("mip_rt_image_dump_if_ready", "mip_rt_image_state"));

__attribute__((constructor(101))) static void image_start(void) {
  const uint8_t **at = registration.sections;
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  *at++ = __start_##section;                                                   \
  *at++ = __stop_##section;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  if (__mip_rt_register(&registration) == 0)
    __atomic_or_fetch(&mip_rt_image_state, MIP_RT_STATE_READY, __ATOMIC_RELEASE);
}

__attribute__((destructor(101))) static void image_stop(void) {
  if (__atomic_load_n(&mip_rt_image_state, __ATOMIC_ACQUIRE) &
      MIP_RT_STATE_READY)
    __mip_rt_unregister(&registration);
}
