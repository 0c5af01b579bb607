/*
 * How the runtimes of one process find each other. Every image that links
 * the runtime carries its own hidden copy, so symbol lookup cannot reach
 * the others; instead each copy puts an ELF note in its image:
 *
 *   owner "MIP", type MIP_RT_NOTE_TYPE, descriptor: two signed 32-bit
 *   offsets, each from its own address: to the image's dump function and
 *   to its state word.
 *
 * The offsets are resolved when the image is linked (no dynamic
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
MIP_RT_HIDDEN __attribute__((used)) uint32_t mip_rt_state;

MIP_RT_HIDDEN __attribute__((used)) int mip_rt_dump_if_ready(void);
int mip_rt_dump_if_ready(void) {
  if (!(__atomic_load_n(&mip_rt_state, __ATOMIC_ACQUIRE) & MIP_RT_STATE_READY))
    return 0; /* its constructor has not run: nothing to write yet */
  return mip_rt_dump_self();
}

__asm__(MIP_RT_NOTE_ASM("mip_rt_dump_if_ready", "mip_rt_state"));

void mip_rt_set_ready(void) {
  __atomic_or_fetch(&mip_rt_state, MIP_RT_STATE_READY, __ATOMIC_RELEASE);
}
#define MIP_RT_OWN_STATE &mip_rt_state
#else
#define MIP_RT_OWN_STATE NULL
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

/* An offset of the note's descriptor, from its own address. */
static uintptr_t note_target(const uint8_t *at) {
  return (uintptr_t)at + (uintptr_t)(intptr_t)(int32_t)mip_get_le32(at);
}

static int runtime_note(const struct dl_phdr_info *info, uint32_t type,
                        const char *name, uint32_t name_size,
                        const uint8_t *desc, uint32_t desc_size, void *arg) {
  if (type != MIP_RT_NOTE_TYPE || name_size != 4 ||
      !mip_rt_streq(name, "MIP") || desc_size < 8)
    return 0;
  uintptr_t dump = note_target(desc), state = note_target(desc + 4);
  if (!mip_rt_object_has(info, dump & ~(uintptr_t)MIP_RT_THUMB_BIT, 1) ||
      state % 4 || !mip_rt_object_has(info, state, 4))
    return 0;
  struct mip_rt_descriptor *out = arg;
  out->dump = (int (*)(void))dump;
  out->state = (const uint32_t *)state;
  return 1;
}

int mip_rt_find_descriptor(const struct dl_phdr_info *info,
                           struct mip_rt_descriptor *out) {
  return mip_rt_each_note(info, runtime_note, out);
}

static int ready_elsewhere(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  (void)arg;
  struct mip_rt_descriptor d;
  return mip_rt_find_descriptor(info, &d) && d.state != MIP_RT_OWN_STATE &&
         (__atomic_load_n(d.state, __ATOMIC_ACQUIRE) & MIP_RT_STATE_READY);
}

int mip_rt_other_ready(void) { return dl_iterate_phdr(ready_elsewhere, NULL); }
