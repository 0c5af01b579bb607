/*
 * Finds what the raw profile needs to say about this image: where its
 * counter sections are, where the linker put them, and its GNU build-id.
 * Each image that links the runtime sees only its own sections, because
 * the section bounds are hidden symbols.
 */
#include <elf.h>
#include <link.h>

#include "mip_rt.h"

#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  extern const uint8_t __start_##section[] __attribute__((weak)) MIP_RT_HIDDEN; \
  extern const uint8_t __stop_##section[] __attribute__((weak)) MIP_RT_HIDDEN;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND

static int contains(const struct dl_phdr_info *info, uintptr_t addr) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && addr >= start && addr - start < ph->p_memsz)
      return 1;
  }
  return 0;
}

static void copy_build_id(const struct dl_phdr_info *info,
                          struct mip_rt_image *image) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
    const uint8_t *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)p;
      const uint8_t *name = p + sizeof *note;
      const uint8_t *desc = name + ((note->n_namesz + 3) & ~3u);
      p = desc + ((note->n_descsz + 3) & ~3u);
      if (p > end)
        break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          name[0] == 'G' && name[1] == 'N' && name[2] == 'U' &&
          note->n_descsz <= MIP_BUILD_ID_MAX) {
        image->build_id_size = note->n_descsz;
        mip_copy_bytes(image->build_id, desc, note->n_descsz);
        return;
      }
    }
  }
}

static void find_code(const struct dl_phdr_info *info,
                      struct mip_rt_image *image) {
  image->code_start = UINTPTR_MAX;
  image->code_end = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
      continue;
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (start < image->code_start)
      image->code_start = start;
    if (start + ph->p_memsz > image->code_end)
      image->code_end = start + ph->p_memsz;
  }
}

static int find_self(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct mip_rt_image *image = arg;
  if (!contains(info, (uintptr_t)&find_self))
    return 0;
  image->load_bias = info->dlpi_addr;
  find_code(info, image);
  copy_build_id(info, image);
  return 1;
}

void mip_rt_image_init(struct mip_rt_image *image) {
  image->load_bias = 0;
  image->code_start = image->code_end = 0;
  image->build_id_size = 0;
  dl_iterate_phdr(find_self, image);
}

static struct mip_rt_image self;

const struct mip_rt_image *mip_rt_self(void) { return &self; }

void mip_rt_self_init(void) { mip_rt_image_init(&self); }

static size_t add_counters(struct mip_rt_payload *out, size_t n, size_t max,
                           uint32_t kind, uint32_t elem_size,
                           const uint8_t *start, const uint8_t *stop,
                           const struct mip_rt_image *image) {
  if (!start || stop <= start || n == max)
    return n;
  out[n] = (struct mip_rt_payload){
      .kind = kind,
      .elem_size = elem_size,
      .link_addr = (uintptr_t)start - image->load_bias,
      .size = (uint64_t)(stop - start),
      .data = start,
  };
  return n + 1;
}

size_t mip_rt_counter_payloads(const struct mip_rt_image *image,
                               struct mip_rt_payload *out, size_t max) {
  size_t n = 0;
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  n = add_counters(out, n, max, id, elem_size, __start_##section,              \
                   __stop_##section, image);
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  return n;
}
