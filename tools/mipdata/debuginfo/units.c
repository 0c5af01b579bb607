/*
 * Opening a binary: its ELF image (build-id, symbol table, .debug_line),
 * then each compile unit once, in order: its files (as libdwarf names
 * them), its line table (lines.c), its DIE tree (subprograms.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "elf_image.h"
#include "index.h"

void debuginfo_corrupt(struct debuginfo *di, const char *fmt, ...) {
  if (di->corrupt[0])
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(di->corrupt, sizeof di->corrupt, fmt, ap);
  va_end(ap);
}

int unit_has_file(const struct unit *u, Dwarf_Unsigned number) {
  Dwarf_Signed i = (Dwarf_Signed)number - u->file_base;
  return i >= 0 && i < u->file_count;
}

uint32_t unit_file(const struct unit *u, Dwarf_Unsigned number) {
  Dwarf_Signed i = (Dwarf_Signed)number - u->file_base;
  return unit_has_file(u, number) ? u->files[i] : 0;
}

/* The unit's file names, interned in its files table. */
static void read_files(struct unit *u, Dwarf_Die cu) {
  Dwarf_Error e = NULL;
  char **names = NULL;
  if (dwarf_srcfiles(cu, &names, &u->file_count, &e) != DW_DLV_OK) {
    drop_error(u->dbg, &e);
    u->file_count = 0;
  }
  u->files = mip_xcalloc((size_t)u->file_count + 1, sizeof *u->files);
  for (Dwarf_Signed i = 0; i < u->file_count; i++) {
    u->files[i] = mip_intern_path(&u->di->interner, names[i]);
    dwarf_dealloc(u->dbg, names[i], DW_DLA_STRING);
  }
  if (names)
    dwarf_dealloc(u->dbg, names, DW_DLA_LIST);
}

/* The offset in .debug_line of the unit's line table (DW_AT_stmt_list);
 * 0 when it has one. */
static int stmt_list(struct unit *u, Dwarf_Die cu, uint64_t *offset) {
  Dwarf_Error e = NULL;
  Dwarf_Attribute attr;
  Dwarf_Off off = 0;
  Dwarf_Unsigned udata;
  int rc = -1;
  if (dwarf_attr(cu, DW_AT_stmt_list, &attr, &e) != DW_DLV_OK) {
    drop_error(u->dbg, &e);
    return -1;
  }
  if (dwarf_global_formref(attr, &off, &e) == DW_DLV_OK) {
    *offset = off;
    rc = 0;
  } else if ((drop_error(u->dbg, &e), dwarf_formudata(attr, &udata, &e)) ==
             DW_DLV_OK) {
    *offset = udata;
    rc = 0;
  }
  drop_error(u->dbg, &e);
  dwarf_dealloc_attribute(attr);
  return rc;
}

/* The unit's DW_AT_rnglists_base as libdwarf takes it: the last one of
 * the DIE's attributes (its loop over them keeps the last). */
static void read_rnglists_base(struct unit *u, Dwarf_Die cu) {
  Dwarf_Error e = NULL;
  Dwarf_Attribute *attrs = NULL;
  Dwarf_Signed count = 0;
  if (dwarf_attrlist(cu, &attrs, &count, &e) != DW_DLV_OK) {
    drop_error(u->dbg, &e);
    return;
  }
  for (Dwarf_Signed i = 0; i < count; i++) {
    Dwarf_Half name = 0;
    Dwarf_Off base;
    if (dwarf_whatattr(attrs[i], &name, &e) == DW_DLV_OK &&
        name == DW_AT_rnglists_base &&
        dwarf_global_formref(attrs[i], &base, &e) == DW_DLV_OK) {
      u->has_rnglists_base = 1;
      u->rnglists_base = base;
    }
    drop_error(u->dbg, &e);
    dwarf_dealloc_attribute(attrs[i]);
  }
  dwarf_dealloc(u->dbg, attrs, DW_DLA_LIST);
}

static void read_unit(struct debuginfo *di, Dwarf_Debug dbg, uint32_t index,
                      Dwarf_Half version, const uint8_t *lines,
                      size_t line_size) {
  Dwarf_Error e = NULL;
  Dwarf_Die cu = NULL;
  if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &e) != DW_DLV_OK) {
    drop_error(dbg, &e);
    return;
  }
  struct unit u = {.di = di,
                   .dbg = dbg,
                   .index = index,
                   .version = version,
                   .file_base = version >= 5 ? 0 : 1};
  read_rnglists_base(&u, cu);
  Dwarf_Addr low;
  if (dwarf_lowpc(cu, &low, &e) == DW_DLV_OK)
    u.base = low;
  drop_error(dbg, &e);
  uint64_t table;
  int has_table = stmt_list(&u, cu, &table) == 0;
  if (has_table && lines_check_files(&u, lines, line_size, table)) {
    dwarf_dealloc_die(cu); /* the binary is refused */
    return;
  }
  read_files(&u, cu);
  if (has_table)
    lines_read(&u, lines, line_size, table);
  subprograms_read(&u, cu); /* deallocates cu */
  free(u.files);
}

/* Returns the number of compile units. */
static size_t read_units(struct debuginfo *di, Dwarf_Debug dbg,
                         const uint8_t *lines, size_t line_size) {
  uint32_t units = 0;
  for (;;) {
    Dwarf_Unsigned header_length, abbrev, next, typeoffset;
    Dwarf_Half version, address_size, length_size, extension_size, unit_type;
    Dwarf_Sig8 signature;
    Dwarf_Error e = NULL;
    int rc = dwarf_next_cu_header_d(
        dbg, 1, &header_length, &version, &abbrev, &address_size, &length_size,
        &extension_size, &signature, &typeoffset, &next, &unit_type, &e);
    drop_error(dbg, &e);
    if (rc != DW_DLV_OK || di->corrupt[0])
      break;
    read_unit(di, dbg, units++, version, lines, line_size);
  }
  return units;
}

/* The bytes of a section (decompressed), or none. */
static const uint8_t *section_bytes(struct elf_image *img, const char *name,
                                    size_t *size) {
  GElf_Shdr shdr;
  Elf_Data *data;
  struct mip_error ignored;
  Elf_Scn *scn = elf_image_section(img, name, &shdr);
  *size = 0;
  if (!scn || elf_image_section_data(img, scn, &data, &ignored))
    return NULL;
  *size = data->d_size;
  return data->d_buf;
}

/* Reads the DWARF of img; returns the number of compile units, 0 with
 * err set when there is none or it cannot be read. */
static size_t read_dwarf(struct debuginfo *di, struct elf_image *img,
                         struct mip_error *err) {
  size_t line_size, units = 0;
  const uint8_t *lines = section_bytes(img, ".debug_line", &line_size);
  di->rnglists.data = section_bytes(img, ".debug_rnglists", &di->rnglists.size);
  if (rnglists_check_tables(di)) {
    mip_fail(err, img->path, "corrupt DWARF: %s", di->corrupt);
    return 0;
  }
  /* libdwarf reads the sections through the same libelf handle: the
   * sections checked above are the ones it reads (its own ELF reader
   * could find others in a corrupt file). */
  Dwarf_Debug dbg = NULL;
  Dwarf_Error e = NULL;
  int rc = dwarf_elf_init_b(img->elf, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL,
                            NULL, &dbg, &e);
  if (rc == DW_DLV_OK) {
    units = read_units(di, dbg, lines, line_size);
    dwarf_finish(dbg, &e);
    if (di->corrupt[0]) {
      rc = DW_DLV_ERROR;
      units = 0;
      mip_fail(err, img->path, "corrupt DWARF: %s", di->corrupt);
    }
  } else if (rc == DW_DLV_ERROR) {
    mip_fail(err, img->path, "cannot read DWARF: %s", dwarf_errmsg(e));
  }
  if (e)
    dwarf_dealloc_error(NULL, e);
  if (rc != DW_DLV_ERROR && !units) /* only MIP's own .debug_mip, say */
    mip_fail(err, img->path, "no debug information (build with -g)");
  return units;
}

struct debuginfo *debuginfo_open(const char *path, struct mip_error *err) {
  struct elf_image img;
  if (elf_image_open(path, &img, err))
    return NULL;
  struct debuginfo *di = mip_xcalloc(1, sizeof *di);
  mip_buf_extend(&di->strings, 1); /* offset 0: "" */
  mip_interner_init(&di->interner, &di->strings, 0);
  elf_image_build_id(&img, &di->build_id);
  symbols_read(di, &img);
  if (!read_dwarf(di, &img, err)) {
    elf_image_close(&img);
    debuginfo_close(di);
    return NULL;
  }
  lines_finish(di);
  subprograms_finish(di);
  lookup_program(di, &img);
  elf_image_close(&img);
  return di;
}

void debuginfo_close(struct debuginfo *di) {
  if (!di)
    return;
  mip_buf_free(&di->strings);
  mip_interner_free(&di->interner);
  free(di->rows);
  free(di->seqs);
  free(di->seq_max_hi);
  free(di->scopes);
  free(di->subs);
  free(di->sub_ranges);
  free(di->sub_max_hi);
  free(di->inlines);
  free(di->decls);
  free(di->symbols);
  free(di->origins.keys);
  free(di->origins.names);
  free(di->rnglists.tables);
  free(di);
}
