/*
 * The shared runtime's own part (libmip_rt.so, mipcc -fmip-shared-runtime):
 * the process is read once, when the library starts (before the images
 * that need it), and each image linked with mip_rt_image.o registers at
 * its start-up and is written at its exit or dlclose, as a runtime linked
 * into it would write it. The rest of libmip_rt.so is rt/profile built
 * with MIP_RT_SHARED (and pool mode's merge): the same code, given the
 * image rather than finding its own.
 */
#include <errno.h>

#include "shared.h"
#include "sys.h"

/* The images registered: a slot is taken by a compare-and-swap of reg;
 * sections is set once the image is known, and cleared before the slot
 * is given back, so that a fork handler sees whole images only. */
#define MAX_IMAGES 1024
static struct slot {
  const struct mip_rt_registration *reg;
  struct mip_rt_image image;
} slots[MAX_IMAGES];

__attribute__((constructor(101))) static void shared_init(void) {
  int saved = errno;
  mip_rt_process_init();
  errno = saved;
}

static struct slot *slot_of(const struct mip_rt_registration *reg) {
  for (size_t i = 0; i < MAX_IMAGES; i++)
    if (__atomic_load_n(&slots[i].reg, __ATOMIC_ACQUIRE) == reg)
      return &slots[i];
  return NULL;
}

static int take_slot(const struct mip_rt_registration *reg) {
  for (size_t i = 0; i < MAX_IMAGES; i++) {
    const struct mip_rt_registration *none = NULL;
    if (!__atomic_compare_exchange_n(&slots[i].reg, &none, reg, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      continue;
    struct mip_rt_image *image = &slots[i].image;
    mip_rt_image_init_at(image, reg);
    __atomic_store_n(&image->sections, reg->sections, __ATOMIC_RELEASE);
    mip_rt_continuous_refused(image);
    return 0;
  }
  mip_rt_report("more than " MIP_RT_STR(MAX_IMAGES) " images registered "
                "with libmip_rt.so: no profile for the others");
  return -1;
}

MIP_RT_SHARED_API int
__mip_rt_register(const struct mip_rt_registration *reg) {
  int saved = errno;
  int rc = -1;
  if (reg->version != MIP_RT_REGISTRATION_VERSION || reg->size < sizeof *reg)
    mip_rt_report("an image built by another version of MIP than "
                  "libmip_rt.so: no profile for it");
  else
    rc = take_slot(reg);
  errno = saved;
  return rc;
}

MIP_RT_SHARED_API int
__mip_rt_dump_image(const struct mip_rt_registration *reg) {
  struct slot *s = slot_of(reg);
  return s ? mip_rt_dump_image(&s->image) : 0;
}

MIP_RT_SHARED_API void
__mip_rt_unregister(const struct mip_rt_registration *reg) {
  struct slot *s = slot_of(reg);
  if (!s)
    return;
  mip_rt_write_at_exit(&s->image);
  __atomic_store_n(&s->image.sections, NULL, __ATOMIC_RELEASE);
  __atomic_store_n(&s->reg, NULL, __ATOMIC_RELEASE);
}

void mip_rt_shared_each_image(void (*fn)(const struct mip_rt_image *image)) {
  for (size_t i = 0; i < MAX_IMAGES; i++)
    if (__atomic_load_n(&slots[i].image.sections, __ATOMIC_ACQUIRE))
      fn(&slots[i].image);
}
