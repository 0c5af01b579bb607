/*
 * Line tables: each compile unit's line program, as sequences of rows
 * (address, file, line, column), each row standing for the addresses up
 * to the next row.
 *
 * The line program itself is read here, not through libdwarf 20210528,
 * which starts every DWARF 5 sequence in file 0 where the standard (and
 * every compiler) says 1, and reports the rows that begin an epilogue as
 * ends of sequences. libdwarf still names the files (units.c).
 */
#include <stdlib.h>

#include "index.h"

static void sort_rows(struct row *rows, size_t n) {
  /* insertion sort: stable, so the last row at an address wins, and
   * sequences are short when unsorted */
  for (size_t j = 1; j < n; j++) {
    struct row r = rows[j];
    size_t k = j;
    for (; k && rows[k - 1].addr > r.addr; k--)
      rows[k] = rows[k - 1];
    rows[k] = r;
  }
}

static void end_sequence(struct unit *u, size_t first, uint64_t end) {
  struct debuginfo *di = u->di;
  size_t n = di->row_count - first;
  if (!n || !real_code(di->rows[first].addr, end)) {
    di->row_count = first; /* a sequence of discarded code */
    return;
  }
  /* Rows of a sequence rise; keep it so for a reader that meets a file
   * where they do not. */
  for (size_t i = first + 1; i < di->row_count; i++)
    if (di->rows[i].addr < di->rows[i - 1].addr) {
      sort_rows(di->rows + first, n);
      break;
    }
  GROW(di->seqs, di->seq_count, di->seq_cap);
  di->seqs[di->seq_count++] = (struct sequence){
      {di->rows[first].addr, end}, u->index, (uint32_t)first, (uint32_t)n};
}

/* ---- reading the program ------------------------------------------------ */

struct line_regs {
  uint64_t addr;
  uint64_t file, line, column;
};

struct line_header {
  uint16_t version;
  size_t offset_size; /* of the table's lengths and offsets: 4 or 8 */
  uint8_t min_inst, line_range, opcode_base;
  int8_t line_base;
  const uint8_t *lengths; /* of the standard opcodes */
};

static void add_row(struct unit *u, const struct line_regs *r) {
  struct debuginfo *di = u->di;
  GROW(di->rows, di->row_count, di->row_cap);
  di->rows[di->row_count++] = (struct row){
      r->addr, unit_file(u, r->file), (uint32_t)r->line, (uint32_t)r->column};
}

/* An extended opcode (after its 0): returns whether it ended a sequence. */
static int extended(struct reader *r, struct line_regs *regs) {
  uint64_t len = read_uleb(r);
  if (len == 0 || len > (uint64_t)(r->end - r->p)) {
    r->bad = 1;
    return 0;
  }
  const uint8_t *next = r->p + len;
  uint8_t sub = *r->p++;
  if (sub == DW_LNE_set_address)
    regs->addr = read_fixed(r, (size_t)len - 1 > 8 ? 8 : (size_t)len - 1);
  r->p = next;
  return sub == DW_LNE_end_sequence;
}

/* A standard opcode other than DW_LNS_copy. */
static void standard(struct reader *r, const struct line_header *h, uint8_t op,
                     struct line_regs *regs) {
  switch (op) {
  case DW_LNS_advance_pc:
    regs->addr += read_uleb(r) * h->min_inst;
    break;
  case DW_LNS_advance_line:
    regs->line += (uint64_t)read_sleb(r);
    break;
  case DW_LNS_set_file:
    regs->file = read_uleb(r);
    break;
  case DW_LNS_set_column:
    regs->column = read_uleb(r);
    break;
  case DW_LNS_const_add_pc:
    regs->addr +=
        (uint64_t)((255 - h->opcode_base) / h->line_range) * h->min_inst;
    break;
  case DW_LNS_fixed_advance_pc:
    regs->addr += read_fixed(r, 2);
    break;
  default: /* negate_stmt, basic_block, prologue, epilogue, isa, ... */
    for (uint8_t i = 0; i < h->lengths[op - 1]; i++)
      read_uleb(r);
  }
}

/* Runs a line program, adding its rows and sequences. */
static void run_program(struct unit *u, struct reader *r,
                        const struct line_header *h) {
  const struct line_regs initial = {0, 1, 1, 0};
  struct line_regs regs = initial;
  size_t first = u->di->row_count;
  while (r->p < r->end && !r->bad) {
    uint8_t op = *r->p++;
    if (op >= h->opcode_base) { /* special */
      unsigned adjusted = op - h->opcode_base;
      regs.addr += (uint64_t)(adjusted / h->line_range) * h->min_inst;
      regs.line +=
          (uint64_t)(int64_t)(h->line_base + (int)(adjusted % h->line_range));
      add_row(u, &regs);
    } else if (op == DW_LNS_copy) {
      add_row(u, &regs);
    } else if (op != 0) {
      standard(r, h, op, &regs);
    } else if (extended(r, &regs)) {
      end_sequence(u, first, regs.addr);
      first = u->di->row_count;
      regs = initial;
    }
  }
  u->di->row_count = first; /* rows after the last end of sequence */
}

/* Opens the line table at offset: fills h, leaves r on its directory and
 * file tables (r->end the table's end) and sets *program to where its
 * program starts (NULL when the header's length is wrong, which libdwarf
 * does not mind for the tables). -1 when it is no table this reads. */
static int open_table(const uint8_t *section, size_t size, uint64_t offset,
                      struct reader *r, struct line_header *h,
                      const uint8_t **program) {
  if (offset >= size)
    return -1;
  *r = (struct reader){section + offset, section + size, 0};
  uint64_t length = read_fixed(r, 4);
  h->offset_size = 4;
  if (length == 0xffffffff) {
    length = read_fixed(r, 8);
    h->offset_size = 8;
  }
  if (r->bad || length > (uint64_t)(r->end - r->p))
    return -1;
  r->end = r->p + length;
  h->version = (uint16_t)read_fixed(r, 2);
  if (h->version < 2 || h->version > 5)
    return -1;
  if (h->version >= 5)
    read_fixed(r, 2); /* address size, segment selector size */
  uint64_t header_length = read_fixed(r, h->offset_size);
  *program = r->bad || header_length > (uint64_t)(r->end - r->p)
                 ? NULL
                 : r->p + header_length;
  h->min_inst = (uint8_t)read_fixed(r, 1);
  if (h->version >= 4)
    read_fixed(r, 1); /* maximum operations per instruction: 1 here */
  read_fixed(r, 1);   /* default_is_stmt */
  h->line_base = (int8_t)read_fixed(r, 1);
  h->line_range = (uint8_t)read_fixed(r, 1);
  h->opcode_base = (uint8_t)read_fixed(r, 1);
  h->lengths = r->p;
  if (r->bad || h->opcode_base == 0 ||
      (size_t)(r->end - r->p) < (size_t)h->opcode_base - 1)
    return -1;
  if (*program && (size_t)(*program - r->p) < (size_t)h->opcode_base - 1)
    *program = NULL;
  r->p += h->opcode_base - 1;
  return 0;
}

void lines_read(struct unit *u, const uint8_t *section, size_t size,
                uint64_t offset) {
  struct reader r;
  struct line_header h;
  const uint8_t *program;
  if (open_table(section, size, offset, &r, &h, &program) || !program ||
      h.line_range == 0)
    return;
  r.p = program;
  run_program(u, &r, &h);
}

/* ---- the file table, checked for libdwarf ------------------------------ */

/* Reads a value of an entry of a DWARF 5 directory or file table: the
 * number of a constant form, 0 for any other; *known is 0 for a form
 * these tables do not have. */
static uint64_t read_form(struct reader *r, uint64_t form, size_t offset_size,
                          int *known) {
  static const struct {
    uint16_t form;
    uint8_t size;
  } fixed[] = {{DW_FORM_data1, 1}, {DW_FORM_data2, 2}, {DW_FORM_data4, 4},
               {DW_FORM_data8, 8}, {DW_FORM_strx1, 1}, {DW_FORM_strx2, 2},
               {DW_FORM_strx3, 3}, {DW_FORM_strx4, 4}};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (form == fixed[i].form)
      return read_fixed(r, fixed[i].size);
  switch (form) {
  case DW_FORM_udata:
  case DW_FORM_strx:
    return read_uleb(r);
  case DW_FORM_line_strp:
  case DW_FORM_strp:
  case DW_FORM_strp_sup:
    read_fixed(r, offset_size);
    return 0;
  case DW_FORM_data16:
    read_fixed(r, 8);
    read_fixed(r, 8);
    return 0;
  case DW_FORM_string:
    while (r->p < r->end && *r->p)
      r->p++;
    read_fixed(r, 1);
    return 0;
  case DW_FORM_block: {
    uint64_t n = read_uleb(r);
    r->p += n < (uint64_t)(r->end - r->p) ? n : (uint64_t)(r->end - r->p);
    return 0;
  }
  }
  *known = 0;
  return 0;
}

/* A DWARF 5 table of entries (directories or files): its format, then
 * its entries. Returns how many entries it has; *bad_dir is set to the
 * first directory index not below dirs (for the files). */
static uint64_t read_entries(struct reader *r, size_t offset_size,
                             uint64_t dirs, uint64_t *bad_dir, int *known) {
  uint64_t type[256], form[256];
  unsigned formats = (unsigned)read_fixed(r, 1);
  for (unsigned i = 0; i < formats; i++) {
    type[i] = read_uleb(r);
    form[i] = read_uleb(r);
  }
  uint64_t count = read_uleb(r);
  for (uint64_t n = 0; formats && n < count && !r->bad && *known; n++)
    for (unsigned i = 0; i < formats; i++) {
      uint64_t v = read_form(r, form[i], offset_size, known);
      if (type[i] == DW_LNCT_directory_index && v >= dirs && !r->bad)
        *bad_dir = v;
    }
  return count;
}

int lines_check_files(struct unit *u, const uint8_t *section, size_t size,
                      uint64_t offset) {
  struct reader r;
  struct line_header h;
  const uint8_t *program;
  if (open_table(section, size, offset, &r, &h, &program) || h.version < 5)
    return 0;
  uint64_t bad_dir = UINT64_MAX;
  int known = 1;
  uint64_t dirs = read_entries(&r, h.offset_size, 0, &bad_dir, &known);
  bad_dir = UINT64_MAX;
  read_entries(&r, h.offset_size, dirs, &bad_dir, &known);
  if (bad_dir == UINT64_MAX)
    return 0;
  debuginfo_corrupt(u->di,
                    ".debug_line: the line table at 0x%llx names directory "
                    "%llu of %llu",
                    (unsigned long long)offset, (unsigned long long)bad_dir,
                    (unsigned long long)dirs);
  return -1;
}

/* ---- sorting and finding ----------------------------------------------- */

static int by_seq_lo(const void *a, const void *b) {
  const struct sequence *x = a, *y = b;
  if (x->at.lo != y->at.lo)
    return x->at.lo < y->at.lo ? -1 : 1;
  return (x->cu > y->cu) - (x->cu < y->cu);
}

void lines_finish(struct debuginfo *di) {
  if (di->seq_count)
    qsort(di->seqs, di->seq_count, sizeof *di->seqs, by_seq_lo);
  di->seq_max_hi = spans_max_hi(di->seqs, di->seq_count, sizeof *di->seqs);
}

const struct row *lines_find(const struct debuginfo *di, uint64_t addr,
                             uint32_t cu) {
  size_t end;
  UPPER_BOUND(di->seqs, di->seq_count, at.lo, addr, end);
  const struct sequence *best = NULL;
  for (size_t i = end; i-- > 0 && di->seq_max_hi[i] > addr;) {
    const struct sequence *q = &di->seqs[i];
    if (addr >= q->at.hi)
      continue;
    int better = !best || (q->cu == cu && best->cu != cu) ||
                 ((q->cu == cu) == (best->cu == cu) && q->cu < best->cu);
    if (better)
      best = q;
  }
  if (!best)
    return NULL;
  size_t at;
  UPPER_BOUND(di->rows + best->first_row, best->row_count, addr, addr, at);
  return at ? &di->rows[best->first_row + at - 1] : NULL;
}
