/*
 * The index is built once, walking every compile unit:
 *
 *   - its line table, as sequences of rows (address, file, line, column),
 *     each row standing for the addresses up to the next row (the line
 *     program is interpreted here, see index_lines);
 *   - every subprogram that has code (low_pc/high_pc or DW_AT_ranges),
 *     and inside it every DW_TAG_inlined_subroutine with its ranges, its
 *     depth of inlining and the place it was called from (call_file,
 *     call_line, call_column).
 *
 * Names are linkage names, followed through DW_AT_abstract_origin and
 * DW_AT_specification (the name of the function, not of the call), else
 * DW_AT_name. An address in a subprogram gives the inlined subroutines of
 * that subprogram that hold it, innermost first: that is the chain of
 * frames, as llvm-symbolizer gives it. Where several compile units claim
 * an address (code a linker folded), the first unit wins, as in LLVM.
 * Addresses DWARF does not cover fall back to the ELF symbol table.
 */
#include <dwarf.h>
#include <fcntl.h>
#include <libdwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_image.h"
#include "symbolize.h"

#define NONE UINT32_MAX

struct row {
  uint64_t addr;
  uint32_t file; /* string offset */
  uint32_t line, column;
};

/* Rows first_row .. first_row + row_count cover [lo, hi). */
struct sequence {
  uint64_t lo, hi;
  uint32_t cu, first_row, row_count;
};

/* A function (depth 0) or an inlined call of one (depth >= 1). */
struct scope {
  uint32_t name; /* string offset */
  uint32_t call_file, call_line, call_column;
  uint32_t depth;
};

struct subprogram {
  uint32_t scope, cu;
  uint32_t first_inline, inline_count; /* in inlines, once sorted */
};

/* An address range of a subprogram, or of an inlined call in one. */
struct range {
  uint64_t lo, hi;
  uint32_t owner; /* subprogram (sub_ranges) or scope (inlines) */
  uint32_t sub;   /* inlines: their subprogram */
};

/* A function symbol; size 0 reaches to the next symbol, as in LLVM. */
struct elf_symbol {
  uint64_t addr, size;
  uint32_t name; /* string offset */
  uint32_t file; /* of a local symbol: the STT_FILE before it */
};

#define MAX_FRAMES 256

struct symbolizer {
  struct mip_build_id build_id;
  int program_dwarf; /* DWARF covers the program's own code */
  struct mip_buf strings; /* interned, offset 0 is "" */
  uint32_t *string_slots;
  size_t string_cap, string_count;

  struct row *rows;
  size_t row_count, row_cap;
  struct sequence *seqs; /* sorted by lo */
  uint64_t *seq_max_hi;  /* the largest hi of seqs[0..i] */
  size_t seq_count, seq_cap;

  struct scope *scopes;
  size_t scope_count, scope_cap;
  struct subprogram *subs;
  size_t sub_count, sub_cap;
  struct range *sub_ranges; /* sorted by lo */
  uint64_t *sub_max_hi;
  size_t sub_range_count, sub_range_cap;
  struct range *inlines; /* grouped by subprogram */
  size_t inline_count, inline_cap;

  struct elf_symbol *symbols; /* sorted by addr */
  size_t symbol_count;

  /* abstract origin DIE offset -> name, while indexing */
  uint64_t *origin_keys;
  uint32_t *origin_names;
  size_t origin_cap, origin_count;

  struct mip_frame_info frames[MAX_FRAMES];
};

#define GROW(array, count, cap)                                                \
  do {                                                                         \
    if ((count) == (cap))                                                      \
      (array) = mip_xrealloc((array), (cap) = (cap)*2 + 64, sizeof *(array));  \
  } while (0)

/* ---- strings -------------------------------------------------------- */

static uint64_t hash_string(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; s++)
    h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
  return h ^ (h >> 31);
}

static void place_string(struct symbolizer *s, uint32_t offset) {
  size_t mask = s->string_cap - 1;
  size_t i = hash_string((const char *)s->strings.data + offset) & mask;
  while (s->string_slots[i])
    i = (i + 1) & mask;
  s->string_slots[i] = offset + 1;
}

static uint32_t intern(struct symbolizer *s, const char *str) {
  if (!str || !*str)
    return 0;
  if (2 * (s->string_count + 1) > s->string_cap) {
    uint32_t *old = s->string_slots;
    size_t old_cap = s->string_cap;
    s->string_cap = old_cap ? 2 * old_cap : 1024;
    s->string_slots = mip_xcalloc(s->string_cap, sizeof *s->string_slots);
    for (size_t i = 0; i < old_cap; i++)
      if (old[i])
        place_string(s, old[i] - 1);
    free(old);
  }
  size_t mask = s->string_cap - 1;
  size_t i = hash_string(str) & mask;
  for (; s->string_slots[i]; i = (i + 1) & mask)
    if (!strcmp((const char *)s->strings.data + s->string_slots[i] - 1, str))
      return s->string_slots[i] - 1;
  uint32_t offset = (uint32_t)s->strings.size;
  mip_buf_append(&s->strings, str, strlen(str) + 1);
  s->string_slots[i] = offset + 1;
  s->string_count++;
  return offset;
}

static const char *string_at(const struct symbolizer *s, uint32_t offset) {
  return (const char *)s->strings.data + offset;
}

/* ---- names of abstract origins, cached by DIE offset ------------------ */

static uint64_t hash_u64(uint64_t v) {
  v *= 0x9e3779b97f4a7c15ULL;
  return v ^ (v >> 29);
}

static uint32_t *origin_slot(struct symbolizer *s, uint64_t key) {
  size_t mask = s->origin_cap - 1;
  size_t i = hash_u64(key) & mask;
  while (s->origin_keys[i] && s->origin_keys[i] != key + 1)
    i = (i + 1) & mask;
  return &s->origin_names[i];
}

static void origin_put(struct symbolizer *s, uint64_t key, uint32_t name) {
  if (2 * (s->origin_count + 1) > s->origin_cap) {
    uint64_t *keys = s->origin_keys;
    uint32_t *names = s->origin_names;
    size_t cap = s->origin_cap;
    s->origin_cap = cap ? 2 * cap : 1024;
    s->origin_keys = mip_xcalloc(s->origin_cap, sizeof *s->origin_keys);
    s->origin_names = mip_xcalloc(s->origin_cap, sizeof *s->origin_names);
    for (size_t i = 0; i < cap; i++)
      if (keys[i]) {
        uint32_t *slot = origin_slot(s, keys[i] - 1);
        s->origin_keys[slot - s->origin_names] = keys[i];
        *slot = names[i];
      }
    free(keys);
    free(names);
  }
  uint32_t *slot = origin_slot(s, key);
  if (!s->origin_keys[slot - s->origin_names])
    s->origin_count++;
  s->origin_keys[slot - s->origin_names] = key + 1;
  *slot = name;
}

static int origin_get(struct symbolizer *s, uint64_t key, uint32_t *name) {
  if (!s->origin_cap)
    return 0;
  uint32_t *slot = origin_slot(s, key);
  if (!s->origin_keys[slot - s->origin_names])
    return 0;
  *name = *slot;
  return 1;
}

/* ---- DIE attributes ------------------------------------------------- */

/* One compile unit being indexed. */
struct unit {
  struct symbolizer *s;
  Dwarf_Debug dbg;
  uint32_t index;
  Dwarf_Half version;
  uint64_t base;   /* the unit's low_pc: base of DWARF 4 range lists */
  uint32_t *files; /* file number -> string offset */
  Dwarf_Signed file_count;
  int file_base; /* the number of files[0]: 0 in DWARF 5, 1 before */
};

static void drop(Dwarf_Debug dbg, Dwarf_Error *e) {
  if (*e) {
    dwarf_dealloc_error(dbg, *e);
    *e = NULL;
  }
}

static int attr_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name,
                      Dwarf_Unsigned *out) {
  Dwarf_Attribute attr;
  Dwarf_Error e = NULL;
  if (dwarf_attr(die, name, &attr, &e) != DW_DLV_OK) {
    drop(dbg, &e);
    return -1;
  }
  int rc = dwarf_formudata(attr, out, &e) == DW_DLV_OK ? 0 : -1;
  drop(dbg, &e);
  dwarf_dealloc_attribute(attr);
  return rc;
}

static const char *attr_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name,
                               char *buf, size_t size) {
  Dwarf_Attribute attr;
  Dwarf_Error e = NULL;
  char *str = NULL;
  if (dwarf_attr(die, name, &attr, &e) != DW_DLV_OK) {
    drop(dbg, &e);
    return NULL;
  }
  if (dwarf_formstring(attr, &str, &e) != DW_DLV_OK)
    str = NULL;
  drop(dbg, &e);
  dwarf_dealloc_attribute(attr);
  if (!str)
    return NULL;
  snprintf(buf, size, "%s", str); /* str lives in the section */
  return buf;
}

/* The global offset of the DIE an attribute refers to. */
static int attr_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name,
                    Dwarf_Off *out) {
  Dwarf_Attribute attr;
  Dwarf_Error e = NULL;
  if (dwarf_attr(die, name, &attr, &e) != DW_DLV_OK) {
    drop(dbg, &e);
    return -1;
  }
  int rc = dwarf_global_formref(attr, out, &e) == DW_DLV_OK ? 0 : -1;
  drop(dbg, &e);
  dwarf_dealloc_attribute(attr);
  return rc;
}

/* The linkage name of die or of what it refers to (abstract origin,
 * specification), else the plain name, as LLVM's findRecursively looks. */
static uint32_t die_name(struct unit *u, Dwarf_Die die) {
  static const Dwarf_Half kinds[2][2] = {
      {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}, {DW_AT_name, 0}};
  char buf[4096];
  for (int pass = 0; pass < 2; pass++) {
    Dwarf_Die chain[8];
    int n = 0;
    const char *found = NULL;
    for (Dwarf_Die d = die; d && !found;) {
      for (int k = 0; k < 2 && kinds[pass][k] && !found; k++)
        found = attr_string(u->dbg, d, kinds[pass][k], buf, sizeof buf);
      Dwarf_Off off;
      Dwarf_Die next = NULL;
      Dwarf_Error e = NULL;
      if (!found && n < 8 &&
          (attr_ref(u->dbg, d, DW_AT_abstract_origin, &off) == 0 ||
           attr_ref(u->dbg, d, DW_AT_specification, &off) == 0) &&
          dwarf_offdie_b(u->dbg, off, 1, &next, &e) == DW_DLV_OK)
        chain[n++] = next;
      else
        next = NULL;
      drop(u->dbg, &e);
      d = next;
    }
    while (n)
      dwarf_dealloc_die(chain[--n]);
    if (found)
      return intern(u->s, found);
  }
  return 0;
}

/* The name of an inlined call's function, through its abstract origin. */
static uint32_t inline_name(struct unit *u, Dwarf_Die die) {
  Dwarf_Off off;
  uint32_t name;
  if (attr_ref(u->dbg, die, DW_AT_abstract_origin, &off) != 0)
    return die_name(u, die);
  if (origin_get(u->s, off, &name))
    return name;
  Dwarf_Die origin = NULL;
  Dwarf_Error e = NULL;
  if (dwarf_offdie_b(u->dbg, off, 1, &origin, &e) == DW_DLV_OK) {
    name = die_name(u, origin);
    dwarf_dealloc_die(origin);
  } else {
    name = 0;
  }
  drop(u->dbg, &e);
  origin_put(u->s, off, name);
  return name;
}

static uint32_t file_name(const struct unit *u, Dwarf_Unsigned number) {
  Dwarf_Signed i = (Dwarf_Signed)number - u->file_base;
  return i >= 0 && i < u->file_count ? u->files[i] : 0;
}

/* ---- address ranges of a DIE ------------------------------------------ */

struct ranges {
  uint64_t lo[64], hi[64];
  int n;
};

static int real_code(uint64_t lo, uint64_t hi) {
  /* 0 and all ones are what linkers leave for discarded code */
  return lo < hi && lo != 0 && hi < UINT64_MAX - 1;
}

static void add_range(struct ranges *r, uint64_t lo, uint64_t hi) {
  if (real_code(lo, hi) && r->n < 64) {
    r->lo[r->n] = lo;
    r->hi[r->n++] = hi;
  }
}

static void rnglists(struct unit *u, Dwarf_Attribute attr, struct ranges *r) {
  Dwarf_Error e = NULL;
  Dwarf_Half form = 0;
  Dwarf_Unsigned value = 0, count = 0, global = 0;
  Dwarf_Off off = 0;
  if (dwarf_whatform(attr, &form, &e) != DW_DLV_OK) {
    drop(u->dbg, &e);
    return;
  }
  if (form == DW_FORM_rnglistx) {
    if (dwarf_formudata(attr, &value, &e) != DW_DLV_OK) {
      drop(u->dbg, &e);
      return;
    }
  } else if (dwarf_global_formref(attr, &off, &e) == DW_DLV_OK) {
    value = off;
  } else {
    drop(u->dbg, &e);
    return;
  }
  Dwarf_Rnglists_Head head = NULL;
  if (dwarf_rnglists_get_rle_head(attr, form, value, &head, &count, &global,
                                  &e) != DW_DLV_OK) {
    drop(u->dbg, &e);
    return;
  }
  for (Dwarf_Unsigned i = 0; i < count; i++) {
    unsigned length = 0, code = 0;
    Dwarf_Unsigned raw1, raw2, lo, hi;
    Dwarf_Bool unavailable = 0;
    if (dwarf_get_rnglists_entry_fields_a(head, i, &length, &code, &raw1, &raw2,
                                          &unavailable, &lo, &hi,
                                          &e) != DW_DLV_OK) {
      drop(u->dbg, &e);
      break;
    }
    if (!unavailable && code != DW_RLE_end_of_list &&
        code != DW_RLE_base_address && code != DW_RLE_base_addressx)
      add_range(r, lo, hi);
  }
  dwarf_dealloc_rnglists_head(head);
}

static void debug_ranges(struct unit *u, Dwarf_Die die, Dwarf_Attribute attr,
                         struct ranges *r) {
  Dwarf_Error e = NULL;
  Dwarf_Off off = 0, real = 0;
  Dwarf_Unsigned udata;
  if (dwarf_global_formref(attr, &off, &e) != DW_DLV_OK) {
    drop(u->dbg, &e);
    if (dwarf_formudata(attr, &udata, &e) != DW_DLV_OK) {
      drop(u->dbg, &e);
      return;
    }
    off = udata;
  }
  Dwarf_Ranges *list = NULL;
  Dwarf_Signed count = 0;
  Dwarf_Unsigned bytes = 0;
  if (dwarf_get_ranges_b(u->dbg, off, die, &real, &list, &count, &bytes, &e) !=
      DW_DLV_OK) {
    drop(u->dbg, &e);
    return;
  }
  uint64_t base = u->base;
  for (Dwarf_Signed i = 0; i < count; i++) {
    if (list[i].dwr_type == DW_RANGES_END)
      break;
    if (list[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
      base = list[i].dwr_addr2;
    else
      add_range(r, base + list[i].dwr_addr1, base + list[i].dwr_addr2);
  }
  dwarf_ranges_dealloc(u->dbg, list, count);
}

/* The code ranges of a DIE; r->n is 0 when it has none. */
static void die_ranges(struct unit *u, Dwarf_Die die, struct ranges *r) {
  Dwarf_Error e = NULL;
  Dwarf_Addr lo, hi;
  Dwarf_Half form = 0;
  enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
  r->n = 0;
  if (dwarf_lowpc(die, &lo, &e) == DW_DLV_OK) {
    if (dwarf_highpc_b(die, &hi, &form, &cls, &e) == DW_DLV_OK) {
      if (cls == DW_FORM_CLASS_CONSTANT)
        hi += lo;
      add_range(r, lo, hi);
    }
    drop(u->dbg, &e);
    return;
  }
  drop(u->dbg, &e);
  Dwarf_Attribute attr;
  if (dwarf_attr(die, DW_AT_ranges, &attr, &e) != DW_DLV_OK) {
    drop(u->dbg, &e);
    return;
  }
  if (u->version >= 5)
    rnglists(u, attr, r);
  else
    debug_ranges(u, die, attr, r);
  dwarf_dealloc_attribute(attr);
}

/* ---- the DIE tree ------------------------------------------------------ */

static uint32_t add_scope(struct symbolizer *s, struct scope sc) {
  GROW(s->scopes, s->scope_count, s->scope_cap);
  s->scopes[s->scope_count] = sc;
  return (uint32_t)s->scope_count++;
}

static uint32_t add_subprogram(struct unit *u, Dwarf_Die die,
                               const struct ranges *r) {
  struct symbolizer *s = u->s;
  uint32_t scope = add_scope(s, (struct scope){die_name(u, die), 0, 0, 0, 0});
  GROW(s->subs, s->sub_count, s->sub_cap);
  s->subs[s->sub_count] = (struct subprogram){scope, u->index, 0, 0};
  for (int i = 0; i < r->n; i++) {
    GROW(s->sub_ranges, s->sub_range_count, s->sub_range_cap);
    s->sub_ranges[s->sub_range_count++] =
        (struct range){r->lo[i], r->hi[i], (uint32_t)s->sub_count, 0};
  }
  return (uint32_t)s->sub_count++;
}

static void add_inline(struct unit *u, Dwarf_Die die, const struct ranges *r,
                       uint32_t sub, uint32_t depth) {
  struct symbolizer *s = u->s;
  Dwarf_Unsigned file = 0, line = 0, column = 0;
  attr_udata(u->dbg, die, DW_AT_call_file, &file);
  attr_udata(u->dbg, die, DW_AT_call_line, &line);
  attr_udata(u->dbg, die, DW_AT_call_column, &column);
  uint32_t scope =
      add_scope(s, (struct scope){inline_name(u, die), file_name(u, file),
                                  (uint32_t)line, (uint32_t)column, depth});
  for (int i = 0; i < r->n; i++) {
    GROW(s->inlines, s->inline_count, s->inline_cap);
    s->inlines[s->inline_count++] =
        (struct range){r->lo[i], r->hi[i], scope, sub};
  }
}

/* Walks die and its siblings. sub: the subprogram with code they are in
 * (NONE outside any); depth: inlined calls around them. */
static void walk(struct unit *u, Dwarf_Die die, uint32_t sub, uint32_t depth,
                 int level) {
  Dwarf_Error e = NULL;
  while (die) {
    Dwarf_Half tag = 0;
    if (dwarf_tag(die, &tag, &e) != DW_DLV_OK)
      tag = 0;
    drop(u->dbg, &e);
    uint32_t child_sub = sub, child_depth = depth;
    if (tag == DW_TAG_subprogram) {
      struct ranges r;
      die_ranges(u, die, &r);
      if (r.n) {
        child_sub = add_subprogram(u, die, &r);
        child_depth = 0;
      }
    } else if (tag == DW_TAG_inlined_subroutine && sub != NONE) {
      struct ranges r;
      die_ranges(u, die, &r);
      child_depth = depth + 1;
      if (r.n)
        add_inline(u, die, &r, sub, child_depth);
    }
    Dwarf_Die child = NULL;
    if (level < 256 && dwarf_child(die, &child, &e) == DW_DLV_OK)
      walk(u, child, child_sub, child_depth, level + 1);
    drop(u->dbg, &e);
    Dwarf_Die next = NULL;
    if (dwarf_siblingof_b(u->dbg, die, 1, &next, &e) != DW_DLV_OK)
      next = NULL;
    drop(u->dbg, &e);
    dwarf_dealloc_die(die);
    die = next;
  }
}

/* ---- line tables -------------------------------------------------------- */

static int by_row_addr(const void *a, const void *b) {
  const struct row *x = a, *y = b;
  return (x->addr > y->addr) - (x->addr < y->addr);
}

static void end_sequence(struct symbolizer *s, struct unit *u, size_t first,
                         uint64_t end) {
  size_t n = s->row_count - first;
  if (!n || !real_code(s->rows[first].addr, end)) {
    s->row_count = first; /* a sequence of discarded code */
    return;
  }
  /* Rows of a sequence rise; keep it so for a reader that meets a file
   * where they do not (stable, so the last row at an address wins). */
  for (size_t i = first + 1; i < s->row_count; i++)
    if (s->rows[i].addr < s->rows[i - 1].addr) {
      struct row *copy = mip_xcalloc(n, sizeof *copy);
      memcpy(copy, s->rows + first, n * sizeof *copy);
      /* insertion sort: stable, and sequences are short when unsorted */
      for (size_t j = 1; j < n; j++) {
        struct row r = copy[j];
        size_t k = j;
        while (k && by_row_addr(&copy[k - 1], &r) > 0) {
          copy[k] = copy[k - 1];
          k--;
        }
        copy[k] = r;
      }
      memcpy(s->rows + first, copy, n * sizeof *copy);
      free(copy);
      break;
    }
  GROW(s->seqs, s->seq_count, s->seq_cap);
  s->seqs[s->seq_count++] = (struct sequence){
      s->rows[first].addr, end, u->index, (uint32_t)first, (uint32_t)n};
}

/* The line program itself is read here, not through libdwarf 20210528,
 * which starts every DWARF 5 sequence in file 0 where the standard (and
 * every compiler) says 1, and reports the rows that begin an epilogue as
 * ends of sequences. libdwarf still names the files (dwarf_srcfiles). */

struct reader {
  const uint8_t *p, *end;
  int bad;
};

static uint64_t read_fixed(struct reader *r, size_t n) {
  if ((size_t)(r->end - r->p) < n) {
    r->bad = 1;
    r->p = r->end;
    return 0;
  }
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++)
    v |= (uint64_t)r->p[i] << (8 * i);
  r->p += n;
  return v;
}

static uint64_t read_uleb(struct reader *r) {
  uint64_t v = 0;
  for (unsigned shift = 0; r->p < r->end; shift += 7) {
    uint8_t b = *r->p++;
    if (shift < 64)
      v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return v;
  }
  r->bad = 1;
  return v;
}

static int64_t read_sleb(struct reader *r) {
  uint64_t v = 0;
  unsigned shift = 0;
  uint8_t b = 0x80;
  while (r->p < r->end && (b & 0x80)) {
    b = *r->p++;
    if (shift < 64)
      v |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
  }
  if (b & 0x80)
    r->bad = 1;
  else if (shift < 64 && (b & 0x40))
    v |= ~(uint64_t)0 << shift;
  return (int64_t)v;
}

struct line_regs {
  uint64_t addr;
  uint64_t file, line, column;
};

struct line_header {
  uint16_t version;
  uint8_t address_size, min_inst, line_base_neg, line_range, opcode_base;
  int8_t line_base;
  const uint8_t *lengths; /* of the standard opcodes */
};

static void add_row(struct symbolizer *s, struct unit *u,
                    const struct line_regs *r) {
  GROW(s->rows, s->row_count, s->row_cap);
  s->rows[s->row_count++] = (struct row){
      r->addr, file_name(u, r->file), (uint32_t)r->line, (uint32_t)r->column};
}

/* Runs a line program, adding its rows and sequences. */
static void run_program(struct symbolizer *s, struct unit *u, struct reader *r,
                        const struct line_header *h) {
  const struct line_regs initial = {0, 1, 1, 0};
  struct line_regs regs = initial;
  size_t first = s->row_count;
  while (r->p < r->end && !r->bad) {
    uint8_t op = *r->p++;
    if (op >= h->opcode_base) {
      unsigned adjusted = op - h->opcode_base;
      regs.addr += (uint64_t)(adjusted / h->line_range) * h->min_inst;
      regs.line +=
          (uint64_t)(int64_t)(h->line_base + (int)(adjusted % h->line_range));
      add_row(s, u, &regs);
      continue;
    }
    switch (op) {
    case 0: { /* extended */
      uint64_t len = read_uleb(r);
      if (len == 0 || len > (uint64_t)(r->end - r->p)) {
        r->bad = 1;
        break;
      }
      const uint8_t *next = r->p + len;
      uint8_t sub = *r->p++;
      if (sub == DW_LNE_end_sequence) {
        end_sequence(s, u, first, regs.addr);
        first = s->row_count;
        regs = initial;
      } else if (sub == DW_LNE_set_address) {
        regs.addr = read_fixed(r, (size_t)len - 1 > 8 ? 8 : (size_t)len - 1);
      }
      r->p = next;
      break;
    }
    case DW_LNS_copy:
      add_row(s, u, &regs);
      break;
    case DW_LNS_advance_pc:
      regs.addr += read_uleb(r) * h->min_inst;
      break;
    case DW_LNS_advance_line:
      regs.line += (uint64_t)read_sleb(r);
      break;
    case DW_LNS_set_file:
      regs.file = read_uleb(r);
      break;
    case DW_LNS_set_column:
      regs.column = read_uleb(r);
      break;
    case DW_LNS_const_add_pc:
      regs.addr +=
          (uint64_t)((255 - h->opcode_base) / h->line_range) * h->min_inst;
      break;
    case DW_LNS_fixed_advance_pc:
      regs.addr += read_fixed(r, 2);
      break;
    default: /* negate_stmt, basic_block, prologue, epilogue, isa, ... */
      for (uint8_t i = 0; i < h->lengths[op - 1]; i++)
        read_uleb(r);
    }
  }
  s->row_count = first; /* rows after the last end of sequence */
}

/* The line program at offset of .debug_line. */
static void index_lines(struct unit *u, const uint8_t *section, size_t size,
                        uint64_t offset) {
  if (offset >= size)
    return;
  struct reader r = {section + offset, section + size, 0};
  uint64_t length = read_fixed(&r, 4);
  size_t offset_size = 4;
  if (length == 0xffffffff) {
    length = read_fixed(&r, 8);
    offset_size = 8;
  }
  if (r.bad || length > (uint64_t)(r.end - r.p))
    return;
  r.end = r.p + length;
  struct line_header h = {0};
  h.version = (uint16_t)read_fixed(&r, 2);
  if (h.version < 2 || h.version > 5)
    return;
  if (h.version >= 5) {
    h.address_size = (uint8_t)read_fixed(&r, 1);
    read_fixed(&r, 1); /* segment selector size */
  }
  uint64_t header_length = read_fixed(&r, offset_size);
  if (r.bad || header_length > (uint64_t)(r.end - r.p))
    return;
  const uint8_t *program = r.p + header_length;
  h.min_inst = (uint8_t)read_fixed(&r, 1);
  if (h.version >= 4)
    read_fixed(&r, 1); /* maximum operations per instruction: 1 here */
  read_fixed(&r, 1);   /* default_is_stmt */
  h.line_base = (int8_t)read_fixed(&r, 1);
  h.line_range = (uint8_t)read_fixed(&r, 1);
  h.opcode_base = (uint8_t)read_fixed(&r, 1);
  h.lengths = r.p;
  if (r.bad || h.line_range == 0 || h.opcode_base == 0 ||
      (size_t)(program - r.p) < (size_t)h.opcode_base - 1)
    return;
  r.p = program;
  run_program(u->s, u, &r, &h);
}

/* ---- compile units --------------------------------------------------------
 */

static void index_unit(struct symbolizer *s, Dwarf_Debug dbg, uint32_t index,
                       Dwarf_Half version, const uint8_t *lines,
                       size_t line_size) {
  Dwarf_Error e = NULL;
  Dwarf_Die cu = NULL;
  if (dwarf_siblingof_b(dbg, NULL, 1, &cu, &e) != DW_DLV_OK) {
    drop(dbg, &e);
    return;
  }
  struct unit u = {s, dbg, index, version, 0, NULL, 0, version >= 5 ? 0 : 1};
  Dwarf_Addr low;
  if (dwarf_lowpc(cu, &low, &e) == DW_DLV_OK)
    u.base = low;
  drop(dbg, &e);
  char **names = NULL;
  if (dwarf_srcfiles(cu, &names, &u.file_count, &e) != DW_DLV_OK) {
    drop(dbg, &e);
    u.file_count = 0;
  }
  u.files = mip_xcalloc((size_t)u.file_count + 1, sizeof *u.files);
  for (Dwarf_Signed i = 0; i < u.file_count; i++) {
    u.files[i] = intern(s, names[i]);
    dwarf_dealloc(dbg, names[i], DW_DLA_STRING);
  }
  if (names)
    dwarf_dealloc(dbg, names, DW_DLA_LIST);
  Dwarf_Attribute attr;
  Dwarf_Off stmt_list = 0;
  if (dwarf_attr(cu, DW_AT_stmt_list, &attr, &e) == DW_DLV_OK) {
    Dwarf_Unsigned udata;
    if (dwarf_global_formref(attr, &stmt_list, &e) == DW_DLV_OK)
      index_lines(&u, lines, line_size, stmt_list);
    else if ((drop(dbg, &e), dwarf_formudata(attr, &udata, &e)) == DW_DLV_OK)
      index_lines(&u, lines, line_size, udata);
    dwarf_dealloc_attribute(attr);
  }
  drop(dbg, &e);
  walk(&u, cu, NONE, 0, 0); /* deallocates cu */
  free(u.files);
}

static size_t index_units(struct symbolizer *s, Dwarf_Debug dbg,
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
    drop(dbg, &e);
    if (rc != DW_DLV_OK)
      break;
    index_unit(s, dbg, units++, version, lines, line_size);
  }
  return units;
}

/* ---- sorting the index ----------------------------------------------------
 */

static int by_lo(const void *a, const void *b) {
  const struct range *x = a, *y = b;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

static int by_seq_lo(const void *a, const void *b) {
  const struct sequence *x = a, *y = b;
  if (x->lo != y->lo)
    return x->lo < y->lo ? -1 : 1;
  return (x->cu > y->cu) - (x->cu < y->cu);
}

static int by_sub_then_lo(const void *a, const void *b) {
  const struct range *x = a, *y = b;
  if (x->sub != y->sub)
    return x->sub < y->sub ? -1 : 1;
  return by_lo(a, b);
}

static void finish_index(struct symbolizer *s) {
  if (s->seq_count)
    qsort(s->seqs, s->seq_count, sizeof *s->seqs, by_seq_lo);
  s->seq_max_hi = mip_xcalloc(s->seq_count, sizeof *s->seq_max_hi);
  for (size_t i = 0; i < s->seq_count; i++)
    s->seq_max_hi[i] = i && s->seq_max_hi[i - 1] > s->seqs[i].hi
                           ? s->seq_max_hi[i - 1]
                           : s->seqs[i].hi;
  if (s->sub_range_count)
    qsort(s->sub_ranges, s->sub_range_count, sizeof *s->sub_ranges, by_lo);
  s->sub_max_hi = mip_xcalloc(s->sub_range_count, sizeof *s->sub_max_hi);
  for (size_t i = 0; i < s->sub_range_count; i++)
    s->sub_max_hi[i] = i && s->sub_max_hi[i - 1] > s->sub_ranges[i].hi
                           ? s->sub_max_hi[i - 1]
                           : s->sub_ranges[i].hi;
  if (s->inline_count)
    qsort(s->inlines, s->inline_count, sizeof *s->inlines, by_sub_then_lo);
  for (size_t i = 0; i < s->inline_count; i++) {
    struct subprogram *sub = &s->subs[s->inlines[i].sub];
    if (!sub->inline_count)
      sub->first_inline = (uint32_t)i;
    sub->inline_count++;
  }
  free(s->origin_keys);
  free(s->origin_names);
  s->origin_keys = NULL;
  s->origin_names = NULL;
}

/* ---- the ELF symbol table --------------------------------------------------
 */

static int by_symbol(const void *a, const void *b) {
  const struct elf_symbol *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return (x->size < y->size) - (x->size > y->size);
}

static void read_symbols(struct symbolizer *s, struct elf_image *img) {
  Elf_Scn *found = NULL;
  GElf_Shdr shdr;
  for (Elf_Scn *scn = elf_nextscn(img->elf, NULL); scn;
       scn = elf_nextscn(img->elf, scn)) {
    GElf_Shdr h;
    if (gelf_getshdr(scn, &h) &&
        (h.sh_type == SHT_SYMTAB || (h.sh_type == SHT_DYNSYM && !found))) {
      found = scn;
      shdr = h;
    }
  }
  Elf_Data *data = found ? elf_getdata(found, NULL) : NULL;
  if (!data || !shdr.sh_entsize)
    return;
  size_t n = shdr.sh_size / shdr.sh_entsize;
  s->symbols = mip_xcalloc(n, sizeof *s->symbols);
  uint32_t file = 0;
  for (size_t i = 0; i < n; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(data, (int)i, &sym))
      continue;
    const char *name = elf_strptr(img->elf, shdr.sh_link, sym.st_name);
    if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
      file = intern(s, name);
    if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF)
      continue;
    s->symbols[s->symbol_count++] =
        (struct elf_symbol){sym.st_value, sym.st_size, intern(s, name),
                            GELF_ST_BIND(sym.st_info) == STB_LOCAL ? file : 0};
  }
  if (s->symbol_count)
    qsort(s->symbols, s->symbol_count, sizeof *s->symbols, by_symbol);
  size_t kept = 0; /* one per address: the largest */
  for (size_t i = 0; i < s->symbol_count; i++)
    if (!kept || s->symbols[kept - 1].addr != s->symbols[i].addr)
      s->symbols[kept++] = s->symbols[i];
  s->symbol_count = kept;
}

/* ---- opening ----------------------------------------------------------------
 */

static int covers_program(const struct symbolizer *s, struct elf_image *img);

/* The bytes of .debug_line (decompressed), or none. */
static const uint8_t *line_section(struct elf_image *img, size_t *size) {
  GElf_Shdr shdr;
  Elf_Data *data;
  struct mip_error ignored;
  Elf_Scn *scn = elf_image_section(img, ".debug_line", &shdr);
  *size = 0;
  if (!scn || elf_image_section_data(img, scn, &data, &ignored))
    return NULL;
  *size = data->d_size;
  return data->d_buf;
}

struct symbolizer *symbolizer_open(const char *path, struct mip_error *err) {
  struct elf_image img;
  if (elf_image_open(path, &img, err))
    return NULL;
  struct symbolizer *s = mip_xcalloc(1, sizeof *s);
  mip_buf_extend(&s->strings, 1); /* offset 0: "" */
  elf_image_build_id(&img, &s->build_id);
  read_symbols(s, &img);
  size_t line_size;
  const uint8_t *lines = line_section(&img, &line_size);

  int fd = open(path, O_RDONLY | O_CLOEXEC);
  Dwarf_Debug dbg = NULL;
  Dwarf_Error e = NULL;
  int rc = fd < 0 ? DW_DLV_NO_ENTRY
                  : dwarf_init_b(fd, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL,
                                 NULL, &dbg, &e);
  size_t units = 0;
  if (rc == DW_DLV_OK) {
    units = index_units(s, dbg, lines, line_size);
    dwarf_finish(dbg, &e);
  } else if (rc == DW_DLV_ERROR) {
    mip_fail(err, path, "cannot read DWARF: %s", dwarf_errmsg(e));
  }
  if (e)
    dwarf_dealloc_error(NULL, e);
  if (fd >= 0)
    close(fd);
  if (rc != DW_DLV_ERROR && !units)
    mip_fail(err, path, "no debug information (build with -g)");
  if (!units) {
    elf_image_close(&img);
    symbolizer_close(s);
    return NULL;
  }
  finish_index(s);
  s->program_dwarf = covers_program(s, &img);
  elf_image_close(&img);
  return s;
}

void symbolizer_close(struct symbolizer *s) {
  if (!s)
    return;
  mip_buf_free(&s->strings);
  free(s->string_slots);
  free(s->rows);
  free(s->seqs);
  free(s->seq_max_hi);
  free(s->scopes);
  free(s->subs);
  free(s->sub_ranges);
  free(s->sub_max_hi);
  free(s->inlines);
  free(s->symbols);
  free(s->origin_keys);
  free(s->origin_names);
  free(s);
}

const struct mip_build_id *symbolizer_build_id(const struct symbolizer *s) {
  return &s->build_id;
}

/* ---- looking up ------------------------------------------------------------
 */

/* Index one past the last entry whose lo is at or below addr. */
#define UPPER_BOUND(array, count, addr, out)                                   \
  do {                                                                         \
    size_t lo_ = 0, hi_ = (count);                                             \
    while (lo_ < hi_) {                                                        \
      size_t mid_ = lo_ + (hi_ - lo_) / 2;                                     \
      if ((array)[mid_].lo <= (addr))                                          \
        lo_ = mid_ + 1;                                                        \
      else                                                                     \
        hi_ = mid_;                                                            \
    }                                                                          \
    (out) = lo_;                                                               \
  } while (0)

/* The subprogram holding addr: of the first compile unit that has one,
 * the smallest. */
static const struct subprogram *find_subprogram(const struct symbolizer *s,
                                                uint64_t addr) {
  size_t end;
  UPPER_BOUND(s->sub_ranges, s->sub_range_count, addr, end);
  const struct subprogram *best = NULL;
  uint64_t best_size = 0;
  for (size_t i = end; i-- > 0 && s->sub_max_hi[i] > addr;) {
    const struct range *r = &s->sub_ranges[i];
    if (addr >= r->hi)
      continue;
    const struct subprogram *sub = &s->subs[r->owner];
    if (!best || sub->cu < best->cu ||
        (sub->cu == best->cu && r->hi - r->lo < best_size)) {
      best = sub;
      best_size = r->hi - r->lo;
    }
  }
  return best;
}

/* The line row holding addr, preferring the sequences of unit cu (NONE:
 * the first unit with one). */
static const struct row *find_row(const struct symbolizer *s, uint64_t addr,
                                  uint32_t cu) {
  size_t end;
  UPPER_BOUND(s->seqs, s->seq_count, addr, end);
  const struct sequence *best = NULL;
  for (size_t i = end; i-- > 0 && s->seq_max_hi[i] > addr;) {
    const struct sequence *q = &s->seqs[i];
    if (addr >= q->hi)
      continue;
    int better = !best || (q->cu == cu && best->cu != cu) ||
                 ((q->cu == cu) == (best->cu == cu) && q->cu < best->cu);
    if (better)
      best = q;
  }
  if (!best)
    return NULL;
  const struct row *rows = s->rows + best->first_row;
  size_t lo = 0, hi = best->row_count;
  while (lo < hi) { /* the last row at or below addr */
    size_t mid = lo + (hi - lo) / 2;
    if (rows[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? &rows[lo - 1] : NULL;
}

/* Whether DWARF knows any function of the program's own code, as the map
 * lists it: every binary built with MIP carries the runtime's DWARF,
 * whether or not its own code was built with -g. Without a map (a binary
 * not built with MIP), any DWARF is the program's. */
static int covers_program(const struct symbolizer *s, struct elf_image *img) {
  size_t count;
  uint64_t *entries = elf_image_map_entries(img, &count);
  int found = !entries;
  for (size_t i = 0; i < count && !found; i++)
    found = find_subprogram(s, entries[i]) || find_row(s, entries[i], NONE);
  free(entries);
  return found;
}

int symbolizer_program_dwarf(const struct symbolizer *s) {
  return s->program_dwarf;
}

static const struct elf_symbol *find_symbol(const struct symbolizer *s,
                                            uint64_t addr) {
  size_t lo = 0, hi = s->symbol_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->symbols[mid].addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo)
    return NULL;
  const struct elf_symbol *sym = &s->symbols[lo - 1];
  return !sym->size || addr - sym->addr < sym->size ? sym : NULL;
}

static int by_depth_desc(const void *a, const void *b) {
  const struct scope *x = *(const struct scope *const *)a;
  const struct scope *y = *(const struct scope *const *)b;
  return (x->depth < y->depth) - (x->depth > y->depth);
}

size_t symbolizer_frames(void *ctx, uint64_t addr,
                         const struct mip_frame_info **out) {
  struct symbolizer *s = ctx;
  *out = s->frames;
  const struct subprogram *sub = find_subprogram(s, addr);
  const struct row *row = find_row(s, addr, sub ? sub->cu : NONE);
  struct mip_frame_info here = {"", "", 0, 0};
  if (row)
    here = (struct mip_frame_info){"", string_at(s, row->file), row->line,
                                   row->column};
  if (!sub) {
    const struct elf_symbol *sym = find_symbol(s, addr);
    if (!sym && !row)
      return 0;
    here.function = sym ? string_at(s, sym->name) : "";
    if (!row && sym)
      here.file = string_at(s, sym->file);
    s->frames[0] = here;
    return 1;
  }
  /* The inlined calls holding addr, innermost first. */
  const struct scope *chain[MAX_FRAMES];
  size_t n = 0;
  for (uint32_t i = 0; i < sub->inline_count && n < MAX_FRAMES - 1; i++) {
    const struct range *r = &s->inlines[sub->first_inline + i];
    if (r->lo > addr)
      break;
    if (addr < r->hi)
      chain[n++] = &s->scopes[r->owner];
  }
  if (n > 1)
    qsort(chain, n, sizeof *chain, by_depth_desc);
  chain[n++] = &s->scopes[sub->scope];
  for (size_t i = 0; i < n; i++) {
    struct mip_frame_info *f = &s->frames[i];
    f->function = string_at(s, chain[i]->name);
    if (i == 0) {
      f->file = here.file;
      f->line = here.line;
      f->column = here.column;
    } else {
      f->file = string_at(s, chain[i - 1]->call_file);
      f->line = chain[i - 1]->call_line;
      f->column = chain[i - 1]->call_column;
    }
  }
  return n;
}
