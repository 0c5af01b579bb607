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

void lines_read(struct unit *u, const uint8_t *section, size_t size,
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
  if (h.version >= 5)
    read_fixed(&r, 2); /* address size, segment selector size */
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
  run_program(u, &r, &h);
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
