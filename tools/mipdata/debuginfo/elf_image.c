/* Reading linked binaries with libelf. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_image.h"

/* libelf reads what is there; a file cut short must not pass for one
 * without sections. */
static int check_complete(struct elf_image *img, struct mip_error *err) {
  struct stat st;
  GElf_Ehdr ehdr;
  if (fstat(img->fd, &st) != 0 || !gelf_getehdr(img->elf, &ehdr))
    return mip_fail(err, img->path, "corrupt ELF file");
  uint64_t size = (uint64_t)st.st_size;
  if (ehdr.e_shoff > size ||
      (uint64_t)ehdr.e_shnum * ehdr.e_shentsize > size - ehdr.e_shoff)
    return mip_fail(err, img->path, "truncated ELF file");
  for (Elf_Scn *scn = elf_nextscn(img->elf, NULL); scn;
       scn = elf_nextscn(img->elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr))
      return mip_fail(err, img->path, "corrupt ELF section header");
    if (shdr.sh_type != SHT_NOBITS &&
        (shdr.sh_offset > size || shdr.sh_size > size - shdr.sh_offset))
      return mip_fail(err, img->path, "truncated ELF file");
  }
  return 0;
}

int elf_image_open(const char *path, struct elf_image *img,
                   struct mip_error *err) {
  memset(img, 0, sizeof *img);
  img->path = path;
  img->fd = -1;
  if (elf_version(EV_CURRENT) == EV_NONE)
    return mip_fail(err, path, "libelf: %s", elf_errmsg(-1));
  size_t size;
  img->fd = mip_file_open(path, &size, err);
  if (img->fd < 0)
    return -1;
  img->elf = elf_begin(img->fd, ELF_C_READ, NULL);
  if (!img->elf || elf_kind(img->elf) != ELF_K_ELF) {
    elf_image_close(img);
    return mip_fail(err, path, "not an ELF file");
  }
  size_t shstrndx;
  if (elf_getshdrstrndx(img->elf, &shstrndx) != 0) {
    elf_image_close(img);
    return mip_fail(err, path, "corrupt ELF file: %s", elf_errmsg(-1));
  }
  if (check_complete(img, err)) {
    elf_image_close(img);
    return -1;
  }
  return 0;
}

void elf_image_close(struct elf_image *img) {
  if (img->elf)
    elf_end(img->elf);
  if (img->fd >= 0)
    close(img->fd);
  img->elf = NULL;
  img->fd = -1;
}

/* The first section called name after scn (NULL: from the start). */
static Elf_Scn *section_after(struct elf_image *img, Elf_Scn *scn,
                              const char *name, GElf_Shdr *shdr) {
  size_t shstrndx;
  if (elf_getshdrstrndx(img->elf, &shstrndx) != 0)
    return NULL;
  while ((scn = elf_nextscn(img->elf, scn))) {
    if (!gelf_getshdr(scn, shdr))
      continue;
    const char *n = elf_strptr(img->elf, shstrndx, shdr->sh_name);
    if (n && strcmp(n, name) == 0)
      return scn;
  }
  return NULL;
}

Elf_Scn *elf_image_section(struct elf_image *img, const char *name,
                           GElf_Shdr *shdr) {
  return section_after(img, NULL, name, shdr);
}

int elf_image_section_data(struct elf_image *img, Elf_Scn *scn,
                           Elf_Data **data, struct mip_error *err) {
  GElf_Shdr shdr;
  if (!gelf_getshdr(scn, &shdr))
    return mip_fail(err, img->path, "corrupt ELF section header");
  /* --compress-debug-sections applies to our .debug_ section too. */
  if ((shdr.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
    return mip_fail(err, img->path, "cannot decompress section: %s",
                    elf_errmsg(-1));
  if (shdr.sh_type == SHT_NOBITS)
    return mip_fail(err, img->path, "section has no contents");
  *data = elf_getdata(scn, NULL);
  if (!*data)
    return mip_fail(err, img->path, "cannot read section: %s",
                    elf_errmsg(-1));
  return 0;
}

/* How many sections are called name. */
static int sections_named(struct elf_image *img, const char *name) {
  GElf_Shdr shdr;
  int n = 0;
  for (Elf_Scn *scn = NULL; (scn = section_after(img, scn, name, &shdr));)
    n++;
  return n;
}

/* Counters of one kind in two sections: objects whose counters take file
 * bytes (SHT_PROGBITS: an older MIP named their sections explicitly)
 * linked with objects whose counters that start as zeros take none
 * (SHT_NOBITS; docs/instrumentation.md, "Counter sections"), which GNU ld
 * and gold keep apart, lld not. The runtime writes the section its
 * __start_/__stop_ symbols bound, so the other's functions would be
 * missing from every profile: refused. */
static int check_counter_sections(struct elf_image *img,
                                  struct mip_error *err) {
  GElf_Ehdr ehdr;
  if (!gelf_getehdr(img->elf, &ehdr) || ehdr.e_type == ET_REL)
    return 0; /* an object has a counter section per function */
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  if (sections_named(img, #section) > 1)                                       \
    return mip_fail(err, img->path,                                            \
                    "two sections named " #section ": objects instrumented "   \
                    "by an older MIP, whose counters take file bytes, linked " \
                    "with this one's (GNU ld and gold keep them apart); "      \
                    "rebuild every object with this MIP");
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  return 0;
}

int elf_image_map(struct elf_image *img, GElf_Shdr *shdr, Elf_Data **data,
                  struct mip_map *map, struct mip_error *err) {
  memset(map, 0, sizeof *map);
  if (check_counter_sections(img, err))
    return -1;
  Elf_Scn *scn = elf_image_section(img, MIP_MAP_SECTION, shdr);
  if (!scn)
    return mip_fail(err, img->path,
                    "no MIP map (no " MIP_MAP_SECTION " section): build with "
                    "-fmip-generate, and extract before stripping");
  if (elf_image_section_data(img, scn, data, err) ||
      mip_map_parse((*data)->d_buf, (*data)->d_size, img->path, map, err))
    return -1;
  return 0;
}

uint64_t *elf_image_map_entries(struct elf_image *img, size_t *count) {
  GElf_Shdr shdr;
  Elf_Data *data;
  struct mip_error ignored;
  struct mip_map map = {0};
  uint64_t *entries = NULL;
  *count = 0;
  Elf_Scn *scn = elf_image_section(img, MIP_MAP_SECTION, &shdr);
  if (scn && elf_image_section_data(img, scn, &data, &ignored) == 0 &&
      mip_map_parse(data->d_buf, data->d_size, img->path, &map, &ignored) ==
          0 &&
      map.function_count) {
    entries = mip_xcalloc(map.function_count, sizeof *entries);
    for (size_t i = 0; i < map.function_count; i++)
      entries[i] = map.functions[i].entry;
    *count = map.function_count;
  }
  mip_map_free(&map);
  return entries;
}

static int note_build_id(Elf_Data *data, struct mip_build_id *id) {
  GElf_Nhdr nhdr;
  size_t offset = 0, name_at, desc_at;
  while ((offset = gelf_getnote(data, offset, &nhdr, &name_at, &desc_at))) {
    const char *name = (const char *)data->d_buf + name_at;
    if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
        memcmp(name, "GNU", 4) == 0 && nhdr.n_descsz <= MIP_BUILD_ID_MAX) {
      id->size = nhdr.n_descsz;
      memcpy(id->bytes, (const char *)data->d_buf + desc_at, nhdr.n_descsz);
      return 1;
    }
  }
  return 0;
}

void elf_image_build_id(struct elf_image *img, struct mip_build_id *id) {
  id->size = 0;
  for (Elf_Scn *scn = elf_nextscn(img->elf, NULL); scn;
       scn = elf_nextscn(img->elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
      continue;
    Elf_Data *data = elf_getdata(scn, NULL);
    if (data && note_build_id(data, id))
      return;
  }
}

static int by_symbol_addr(const void *a, const void *b) {
  const struct elf_function *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return (x->size < y->size) - (x->size > y->size); /* largest first */
}

static Elf_Scn *symbol_table(struct elf_image *img, GElf_Shdr *shdr) {
  Elf_Scn *found = NULL;
  for (Elf_Scn *scn = elf_nextscn(img->elf, NULL); scn;
       scn = elf_nextscn(img->elf, scn)) {
    GElf_Shdr h;
    if (!gelf_getshdr(scn, &h))
      continue;
    if (h.sh_type == SHT_SYMTAB || (h.sh_type == SHT_DYNSYM && !found)) {
      found = scn;
      *shdr = h;
    }
  }
  return found;
}

static const char *symbol_name(struct elf_image *img, const GElf_Shdr *shdr,
                               const GElf_Sym *sym) {
  const char *name = elf_strptr(img->elf, shdr->sh_link, sym->st_name);
  return name ? name : "";
}

struct elf_function *elf_image_function_symbols(struct elf_image *img,
                                                size_t *count) {
  *count = 0;
  GElf_Shdr shdr;
  Elf_Scn *scn = symbol_table(img, &shdr);
  Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
  if (!data || !shdr.sh_entsize)
    return NULL;
  size_t n = shdr.sh_size / shdr.sh_entsize;
  /* An Arm function's symbol says Thumb state by bit 0 of its address. */
  GElf_Ehdr ehdr;
  uint64_t thumb_bit = gelf_getehdr(img->elf, &ehdr) && ehdr.e_machine == EM_ARM;
  struct elf_function *out = mip_xcalloc(n ? n : 1, sizeof *out);
  const char *file = "";
  for (size_t i = 0; i < n; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(data, (int)i, &sym))
      continue;
    if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
      file = symbol_name(img, &shdr, &sym);
    if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF)
      out[(*count)++] = (struct elf_function){
          sym.st_value & ~thumb_bit, sym.st_size, symbol_name(img, &shdr, &sym),
          GELF_ST_BIND(sym.st_info) == STB_LOCAL ? file : ""};
  }
  if (*count)
    qsort(out, *count, sizeof *out, by_symbol_addr);
  size_t kept = 0;
  for (size_t i = 0; i < *count; i++)
    if (!kept || out[kept - 1].addr != out[i].addr)
      out[kept++] = out[i];
  *count = kept;
  return out;
}

struct mip_symbol *elf_image_functions(struct elf_image *img, size_t *count) {
  size_t n;
  struct elf_function *symbols = elf_image_function_symbols(img, &n);
  struct mip_symbol *out = symbols ? mip_xcalloc(n ? n : 1, sizeof *out) : NULL;
  *count = 0;
  for (size_t i = 0; i < n; i++)
    if (symbols[i].size)
      out[(*count)++] = (struct mip_symbol){symbols[i].addr, symbols[i].size};
  free(symbols);
  return out;
}

int elf_image_check_build(const char *path, const struct mip_build_id *want,
                          struct mip_error *err) {
  struct elf_image img;
  if (elf_image_open(path, &img, err))
    return -1;
  struct mip_build_id id;
  elf_image_build_id(&img, &id);
  elf_image_close(&img);
  if (want->size && id.size && !mip_build_id_equal(&id, want)) {
    char a[2 * MIP_BUILD_ID_MAX + 1], b[2 * MIP_BUILD_ID_MAX + 1];
    return mip_fail(err, path, "build-id %s does not match the profile's (%s)",
                    mip_build_id_hex(&id, a, sizeof a),
                    mip_build_id_hex(want, b, sizeof b));
  }
  return 0;
}
