/*
 * mipdata extract BINARY [-o OUT]
 * Copies the map section out of a linked binary, with its build-id and its
 * function symbols (which place call sites in their callers), into a
 * .mipmap file. The binary may be stripped afterwards; the map is all that
 * later commands need from it (plus DWARF for source locations).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "elf_image.h"
#include "escape.h"

/* The map's idea of each counter section must match the ELF section
 * headers: if not, the map and the binary did not come out of one link. */
static int check_extents(struct elf_image *img, const struct mip_map *map,
                         struct mip_error *err) {
  for (size_t i = 0; i < map->extent_count; i++) {
    const struct mip_extent *e = &map->extents[i];
    const char *name = mip_raw_kind_section(e->kind);
    GElf_Shdr shdr;
    if (!name || !elf_image_section(img, name, &shdr))
      return mip_fail(err, img->path, "map names counter section %s, which "
                                      "the binary lacks",
                      name ? name : "(unknown)");
    if (shdr.sh_addr != e->link_addr || shdr.sh_size != e->size)
      return mip_fail(err, img->path,
                      "map and section %s disagree (0x%" PRIx64 "+%" PRIu64
                      " vs 0x%" PRIx64 "+%" PRIu64 ")",
                      name, e->link_addr, e->size, (uint64_t)shdr.sh_addr,
                      (uint64_t)shdr.sh_size);
  }
  return 0;
}

/* "OUT: N functions[, M heap sites][, K with block counts]". */
static void say_what(const char *out, const struct mip_map *map) {
  printf("%s: %zu functions", text_safe(out), map->function_count);
  if (map->heap_site_count)
    printf(", %zu heap sites", map->heap_site_count);
  if (map->edge_counts_count)
    printf(", %zu with block counts", map->edge_counts_count);
  printf("%s\n", map->discarded ? " (and some the linker discarded)" : "");
}

static int extract(const char *binary, const char *out,
                   struct mip_error *err) {
  struct elf_image img;
  if (elf_image_open(binary, &img, err))
    return -1;
  GElf_Shdr shdr;
  Elf_Data *data = NULL;
  struct mip_map map;
  int rc = -1;
  if (elf_image_map(&img, &shdr, &data, &map, err) == 0 &&
      check_extents(&img, &map, err) == 0) {
    elf_image_build_id(&img, &map.build_id);
    size_t symbol_count;
    struct mip_symbol *symbols = elf_image_functions(&img, &symbol_count);
    struct mip_buf bytes = {0};
    mip_mapfile_encode(&map.build_id, data->d_buf, data->d_size, symbols,
                       symbol_count, &bytes);
    output_file(out, &bytes);
    free(symbols);
    rc = 0;
    say_what(out, &map);
  }
  mip_map_free(&map);
  elf_image_close(&img);
  return rc;
}

int cmd_extract(int argc, char **argv) {
  const char *out = "default.mipmap";
  struct opt options[] = {
      OPT_OUTPUT(&out, "OUT.mipmap", "the map file to write"),
      OPT_END,
  };
  struct cli cli = {.command = "extract", .operands = "BINARY",
                    .noun = "binary", .min = 1, .max = 1, .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  return extract(cli.operand[0], out, &err) ? report(&err) : 0;
}
