/*
 * What the index answers: the frames of an address (DWARF, else the
 * symbol table), the declaration of a function, and whether DWARF knows
 * the program's own code at all.
 */
#include <stdio.h>
#include <stdlib.h>

#include "elf_image.h"
#include "index.h"

const struct mip_build_id *debuginfo_build_id(const struct debuginfo *di) {
  return &di->build_id;
}

int debuginfo_lookup(const struct debuginfo *di, uint64_t entry,
                     const char **file, uint32_t *line) {
  size_t lo = 0, hi = di->decl_count;
  while (lo < hi) { /* the first at or above entry */
    size_t mid = lo + (hi - lo) / 2;
    if (di->decls[mid].entry < entry)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == di->decl_count || di->decls[lo].entry != entry)
    return -1;
  *file = string_at(di, di->decls[lo].file);
  *line = di->decls[lo].line;
  return 0;
}

/* ---- address spans ----------------------------------------------------- */

uint64_t *spans_max_hi(const void *items, size_t count, size_t size) {
  uint64_t *max_hi = mip_xcalloc(count ? count : 1, sizeof *max_hi);
  for (size_t i = 0; i < count; i++) {
    const struct span *s =
        (const struct span *)((const char *)items + i * size);
    max_hi[i] = i && max_hi[i - 1] > s->hi ? max_hi[i - 1] : s->hi;
  }
  return max_hi;
}

/* ---- the program's own code -------------------------------------------- */

static int covers(const struct debuginfo *di, uint64_t entry) {
  return subprograms_find(di, entry) || lines_find(di, entry, NONE);
}

static int declares(const struct debuginfo *di, uint64_t entry) {
  const char *file;
  uint32_t line;
  return debuginfo_lookup(di, entry, &file, &line) == 0;
}

static int any_entry(const struct debuginfo *di, const uint64_t *entries,
                     size_t count,
                     int (*known)(const struct debuginfo *, uint64_t)) {
  for (size_t i = 0; i < count; i++)
    if (known(di, entries[i]))
      return 1;
  return 0;
}

/* Whether DWARF knows the functions of the program's own code, as the map
 * lists them: every binary built with MIP carries the runtime's DWARF,
 * whether or not its own code was built with -g. Without a map (a binary
 * not built with MIP), any DWARF is the program's. */
void lookup_program(struct debuginfo *di, struct elf_image *img) {
  size_t count;
  uint64_t *entries = elf_image_map_entries(img, &count);
  di->covers_program = !entries || any_entry(di, entries, count, covers);
  di->declares_program = !entries || any_entry(di, entries, count, declares);
  free(entries);
}

int debuginfo_covers_program(const struct debuginfo *di) {
  return di->covers_program;
}

void debuginfo_note_program(const struct debuginfo *di, const char *path) {
  if (di && !di->declares_program)
    fprintf(stderr,
            "mipdata: %s: note: no debug information for the program's "
            "code (built without -g): its functions have no source "
            "locations\n",
            path);
}

/* ---- frames ------------------------------------------------------------- */

/* The one frame of an address DWARF's functions do not hold: the symbol
 * table's function, at the line table's row (here) if there is one, else
 * in the file of a local symbol. */
static size_t symbol_frame(struct debuginfo *di, uint64_t addr,
                           const struct row *row, struct mip_frame_info here) {
  const struct symbol *sym = symbols_find(di, addr);
  if (!sym && !row)
    return 0;
  if (sym)
    here.function = string_at(di, sym->name);
  if (sym && !row)
    here.file = string_at(di, sym->file);
  di->frames[0] = here;
  return 1;
}

static int by_depth_desc(const void *a, const void *b) {
  const struct scope *x = *(const struct scope *const *)a;
  const struct scope *y = *(const struct scope *const *)b;
  return (x->depth < y->depth) - (x->depth > y->depth);
}

/* The inlined calls of sub holding addr, innermost first, then sub's own
 * scope; returns how many. */
static size_t scope_chain(const struct debuginfo *di,
                          const struct subprogram *sub, uint64_t addr,
                          const struct scope **chain) {
  size_t n = 0;
  for (uint32_t i = 0; i < sub->inline_count && n < MAX_FRAMES - 1; i++) {
    const struct range *r = &di->inlines[sub->first_inline + i];
    if (r->at.lo > addr)
      break;
    if (addr < r->at.hi)
      chain[n++] = &di->scopes[r->owner];
  }
  if (n > 1)
    qsort(chain, n, sizeof *chain, by_depth_desc);
  chain[n++] = &di->scopes[sub->scope];
  return n;
}

size_t debuginfo_frames(void *ctx, uint64_t addr,
                        const struct mip_frame_info **out) {
  struct debuginfo *di = ctx;
  *out = di->frames;
  const struct subprogram *sub = subprograms_find(di, addr);
  const struct row *row = lines_find(di, addr, sub ? sub->cu : NONE);
  struct mip_frame_info here = {"", "", 0, 0};
  if (row)
    here = (struct mip_frame_info){"", string_at(di, row->file), row->line,
                                   row->column};
  if (!sub)
    return symbol_frame(di, addr, row, here);
  const struct scope *chain[MAX_FRAMES];
  size_t n = scope_chain(di, sub, addr, chain);
  for (size_t i = 0; i < n; i++) {
    const struct scope *call = i ? chain[i - 1] : NULL;
    di->frames[i] =
        call ? (struct mip_frame_info){"", string_at(di, call->call_file),
                                       call->call_line, call->call_column}
             : here;
    di->frames[i].function = string_at(di, chain[i]->name);
  }
  return n;
}
