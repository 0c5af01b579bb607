/*
 * How the runtimes of one process find each other. Every image that links
 * the runtime carries its own hidden copy, so symbol lookup cannot reach
 * the others; instead each copy puts an ELF note in its image:
 *
 *   owner "MIP", type MIP_RT_NOTE_TYPE, descriptor: a signed 32-bit
 *   offset from the descriptor's own address to the image's
 *   struct mip_rt_descriptor (version, size, dump function, state).
 *
 * The offset is resolved when the image is linked (no dynamic
 * relocation), and the note lands in a PT_NOTE segment, which the loader
 * maps and dl_iterate_phdr shows, so any copy can walk every loaded
 * object's notes and reach every image's runtime.
 */
#include <elf.h>
#include <link.h>

#include "mip_rt.h"

/* The shared runtime (libmip_rt.so) has no counters, no note and no
 * descriptor of its own: each image's object carries them
 * (rt/shared/image.c). */
#ifndef MIP_RT_SHARED
static uint32_t mip_rt_state;

static int dump_if_ready(void) {
  if (!(__atomic_load_n(&mip_rt_state, __ATOMIC_ACQUIRE) & MIP_RT_STATE_READY))
    return 0; /* its constructor has not run: nothing to write yet */
  return mip_rt_dump_self();
}

MIP_RT_HIDDEN __attribute__((used)) const struct mip_rt_descriptor
    mip_rt_descriptor = {
        .version = MIP_RT_DESCRIPTOR_VERSION,
        .size = sizeof(struct mip_rt_descriptor),
        .dump = dump_if_ready,
        .state = &mip_rt_state,
};

__asm__(MIP_RT_NOTE_ASM("mip_rt_descriptor"));

void mip_rt_set_ready(void) {
  __atomic_or_fetch(&mip_rt_state, MIP_RT_STATE_READY, __ATOMIC_RELEASE);
}
#define MIP_RT_OWN_DESCRIPTOR &mip_rt_descriptor
#else
#define MIP_RT_OWN_DESCRIPTOR NULL
#endif

int mip_rt_each_note(const struct dl_phdr_info *info, mip_rt_note_fn fn,
                     void *arg) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type != PT_NOTE || !mip_rt_object_has(info, start, ph->p_memsz))
      continue;
    uintptr_t align = ph->p_align == 8 ? 8 : 4;
    const uint8_t *p = (const uint8_t *)start;
    const uint8_t *end = p + ph->p_memsz;
    while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
      const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)p;
      size_t name_room = (note->n_namesz + align - 1) & ~(align - 1);
      size_t desc_room = (note->n_descsz + align - 1) & ~(align - 1);
      if (name_room > (size_t)(end - p) - sizeof *note ||
          desc_room > (size_t)(end - p) - sizeof *note - name_room)
        break;
      const char *name = (const char *)(p + sizeof *note);
      const uint8_t *desc = p + sizeof *note + name_room;
      p = desc + desc_room;
      if (note->n_namesz && name[note->n_namesz - 1] != '\0')
        continue; /* a name that is no string */
      int rc = fn(info, note->n_type, note->n_namesz ? name : "",
                  note->n_namesz, desc, note->n_descsz, arg);
      if (rc)
        return rc;
    }
  }
  return 0;
}

struct found {
  const struct mip_rt_descriptor *descriptor;
};

static int runtime_note(const struct dl_phdr_info *info, uint32_t type,
                        const char *name, uint32_t name_size,
                        const uint8_t *desc, uint32_t desc_size, void *arg) {
  if (type != MIP_RT_NOTE_TYPE || name_size != 4 ||
      !mip_rt_streq(name, "MIP") || desc_size < 4)
    return 0;
  int32_t offset = (int32_t)mip_get_le32(desc);
  uintptr_t at = (uintptr_t)desc + (uintptr_t)(intptr_t)offset;
  const struct mip_rt_descriptor *d = (const struct mip_rt_descriptor *)at;
  if (at % _Alignof(struct mip_rt_descriptor) ||
      !mip_rt_object_has(info, at, sizeof *d) ||
      d->version != MIP_RT_DESCRIPTOR_VERSION || d->size < sizeof *d ||
      !d->dump || !mip_rt_object_has(info, (uintptr_t)d->dump, 1) ||
      !d->state || !mip_rt_object_has(info, (uintptr_t)d->state, 4))
    return 0;
  ((struct found *)arg)->descriptor = d;
  return 1;
}

const struct mip_rt_descriptor *
mip_rt_find_descriptor(const struct dl_phdr_info *info) {
  struct found f = {NULL};
  mip_rt_each_note(info, runtime_note, &f);
  return f.descriptor;
}

static int ready_elsewhere(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  const struct mip_rt_descriptor *d = mip_rt_find_descriptor(info);
  return d && d != MIP_RT_OWN_DESCRIPTOR &&
         (__atomic_load_n(d->state, __ATOMIC_ACQUIRE) & MIP_RT_STATE_READY);
}

int mip_rt_other_ready(void) { return dl_iterate_phdr(ready_elsewhere, NULL); }
