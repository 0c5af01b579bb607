/*
 * Finds what the raw profile needs to say about this image: where its
 * counter sections are, where the linker put them, its GNU build-id, and
 * what %m becomes in its file name. Each image that links the runtime sees
 * only its own sections, because the section bounds are hidden symbols.
 */
#include <elf.h>
#include <link.h>
#include "sys.h"

/* The coverage bytes' bounds (kinds.c has the others'). Not weak: a weak
 * reference may be 0, which code that computes addresses from its own
 * cannot produce, so AArch64 and Armv7 took both from GOT slots, each a
 * dynamic relocation. The section is in every image that links the
 * runtime, empty where nothing else has coverage bytes (the linkers
 * define the bounds of an empty section, start = stop: no payload). */
#ifndef MIP_RT_SHARED
extern const uint8_t __start___mip_cov[] MIP_RT_HIDDEN;
extern const uint8_t __stop___mip_cov[] MIP_RT_HIDDEN;
__asm__(".pushsection __mip_cov,\"aw\"," MIP_RT_ASM_COV_SECTION_TYPE "\n"
        ".popsection\n");
#endif

int mip_rt_object_has(const struct dl_phdr_info *info, uintptr_t addr,
                      size_t size) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && addr >= start && addr - start < ph->p_memsz &&
        size <= ph->p_memsz - (addr - start))
      return 1;
  }
  return 0;
}

static int build_id_note(const struct dl_phdr_info *info, uint32_t type,
                         const char *name, uint32_t name_size,
                         const uint8_t *desc, uint32_t desc_size, void *arg) {
  (void)info;
  struct mip_rt_image *image = arg;
  if (type != NT_GNU_BUILD_ID || name_size != 4 || !mip_rt_streq(name, "GNU") ||
      desc_size > MIP_BUILD_ID_MAX)
    return 0;
  image->build_id_size = desc_size;
  image->build_id = desc;
  return 1;
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

/* 64-bit FNV-1a. */
static uint64_t hash_path(const char *path) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *path; path++)
    h = (h ^ (uint8_t)*path) * 0x100000001b3ULL;
  return h;
}

/* %m: the first 8 bytes of the build-id (a shorter one is padded with
 * zeros), else the hash of the path the dynamic loader reports for the
 * image, which for the main program is /proc/self/exe's target. */
static void make_id(struct mip_rt_image *image, const char *name) {
  uint64_t v = 0;
  if (image->build_id_size) {
    for (unsigned i = 0; i < 8; i++)
      v = v << 8 | (i < image->build_id_size ? image->build_id[i] : 0);
  } else {
    char exe[MIP_RT_PATH_MAX];
    if (!*name) {
      ssize_t n = mip_sys_readlink("/proc/self/exe", exe, sizeof exe - 1);
      exe[n > 0 ? n : 0] = '\0';
      name = exe;
    }
    v = hash_path(name);
  }
  mip_rt_append_hex(image->id, 0, sizeof image->id, v, 8);
}

struct search {
  struct mip_rt_image *image;
  const void *inside; /* an address in the image */
  int index;
};

static int find_self(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct search *s = arg;
  if (!mip_rt_object_has(info, (uintptr_t)s->inside, 1)) {
    s->index++;
    return 0;
  }
  struct mip_rt_image *image = s->image;
  image->load_bias = info->dlpi_addr;
  image->is_main = s->index == 0;
  find_code(info, image);
  mip_rt_each_note(info, build_id_note, image);
  make_id(image, info->dlpi_name ? info->dlpi_name : "");
  return 1;
}

void mip_rt_image_init_at(struct mip_rt_image *image, const void *inside) {
  image->load_bias = 0;
  image->code_start = image->code_end = 0;
  image->build_id_size = 0;
  image->is_main = 0;
  image->id[0] = '\0';
  struct search s = {image, inside, 0};
  dl_iterate_phdr(find_self, &s);
}

void mip_rt_image_init(struct mip_rt_image *image) {
  mip_rt_image_init_at(image, (const void *)&find_self);
}

#ifndef MIP_RT_SHARED /* the shared runtime serves every registered image */
static struct mip_rt_image self;

const struct mip_rt_image *mip_rt_self(void) { return &self; }

void mip_rt_self_init(void) { mip_rt_image_init(&self); }
#endif

/* Out of line: one copy for all kinds, since the runtime ships in every
 * image; five arguments, all in registers (kind in the low 16 bits of
 * kind_size, the element size above). */
__attribute__((noinline)) size_t
mip_rt_add_counters(const struct mip_rt_counter_list *list, size_t n,
                    uint32_t kind_size, const uint8_t *start,
                    const uint8_t *stop) {
  if (!start || stop <= start || n == list->max)
    return n;
  list->out[n] = (struct mip_rt_payload){
      .kind = kind_size & 0xffff,
      .elem_size = kind_size >> 16,
      .link_addr = (uintptr_t)start - list->image->load_bias,
      .size = (uint64_t)(stop - start),
      .data = start,
  };
  return n + 1;
}

#ifdef MIP_RT_SHARED
size_t mip_rt_counter_payloads(const struct mip_rt_image *image,
                               struct mip_rt_payload *out, size_t max) {
  const struct mip_rt_counter_list list = {out, max, image};
  size_t n = 0;
  const uint8_t *const *at = image->sections;
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  n = mip_rt_add_counters(&list, n, (id) | (elem_size) << 16, at[0], at[1]),   \
  at += 2;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  return n;
}
#else
/* The coverage bytes only; kinds.c, linked into the images that have
 * other counters, replaces it. */
__attribute__((weak)) size_t
mip_rt_counter_payloads(const struct mip_rt_image *image,
                        struct mip_rt_payload *out, size_t max) {
  const struct mip_rt_counter_list list = {out, max, image};
  return mip_rt_add_counters(&list, 0, MIP_RAW_COV | 1 << 16,
                             __start___mip_cov, __stop___mip_cov);
}
#endif
