/* What mipdata reads from a linked binary: sections and the build-id. */
#ifndef MIPDATA_ELF_IMAGE_H
#define MIPDATA_ELF_IMAGE_H

#include <gelf.h>

#include "mipfmt.h"

struct elf_image {
  const char *path;
  int fd;
  Elf *elf;
};

int elf_image_open(const char *path, struct elf_image *img,
                   struct mip_error *err);
void elf_image_close(struct elf_image *img);

/* The section called name, decompressed if need be; NULL if absent. */
Elf_Scn *elf_image_section(struct elf_image *img, const char *name,
                           GElf_Shdr *shdr);
/* The section's bytes (decompressed). */
int elf_image_section_data(struct elf_image *img, Elf_Scn *scn,
                           Elf_Data **data, struct mip_error *err);

/* The image's map section (.debug_mip): its header in *shdr, its bytes
 * (decompressed) in *data, checked and parsed into *map (which the caller
 * frees, whatever the result). Fails naming the file when there is none. */
int elf_image_map(struct elf_image *img, GElf_Shdr *shdr, Elf_Data **data,
                  struct mip_map *map, struct mip_error *err);


/* A function symbol: its name and, for a local one, the name of the
 * STT_FILE symbol before it (its source file), "" for none; both point
 * into the image. */
struct elf_function {
  uint64_t addr, size;
  const char *name, *file;
};

/* The image's defined function symbols (.symtab, else .dynsym), sorted by
 * address, one per address (the largest size; of equal sizes, the first);
 * *count 0 when stripped. */
struct elf_function *elf_image_function_symbols(struct elf_image *img,
                                                size_t *count);
/* The same without names, and only those with a size. */
struct mip_symbol *elf_image_functions(struct elf_image *img, size_t *count);

/* The link-time entry addresses of the functions MIP instrumented in the
 * image, from its map section (.debug_mip): the program's own code, as
 * against the MIP runtime linked beside it. NULL, *count 0, when it has
 * no map (not built with MIP) or an unreadable one. */
uint64_t *elf_image_map_entries(struct elf_image *img, size_t *count);

/* The GNU build-id note; id->size is 0 when there is none. */
void elf_image_build_id(struct elf_image *img, struct mip_build_id *id);

/* Checks that the binary at path (--debug) is the build a profile with
 * build-id want came from; either side without a build-id passes. */
int elf_image_check_build(const char *path, const struct mip_build_id *want,
                          struct mip_error *err);

#endif
