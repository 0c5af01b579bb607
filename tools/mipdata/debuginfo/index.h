/*
 * The index debuginfo_open builds (../debuginfo.h), shared by the files
 * of this directory:
 *
 *   units.c        opening a binary, its compile units, each one's files
 *   dies.c         attributes and address ranges of DIEs
 *   subprograms.c  the DIE tree: functions, declarations, inlined calls
 *   lines.c        line tables
 *   rnglists.c     range lists, checked before libdwarf reads them
 *   reader.c       DWARF's encodings, where mipdata reads them itself
 *   symbols.c      the ELF symbol table, for code without DWARF
 *   lookup.c       what the index answers
 *
 * Strings (names, files) are offsets into one table, each distinct one
 * stored once (lib/intern.h); offset 0 is "". File names are interned as
 * MIP shows them (lib/path.h).
 */
#ifndef MIPDATA_DEBUGINFO_INDEX_H
#define MIPDATA_DEBUGINFO_INDEX_H

#include <dwarf.h>
#include <libdwarf.h>
#include <stdint.h>

#include "debuginfo.h"
#include "intern.h"

#define NONE UINT32_MAX
#define MAX_FRAMES 256

/* A line table row: it stands for the addresses up to the next row. */
struct row {
  uint64_t addr;
  uint32_t file; /* string */
  uint32_t line, column;
};

/* Addresses [lo, hi): the first member of what is found by address. */
struct span {
  uint64_t lo, hi;
};

/* Rows first_row .. first_row + row_count cover the span. */
struct sequence {
  struct span at;
  uint32_t cu, first_row, row_count;
};

/* A function (depth 0) or an inlined call of one (depth >= 1). */
struct scope {
  uint32_t name; /* string */
  uint32_t call_file, call_line, call_column;
  uint32_t depth;
};

struct subprogram {
  uint32_t scope, cu;
  uint32_t first_inline, inline_count; /* in inlines, once sorted */
};

/* An address range of a subprogram, or of an inlined call in one. */
struct range {
  struct span at;
  uint32_t owner; /* subprogram (sub_ranges) or scope (inlines) */
  uint32_t sub;   /* inlines: their subprogram */
};

/* Where the function whose code starts at entry was declared. */
struct declaration {
  uint64_t entry;
  uint32_t file, line;
  uint32_t order; /* of reading: the first of several at one entry wins */
};

/* A function symbol; size 0 reaches to the next symbol, as in LLVM. */
struct symbol {
  uint64_t addr, size;
  uint32_t name; /* string */
  uint32_t file; /* of a local symbol: the STT_FILE before it */
};

/* abstract origin DIE offset -> name, while reading the DIE trees */
struct origin_names {
  uint64_t *keys; /* offset + 1; 0: empty */
  uint32_t *names;
  size_t cap, count;
};

/* A table of .debug_rnglists, as its header says (offsets in the
 * section): its offsets, then its lists, up to end. */
struct rnglists_table {
  uint64_t header, offsets, lists, end;
  uint64_t count; /* of offsets */
  unsigned offset_size, address_size;
};

struct rnglists {
  const uint8_t *data; /* the section, decompressed */
  size_t size;
  struct rnglists_table *tables;
  size_t count, cap;
};

struct debuginfo {
  struct mip_build_id build_id;
  struct rnglists rnglists;
  char corrupt[256]; /* the first problem found that refuses the binary */
  int covers_program;   /* DWARF covers the program's own code */
  int declares_program; /* DWARF declares the program's own functions */
  struct mip_buf strings;
  struct mip_interner interner;

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

  struct declaration *decls; /* sorted by entry */
  size_t decl_count, decl_cap;

  struct symbol *symbols; /* sorted by addr */
  size_t symbol_count;

  struct origin_names origins;
  struct mip_frame_info frames[MAX_FRAMES];
};

/* One compile unit being read. */
struct unit {
  struct debuginfo *di;
  Dwarf_Debug dbg;
  uint32_t index;
  Dwarf_Half version;
  uint64_t base;   /* the unit's low_pc: base of DWARF 4 range lists */
  uint32_t *files; /* file number - file_base -> string */
  Dwarf_Signed file_count;
  int file_base; /* the number of files[0]: 0 in DWARF 5, 1 before */
  int has_rnglists_base;  /* DW_AT_rnglists_base, as libdwarf takes it */
  uint64_t rnglists_base;
};

#define GROW(array, count, cap)                                                \
  do {                                                                         \
    if ((count) == (cap))                                                      \
      (array) = mip_xrealloc((array), (cap) = (cap)*2 + 64, sizeof *(array));  \
  } while (0)

/* Index one past the last entry of a sorted array whose key is at or
 * below addr. */
#define UPPER_BOUND(array, count, key, addr, out)                              \
  do {                                                                         \
    size_t lo_ = 0, hi_ = (count);                                             \
    while (lo_ < hi_) {                                                        \
      size_t mid_ = lo_ + (hi_ - lo_) / 2;                                     \
      if ((array)[mid_].key <= (addr))                                         \
        lo_ = mid_ + 1;                                                        \
      else                                                                     \
        hi_ = mid_;                                                            \
    }                                                                          \
    (out) = lo_;                                                               \
  } while (0)

/* For count items of size bytes, each starting with a span, sorted by
 * lo: the largest hi of items[0..i] for each i, where a look-up that
 * scans back from an address can stop. */
uint64_t *spans_max_hi(const void *items, size_t count, size_t size);

static inline const char *string_at(const struct debuginfo *di,
                                    uint32_t offset) {
  return (const char *)di->strings.data + offset;
}

/* reader.c: reading [p, end) of a section; a read that would pass end
 * reads nothing more and sets bad. read_fixed: n bytes (8 at most),
 * little-endian. */
struct reader {
  const uint8_t *p, *end;
  int bad;
};
uint64_t read_fixed(struct reader *r, size_t n);
uint64_t read_uleb(struct reader *r);
int64_t read_sleb(struct reader *r);

/* units.c: what makes the binary refused (corrupt DWARF), said in
 * di->corrupt; the first problem found is the one said. */
void debuginfo_corrupt(struct debuginfo *di, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* units.c: the name of a file number of the unit's (0 when it has no
 * such file). */
int unit_has_file(const struct unit *u, Dwarf_Unsigned number);
uint32_t unit_file(const struct unit *u, Dwarf_Unsigned number);

/* dies.c */
void drop_error(Dwarf_Debug dbg, Dwarf_Error *e);
int die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name,
              Dwarf_Unsigned *out);
int die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name, char *buf,
               size_t size);
int die_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name, Dwarf_Off *out);
/* The DIE that die's DW_AT_abstract_origin, else DW_AT_specification,
 * names (the caller deallocates it); NULL when none. */
Dwarf_Die die_referenced(Dwarf_Debug dbg, Dwarf_Die die);

struct ranges {
  uint64_t lo[64], hi[64];
  int n;
  int has_low_pc; /* low_pc as it is, discarded code too */
  uint64_t low_pc;
};
/* 0 and all ones are what linkers leave for discarded code. */
int real_code(uint64_t lo, uint64_t hi);
/* The code ranges of a DIE; r->n is 0 when it has none. */
void die_ranges(const struct unit *u, Dwarf_Die die, struct ranges *r);

/* rnglists.c: checking what libdwarf does not check before it reads.
 * The section's tables (di->rnglists.data and size set), at opening; the
 * list a DIE (at offset die) names with an attribute of form and value,
 * before libdwarf is asked for it. On failure, -1 with di->corrupt set. */
int rnglists_check_tables(struct debuginfo *di);
int rnglists_check_list(const struct unit *u, Dwarf_Half form, uint64_t value,
                        uint64_t die);

/* subprograms.c: reading the unit's DIE tree (which deallocates cu);
 * sorting what all units gave; the subprogram holding addr: of the first
 * compile unit that has one, the smallest. */
void subprograms_read(struct unit *u, Dwarf_Die cu);
void subprograms_finish(struct debuginfo *di);
const struct subprogram *subprograms_find(const struct debuginfo *di,
                                          uint64_t addr);

/* lines.c: reading the line program at offset of .debug_line; sorting
 * what all units gave; the row holding addr, preferring the sequences of
 * unit cu (NONE: the first unit with one). */
void lines_read(struct unit *u, const uint8_t *section, size_t size,
                uint64_t offset);
/* Before libdwarf names the files of the table at offset (dwarf_srcfiles,
 * which takes a DWARF 5 file's directory index without checking it):
 * -1, with di->corrupt set, when a file names a directory the table does
 * not have. */
int lines_check_files(struct unit *u, const uint8_t *section, size_t size,
                      uint64_t offset);
void lines_finish(struct debuginfo *di);
const struct row *lines_find(const struct debuginfo *di, uint64_t addr,
                             uint32_t cu);

/* symbols.c: reading the symbol table; the function symbol holding
 * addr. */
struct elf_image;
void symbols_read(struct debuginfo *di, struct elf_image *img);
const struct symbol *symbols_find(const struct debuginfo *di, uint64_t addr);

/* lookup.c: whether DWARF covers and declares the program's functions. */
void lookup_program(struct debuginfo *di, struct elf_image *img);

#endif
