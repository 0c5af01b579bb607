/*
 * The DIE tree of a compile unit, walked once: every subprogram that has
 * code (low_pc/high_pc or DW_AT_ranges) with its ranges and name, and
 * inside it every DW_TAG_inlined_subroutine with its ranges, its depth of
 * inlining and the place it was called from (call_file, call_line,
 * call_column); and for every subprogram with a low_pc, the file and line
 * of its declaration.
 *
 * Names are linkage names, followed through DW_AT_abstract_origin and
 * DW_AT_specification (the name of the function, not of the call), else
 * DW_AT_name, as LLVM's findRecursively looks. Declarations reached the
 * same way (C++ members defined out of line, concrete copies of inline
 * functions) lend their file and line. An address in a subprogram gives
 * the inlined subroutines of that subprogram that hold it, innermost
 * first: that is the chain of frames, as llvm-symbolizer gives it. Where
 * several compile units claim an address (code a linker folded), the
 * first unit wins, as in LLVM.
 */
#include <stdlib.h>
#include <string.h>

#include "index.h"

/* How many references (abstract origin, specification) are followed. */
#define MAX_REFERENCES 8

/* ---- names of abstract origins, cached by DIE offset ------------------ */

static uint64_t hash_u64(uint64_t v) {
  v *= 0x9e3779b97f4a7c15ULL;
  return v ^ (v >> 29);
}

static size_t origin_slot(const struct origin_names *o, uint64_t key) {
  size_t mask = o->cap - 1;
  size_t i = hash_u64(key) & mask;
  while (o->keys[i] && o->keys[i] != key + 1)
    i = (i + 1) & mask;
  return i;
}

static void origin_put(struct origin_names *o, uint64_t key, uint32_t name) {
  if (2 * (o->count + 1) > o->cap) {
    struct origin_names old = *o;
    o->cap = old.cap ? 2 * old.cap : 1024;
    o->keys = mip_xcalloc(o->cap, sizeof *o->keys);
    o->names = mip_xcalloc(o->cap, sizeof *o->names);
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i]) {
        size_t slot = origin_slot(o, old.keys[i] - 1);
        o->keys[slot] = old.keys[i];
        o->names[slot] = old.names[i];
      }
    free(old.keys);
    free(old.names);
  }
  size_t slot = origin_slot(o, key);
  o->count += !o->keys[slot];
  o->keys[slot] = key + 1;
  o->names[slot] = name;
}

static int origin_get(const struct origin_names *o, uint64_t key,
                      uint32_t *name) {
  if (!o->cap)
    return 0;
  size_t slot = origin_slot(o, key);
  if (!o->keys[slot])
    return 0;
  *name = o->names[slot];
  return 1;
}

/* ---- names and declarations -------------------------------------------- */

/* Calls found(u, d, ctx) on die, then on each DIE it refers to, until one
 * returns 1. Returns that, or 0. */
static int find_recursively(struct unit *u, Dwarf_Die die,
                            int (*found)(struct unit *, Dwarf_Die, void *),
                            void *ctx) {
  Dwarf_Die chain[MAX_REFERENCES];
  int n = 0, rc = 0;
  for (Dwarf_Die d = die; d && !(rc = found(u, d, ctx));)
    d = n < MAX_REFERENCES ? (chain[n++] = die_referenced(u->dbg, d)) : NULL;
  while (n)
    if (chain[--n])
      dwarf_dealloc_die(chain[n]);
  return rc;
}

struct name_search {
  const Dwarf_Half *kinds; /* attributes to look for, 0-terminated */
  char buf[4096];
};

static int has_name(struct unit *u, Dwarf_Die d, void *ctx) {
  struct name_search *s = ctx;
  for (const Dwarf_Half *k = s->kinds; *k; k++)
    if (die_string(u->dbg, d, *k, s->buf, sizeof s->buf) == 0)
      return 1;
  return 0;
}

/* The linkage name of die or of what it refers to, else the plain name. */
static uint32_t die_name(struct unit *u, Dwarf_Die die) {
  static const Dwarf_Half linkage[] = {DW_AT_linkage_name,
                                       DW_AT_MIPS_linkage_name, 0};
  static const Dwarf_Half plain[] = {DW_AT_name, 0};
  struct name_search s;
  s.kinds = linkage;
  if (find_recursively(u, die, has_name, &s))
    return mip_intern(&u->di->interner, s.buf);
  s.kinds = plain;
  if (find_recursively(u, die, has_name, &s))
    return mip_intern(&u->di->interner, s.buf);
  return 0;
}

/* The name of an inlined call's function, through its abstract origin. */
static uint32_t inline_name(struct unit *u, Dwarf_Die die) {
  Dwarf_Off off;
  uint32_t name;
  if (die_ref(u->dbg, die, DW_AT_abstract_origin, &off) != 0)
    return die_name(u, die);
  if (origin_get(&u->di->origins, off, &name))
    return name;
  Dwarf_Die origin = NULL;
  Dwarf_Error e = NULL;
  name = 0;
  if (dwarf_offdie_b(u->dbg, off, 1, &origin, &e) == DW_DLV_OK) {
    name = die_name(u, origin);
    dwarf_dealloc_die(origin);
  }
  drop_error(u->dbg, &e);
  origin_put(&u->di->origins, off, name);
  return name;
}

static int has_declaration(struct unit *u, Dwarf_Die d, void *ctx) {
  Dwarf_Unsigned *file_line = ctx;
  return die_udata(u->dbg, d, DW_AT_decl_file, &file_line[0]) == 0 &&
         die_udata(u->dbg, d, DW_AT_decl_line, &file_line[1]) == 0;
}

static void add_declaration(struct unit *u, Dwarf_Die die, uint64_t entry) {
  Dwarf_Unsigned file_line[2];
  if (!find_recursively(u, die, has_declaration, file_line) ||
      !unit_has_file(u, file_line[0]))
    return;
  struct debuginfo *di = u->di;
  GROW(di->decls, di->decl_count, di->decl_cap);
  di->decls[di->decl_count] =
      (struct declaration){entry, unit_file(u, file_line[0]),
                           (uint32_t)file_line[1], (uint32_t)di->decl_count};
  di->decl_count++;
}

/* ---- the DIE tree ------------------------------------------------------ */

static uint32_t add_scope(struct debuginfo *di, struct scope sc) {
  GROW(di->scopes, di->scope_count, di->scope_cap);
  di->scopes[di->scope_count] = sc;
  return (uint32_t)di->scope_count++;
}

static uint32_t add_subprogram(struct unit *u, Dwarf_Die die,
                               const struct ranges *r) {
  struct debuginfo *di = u->di;
  uint32_t scope = add_scope(di, (struct scope){die_name(u, die), 0, 0, 0, 0});
  GROW(di->subs, di->sub_count, di->sub_cap);
  di->subs[di->sub_count] = (struct subprogram){scope, u->index, 0, 0};
  for (int i = 0; i < r->n; i++) {
    GROW(di->sub_ranges, di->sub_range_count, di->sub_range_cap);
    di->sub_ranges[di->sub_range_count++] =
        (struct range){{r->lo[i], r->hi[i]}, (uint32_t)di->sub_count, 0};
  }
  return (uint32_t)di->sub_count++;
}

static void add_inline(struct unit *u, Dwarf_Die die, const struct ranges *r,
                       uint32_t sub, uint32_t depth) {
  struct debuginfo *di = u->di;
  Dwarf_Unsigned file = 0, line = 0, column = 0;
  die_udata(u->dbg, die, DW_AT_call_file, &file);
  die_udata(u->dbg, die, DW_AT_call_line, &line);
  die_udata(u->dbg, die, DW_AT_call_column, &column);
  uint32_t scope =
      add_scope(di, (struct scope){inline_name(u, die), unit_file(u, file),
                                   (uint32_t)line, (uint32_t)column, depth});
  for (int i = 0; i < r->n; i++) {
    GROW(di->inlines, di->inline_count, di->inline_cap);
    di->inlines[di->inline_count++] =
        (struct range){{r->lo[i], r->hi[i]}, scope, sub};
  }
}

/* Where a DIE is: the subprogram with code it is in (NONE outside any),
 * the inlined calls around it, whether one of them holds it (an inlined
 * copy declares nothing: its code is its caller's). */
struct place {
  uint32_t sub, depth;
  int inlined;
};

/* Reads one DIE; returns where its children are. */
static struct place read_die(struct unit *u, Dwarf_Die die, struct place at) {
  Dwarf_Error e = NULL;
  Dwarf_Half tag = 0;
  if (dwarf_tag(die, &tag, &e) != DW_DLV_OK)
    tag = 0;
  drop_error(u->dbg, &e);
  struct ranges r;
  if (tag == DW_TAG_subprogram) {
    die_ranges(u, die, &r);
    if (r.has_low_pc && !at.inlined)
      add_declaration(u, die, r.low_pc);
    if (r.n)
      at = (struct place){add_subprogram(u, die, &r), 0, at.inlined};
  } else if (tag == DW_TAG_inlined_subroutine) {
    at.inlined = 1;
    if (at.sub != NONE) {
      die_ranges(u, die, &r);
      at.depth++;
      if (r.n)
        add_inline(u, die, &r, at.sub, at.depth);
    }
  }
  return at;
}

/* Walks die and its siblings, deallocating them. */
static void walk(struct unit *u, Dwarf_Die die, struct place at, int level) {
  Dwarf_Error e = NULL;
  while (die && !u->di->corrupt[0]) {
    struct place inside = read_die(u, die, at);
    Dwarf_Die child = NULL;
    if (level < 256 && dwarf_child(die, &child, &e) == DW_DLV_OK)
      walk(u, child, inside, level + 1);
    drop_error(u->dbg, &e);
    Dwarf_Die next = NULL;
    if (dwarf_siblingof_b(u->dbg, die, 1, &next, &e) != DW_DLV_OK)
      next = NULL;
    drop_error(u->dbg, &e);
    dwarf_dealloc_die(die);
    die = next;
  }
  if (die) /* the walk stopped: the binary is refused */
    dwarf_dealloc_die(die);
}

void subprograms_read(struct unit *u, Dwarf_Die cu) {
  walk(u, cu, (struct place){NONE, 0, 0}, 0);
}

/* ---- sorting and finding ----------------------------------------------- */

static int by_lo(const void *a, const void *b) {
  const struct range *x = a, *y = b;
  return (x->at.lo > y->at.lo) - (x->at.lo < y->at.lo);
}

static int by_sub_then_lo(const void *a, const void *b) {
  const struct range *x = a, *y = b;
  if (x->sub != y->sub)
    return x->sub < y->sub ? -1 : 1;
  return by_lo(a, b);
}

static int by_entry(const void *a, const void *b) {
  const struct declaration *x = a, *y = b;
  if (x->entry != y->entry)
    return x->entry < y->entry ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

void subprograms_finish(struct debuginfo *di) {
  if (di->sub_range_count)
    qsort(di->sub_ranges, di->sub_range_count, sizeof *di->sub_ranges, by_lo);
  di->sub_max_hi =
      spans_max_hi(di->sub_ranges, di->sub_range_count, sizeof *di->sub_ranges);
  if (di->inline_count)
    qsort(di->inlines, di->inline_count, sizeof *di->inlines, by_sub_then_lo);
  for (size_t i = 0; i < di->inline_count; i++) {
    struct subprogram *sub = &di->subs[di->inlines[i].sub];
    if (!sub->inline_count)
      sub->first_inline = (uint32_t)i;
    sub->inline_count++;
  }
  if (di->decl_count)
    qsort(di->decls, di->decl_count, sizeof *di->decls, by_entry);
  free(di->origins.keys);
  free(di->origins.names);
  memset(&di->origins, 0, sizeof di->origins);
}

const struct subprogram *subprograms_find(const struct debuginfo *di,
                                          uint64_t addr) {
  size_t end;
  UPPER_BOUND(di->sub_ranges, di->sub_range_count, at.lo, addr, end);
  const struct subprogram *best = NULL;
  uint64_t best_size = 0;
  for (size_t i = end; i-- > 0 && di->sub_max_hi[i] > addr;) {
    const struct range *r = &di->sub_ranges[i];
    if (addr >= r->at.hi)
      continue;
    const struct subprogram *sub = &di->subs[r->owner];
    if (!best || sub->cu < best->cu ||
        (sub->cu == best->cu && r->at.hi - r->at.lo < best_size)) {
      best = sub;
      best_size = r->at.hi - r->at.lo;
    }
  }
  return best;
}
