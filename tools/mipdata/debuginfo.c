/*
 * Walks every compile unit's DIE tree once, keeping (low_pc, decl_file,
 * decl_line) for each subprogram that has code, then answers look-ups by
 * binary search. Declarations reached through DW_AT_specification or
 * DW_AT_abstract_origin (C++ members defined out of line, concrete copies
 * of inline functions) lend their file and line.
 */
#include <dwarf.h>
#include <errno.h>
#include <fcntl.h>
#include <libdwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debuginfo.h"
#include "elf_image.h"

struct function_loc {
  uint64_t entry;
  uint32_t file; /* index into files */
  uint32_t line;
};

struct debuginfo {
  int program_dwarf; /* DWARF knows the program's own functions */
  struct function_loc *locs;
  size_t count, cap;
  char **files; /* distinct file names, owned */
  size_t file_count, file_cap;
};

/* One compile unit being walked. */
struct cu_walk {
  Dwarf_Debug dbg;
  struct debuginfo *di;
  char **srcfiles;
  Dwarf_Signed srcfile_count;
  int dwarf5; /* file numbers start at 0 in DWARF 5, at 1 before */
  uint32_t *file_ids; /* srcfiles index -> di->files index, lazily */
};

static void drop_error(Dwarf_Debug dbg, Dwarf_Error *e) {
  if (*e) {
    dwarf_dealloc_error(dbg, *e);
    *e = NULL;
  }
}

static int attr_udata(struct cu_walk *w, Dwarf_Die die, Dwarf_Half name,
                      Dwarf_Unsigned *out) {
  Dwarf_Attribute attr;
  Dwarf_Error e = NULL;
  if (dwarf_attr(die, name, &attr, &e) != DW_DLV_OK) {
    drop_error(w->dbg, &e);
    return -1;
  }
  int rc = dwarf_formudata(attr, out, &e) == DW_DLV_OK ? 0 : -1;
  drop_error(w->dbg, &e);
  dwarf_dealloc_attribute(attr);
  return rc;
}

/* The DIE that die's DW_AT_specification or DW_AT_abstract_origin names. */
static Dwarf_Die referenced_die(struct cu_walk *w, Dwarf_Die die) {
  static const Dwarf_Half refs[] = {DW_AT_specification,
                                    DW_AT_abstract_origin};
  for (size_t i = 0; i < 2; i++) {
    Dwarf_Attribute attr;
    Dwarf_Error e = NULL;
    if (dwarf_attr(die, refs[i], &attr, &e) != DW_DLV_OK) {
      drop_error(w->dbg, &e);
      continue;
    }
    Dwarf_Off off;
    Dwarf_Die target = NULL;
    if (dwarf_global_formref(attr, &off, &e) != DW_DLV_OK ||
        dwarf_offdie_b(w->dbg, off, 1, &target, &e) != DW_DLV_OK)
      target = NULL;
    drop_error(w->dbg, &e);
    dwarf_dealloc_attribute(attr);
    if (target)
      return target;
  }
  return NULL;
}

/* decl_file and decl_line of die, or of the declaration it refers to. */
static int declaration(struct cu_walk *w, Dwarf_Die die, Dwarf_Unsigned *file,
                       Dwarf_Unsigned *line) {
  Dwarf_Die owned[4];
  int n = 0, rc = -1;
  for (Dwarf_Die d = die; d; d = n < 4 ? referenced_die(w, d) : NULL) {
    if (d != die)
      owned[n++] = d;
    if (attr_udata(w, d, DW_AT_decl_file, file) == 0 &&
        attr_udata(w, d, DW_AT_decl_line, line) == 0) {
      rc = 0;
      break;
    }
  }
  while (n)
    dwarf_dealloc_die(owned[--n]);
  return rc;
}

/* "dir/./file.h" as "dir/file.h": DWARF joins include directories and
 * names as the compiler saw them. */
static char *tidy_path(const char *path) {
  char *out = mip_xstrdup(path);
  char *dot;
  while ((dot = strstr(out, "/./")))
    memmove(dot, dot + 2, strlen(dot + 2) + 1);
  return out;
}

static uint32_t intern_file(struct cu_walk *w, Dwarf_Signed index) {
  if (w->file_ids[index] != UINT32_MAX)
    return w->file_ids[index];
  struct debuginfo *di = w->di;
  if (di->file_count == di->file_cap)
    di->files = mip_xrealloc(di->files, di->file_cap = di->file_cap * 2 + 16,
                             sizeof *di->files);
  di->files[di->file_count] = tidy_path(w->srcfiles[index]);
  return w->file_ids[index] = (uint32_t)di->file_count++;
}

static void add_subprogram(struct cu_walk *w, Dwarf_Die die) {
  Dwarf_Addr low;
  Dwarf_Error e = NULL;
  if (dwarf_lowpc(die, &low, &e) != DW_DLV_OK) {
    drop_error(w->dbg, &e);
    return; /* a declaration, or inlined everywhere */
  }
  Dwarf_Unsigned file, line;
  if (declaration(w, die, &file, &line) != 0)
    return;
  Dwarf_Signed index = (Dwarf_Signed)file - (w->dwarf5 ? 0 : 1);
  if (index < 0 || index >= w->srcfile_count)
    return;
  struct debuginfo *di = w->di;
  if (di->count == di->cap)
    di->locs = mip_xrealloc(di->locs, di->cap = di->cap * 2 + 256,
                            sizeof *di->locs);
  di->locs[di->count++] =
      (struct function_loc){low, intern_file(w, index), (uint32_t)line};
}

static void walk(struct cu_walk *w, Dwarf_Die die, int depth) {
  Dwarf_Error e = NULL;
  while (die) {
    Dwarf_Half tag = 0;
    if (dwarf_tag(die, &tag, &e) == DW_DLV_OK && tag == DW_TAG_subprogram)
      add_subprogram(w, die);
    drop_error(w->dbg, &e);
    Dwarf_Die child = NULL;
    /* Functions hide inside namespaces, classes and other functions
     * (local classes); inlined copies have no code of their own. */
    if (tag != DW_TAG_inlined_subroutine && depth < 64 &&
        dwarf_child(die, &child, &e) == DW_DLV_OK)
      walk(w, child, depth + 1);
    drop_error(w->dbg, &e);
    Dwarf_Die next = NULL;
    if (dwarf_siblingof_b(w->dbg, die, 1, &next, &e) != DW_DLV_OK)
      next = NULL;
    drop_error(w->dbg, &e);
    dwarf_dealloc_die(die);
    die = next;
  }
}

static void walk_unit(Dwarf_Debug dbg, struct debuginfo *di,
                      Dwarf_Half version) {
  Dwarf_Error e = NULL;
  Dwarf_Die cu = NULL;
  if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &e) != DW_DLV_OK) {
    drop_error(dbg, &e);
    return;
  }
  struct cu_walk w = {dbg, di, NULL, 0, version >= 5, NULL};
  if (dwarf_srcfiles(cu, &w.srcfiles, &w.srcfile_count, &e) != DW_DLV_OK) {
    drop_error(dbg, &e);
    dwarf_dealloc_die(cu);
    return;
  }
  w.file_ids = mip_xmalloc((size_t)w.srcfile_count * sizeof *w.file_ids + 1);
  memset(w.file_ids, 0xff, (size_t)w.srcfile_count * sizeof *w.file_ids);
  walk(&w, cu, 0);
  for (Dwarf_Signed i = 0; i < w.srcfile_count; i++)
    dwarf_dealloc(dbg, w.srcfiles[i], DW_DLA_STRING);
  dwarf_dealloc(dbg, w.srcfiles, DW_DLA_LIST);
  free(w.file_ids);
}

static int by_entry(const void *a, const void *b) {
  const struct function_loc *x = a, *y = b;
  return (x->entry > y->entry) - (x->entry < y->entry);
}

/* Returns the number of compile units. */
static size_t index_units(Dwarf_Debug dbg, struct debuginfo *di) {
  size_t units = 0;
  for (;;) {
    Dwarf_Unsigned header_length, abbrev, next, typeoffset;
    Dwarf_Half version, address_size, length_size, extension_size, unit_type;
    Dwarf_Sig8 signature;
    Dwarf_Error e = NULL;
    int rc = dwarf_next_cu_header_d(
        dbg, 1, &header_length, &version, &abbrev, &address_size,
        &length_size, &extension_size, &signature, &typeoffset, &next,
        &unit_type, &e);
    drop_error(dbg, &e);
    if (rc != DW_DLV_OK)
      break;
    walk_unit(dbg, di, version);
    units++;
  }
  if (di->count)
    qsort(di->locs, di->count, sizeof *di->locs, by_entry);
  return units;
}

/* Whether DWARF declares any function the map section lists: the MIP
 * runtime in every instrumented binary has DWARF of its own, whether or
 * not the program was built with -g. A binary without a map (not built
 * with MIP) is all program. */
static int covers_program(const struct debuginfo *di, const char *path) {
  struct elf_image img;
  struct mip_error ignored;
  if (elf_image_open(path, &img, &ignored))
    return 1;
  size_t count;
  uint64_t *entries = elf_image_map_entries(&img, &count);
  elf_image_close(&img);
  int found = !entries;
  for (size_t i = 0; i < count && !found; i++) {
    const char *file;
    uint32_t line;
    found = debuginfo_lookup(di, entries[i], &file, &line) == 0;
  }
  free(entries);
  return found;
}

struct debuginfo *debuginfo_open(const char *path, struct mip_error *err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    mip_fail(err, path, "cannot open: %s", strerror(errno));
    return NULL;
  }
  Dwarf_Debug dbg = NULL;
  Dwarf_Error e = NULL;
  int rc = dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, &dbg,
                        &e);
  if (rc != DW_DLV_OK) {
    if (rc == DW_DLV_ERROR)
      mip_fail(err, path, "cannot read DWARF: %s", dwarf_errmsg(e));
    else
      mip_fail(err, path, "no debug information (build with -g)");
    if (e)
      dwarf_dealloc_error(NULL, e);
    close(fd);
    return NULL;
  }
  struct debuginfo *di = mip_xcalloc(1, sizeof *di);
  size_t units = index_units(dbg, di);
  dwarf_finish(dbg, &e);
  close(fd);
  if (units == 0) { /* only MIP's own .debug_mip, say */
    debuginfo_close(di);
    mip_fail(err, path, "no debug information (build with -g)");
    return NULL;
  }
  di->program_dwarf = covers_program(di, path);
  return di;
}

int debuginfo_program_dwarf(const struct debuginfo *di) {
  return di->program_dwarf;
}

void debuginfo_note_program(const struct debuginfo *di, const char *path) {
  if (di && !di->program_dwarf)
    fprintf(stderr,
            "mipdata: %s: note: no debug information for the program's "
            "code (built without -g): its functions have no source "
            "locations\n",
            path);
}

int debuginfo_lookup(const struct debuginfo *di, uint64_t entry,
                     const char **file, uint32_t *line) {
  size_t lo = 0, hi = di->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (di->locs[mid].entry < entry)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == di->count || di->locs[lo].entry != entry)
    return -1;
  *file = di->files[di->locs[lo].file];
  *line = di->locs[lo].line;
  return 0;
}

void debuginfo_close(struct debuginfo *di) {
  if (!di)
    return;
  for (size_t i = 0; i < di->file_count; i++)
    free(di->files[i]);
  free(di->files);
  free(di->locs);
  free(di);
}
