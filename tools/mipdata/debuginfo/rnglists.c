/*
 * .debug_rnglists (DWARF 5 range lists), checked here before libdwarf
 * reads it. libdwarf 20210528 trusts the section:
 *
 *   - a table header it cannot read (a length past the section's end, a
 *     version other than 5, an address size it does not know) frees the
 *     tables read so far and goes on with them: a double free when the
 *     first compile unit is opened;
 *   - a table's end is where its header says, not bounded by the
 *     section's end;
 *   - where a list starts (base + an entry of the table of offsets, for
 *     DW_FORM_rnglistx; the attribute itself, for DW_FORM_sec_offset) is
 *     never checked against the table: dwarf_rnglists_get_rle_head reads
 *     wherever it points, and an entry of the table changed by one byte
 *     takes it out of the process's memory (SIGSEGV);
 *   - it reads an entry's kind before it checks the entry is inside the
 *     table.
 *
 * So every table header is checked when a binary is opened, and every
 * list a DIE names is found as libdwarf finds it and walked to its end of
 * list within its table before libdwarf is asked for it. A binary that
 * fails either is refused (corrupt DWARF): what else it says about code
 * cannot be trusted either.
 */
#include "index.h"

/* Reads the header of the table at offset; returns the offset past the
 * table, 0 when it is not one libdwarf can read. */
static uint64_t read_table(struct debuginfo *di, uint64_t offset,
                           struct rnglists_table *t) {
  const struct rnglists *rl = &di->rnglists;
  struct reader c = {rl->data + offset, rl->data + rl->size, 0};
  uint64_t length = read_fixed(&c, 4);
  t->offset_size = 4;
  if (length == 0xffffffff) {
    length = read_fixed(&c, 8);
    t->offset_size = 8;
  } else if (length >= 0xfffffff0) {
    c.bad = 1;
  }
  if (c.bad || length > (uint64_t)(c.end - c.p)) {
    debuginfo_corrupt(di,
                      ".debug_rnglists: the table at 0x%llx runs past the "
                      "section's end (0x%llx)",
                      (unsigned long long)offset, (unsigned long long)rl->size);
    return 0;
  }
  c.end = c.p + length;
  t->header = offset;
  t->end = (uint64_t)(c.end - rl->data);
  unsigned version = (unsigned)read_fixed(&c, 2);
  t->address_size = (unsigned)read_fixed(&c, 1);
  read_fixed(&c, 1); /* segment selector size */
  uint64_t count = read_fixed(&c, 4);
  if (c.bad) {
    debuginfo_corrupt(di,
                      ".debug_rnglists: the table at 0x%llx is too short (%llu "
                      "bytes) for its header",
                      (unsigned long long)offset, (unsigned long long)length);
    return 0;
  }
  if (version != 5) {
    debuginfo_corrupt(
        di, ".debug_rnglists: the table at 0x%llx has version %u, not 5",
        (unsigned long long)offset, version);
    return 0;
  }
  if (t->address_size != 2 && t->address_size != 4 && t->address_size != 8) {
    debuginfo_corrupt(
        di,
        ".debug_rnglists: the table at 0x%llx has addresses of %u "
        "bytes",
        (unsigned long long)offset, t->address_size);
    return 0;
  }
  t->offsets = (uint64_t)(c.p - rl->data);
  if (count > (t->end - t->offsets) / t->offset_size) {
    debuginfo_corrupt(di,
                      ".debug_rnglists: the table at 0x%llx has more offsets "
                      "(%llu) than it holds",
                      (unsigned long long)offset, (unsigned long long)count);
    return 0;
  }
  t->count = count;
  t->lists = t->offsets + count * t->offset_size;
  return t->end;
}

int rnglists_check_tables(struct debuginfo *di) {
  struct rnglists *rl = &di->rnglists;
  for (uint64_t offset = 0; offset < rl->size;) {
    GROW(rl->tables, rl->count, rl->cap);
    offset = read_table(di, offset, &rl->tables[rl->count]);
    if (!offset)
      return -1;
    rl->count++;
  }
  return 0;
}

/* The table libdwarf takes a list from: the one whose offsets start at
 * the unit's DW_AT_rnglists_base when it has one, else the one the offset
 * falls in. NULL when none (libdwarf then refuses the list itself). */
static const struct rnglists_table *
table_of(const struct rnglists *rl, const struct unit *u, uint64_t offset) {
  for (size_t i = 0; i < rl->count; i++) {
    const struct rnglists_table *t = &rl->tables[i];
    if (u->has_rnglists_base ? t->offsets == u->rnglists_base
                             : offset >= t->header && offset < t->end)
      return t;
  }
  return NULL;
}

/* Walks the entries from start to the end of the list; whether all of
 * them, the end of list included, lie within the table. */
static int whole_list(const struct rnglists *rl, const struct rnglists_table *t,
                      uint64_t start) {
  struct reader c = {rl->data + start, rl->data + t->end, 0};
  while (!c.bad) {
    unsigned kind = (unsigned)read_fixed(&c, 1);
    switch (c.bad ? DW_RLE_end_of_list : kind) {
    case DW_RLE_end_of_list:
      return !c.bad;
    case DW_RLE_base_addressx:
      read_uleb(&c);
      break;
    case DW_RLE_startx_endx:
    case DW_RLE_startx_length:
    case DW_RLE_offset_pair:
      read_uleb(&c);
      read_uleb(&c);
      break;
    case DW_RLE_base_address:
      read_fixed(&c, t->address_size);
      break;
    case DW_RLE_start_end:
      read_fixed(&c, t->address_size);
      read_fixed(&c, t->address_size);
      break;
    case DW_RLE_start_length:
      read_fixed(&c, t->address_size);
      read_uleb(&c);
      break;
    default:
      return 0;
    }
  }
  return 0;
}

int rnglists_check_list(const struct unit *u, Dwarf_Half form, uint64_t value,
                        uint64_t die) {
  struct debuginfo *di = u->di;
  const struct rnglists *rl = &di->rnglists;
  if (form == DW_FORM_rnglistx && !u->has_rnglists_base)
    return 0; /* libdwarf refuses it without reading */
  const struct rnglists_table *t = table_of(rl, u, value);
  if (!t || (form == DW_FORM_rnglistx && value >= t->count))
    return 0; /* the same */
  uint64_t start = value;
  if (form == DW_FORM_rnglistx) {
    struct reader c = {rl->data + t->offsets + value * t->offset_size,
                       rl->data + t->end, 0};
    start = t->offsets + read_fixed(&c, t->offset_size);
  }
  if (start < t->lists || start >= t->end) {
    debuginfo_corrupt(di,
                      ".debug_rnglists: the range list of the DIE at 0x%llx "
                      "starts outside its table (at 0x%llx)",
                      (unsigned long long)die, (unsigned long long)start);
    return -1;
  }
  if (!whole_list(rl, t, start)) {
    debuginfo_corrupt(
        di,
        ".debug_rnglists: the range list of the DIE at 0x%llx "
        "(at 0x%llx) has an unknown entry or no end within its table",
        (unsigned long long)die, (unsigned long long)start);
    return -1;
  }
  return 0;
}
