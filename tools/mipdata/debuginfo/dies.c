/*
 * Attributes of DIEs through libdwarf, and the address ranges a DIE's
 * code covers (low_pc/high_pc, or DW_AT_ranges: .debug_rnglists in
 * DWARF 5, .debug_ranges before).
 */
#include <stdio.h>

#include "index.h"

void drop_error(Dwarf_Debug dbg, Dwarf_Error *e) {
  if (*e) {
    dwarf_dealloc_error(dbg, *e);
    *e = NULL;
  }
}

/* Reads attribute name of die with form (a libdwarf dwarf_form*
 * function) into out; -1 when die has no such attribute of that form. */
static int read_attribute(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name,
                          int (*form)(Dwarf_Attribute, void *, Dwarf_Error *),
                          void *out) {
  Dwarf_Attribute attr;
  Dwarf_Error e = NULL;
  int rc = -1;
  if (dwarf_attr(die, name, &attr, &e) == DW_DLV_OK) {
    rc = form(attr, out, &e) == DW_DLV_OK ? 0 : -1;
    dwarf_dealloc_attribute(attr);
  }
  drop_error(dbg, &e);
  return rc;
}

static int form_udata(Dwarf_Attribute attr, void *out, Dwarf_Error *e) {
  return dwarf_formudata(attr, out, e);
}

static int form_string(Dwarf_Attribute attr, void *out, Dwarf_Error *e) {
  return dwarf_formstring(attr, out, e);
}

static int form_ref(Dwarf_Attribute attr, void *out, Dwarf_Error *e) {
  return dwarf_global_formref(attr, out, e);
}

int die_udata(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name,
              Dwarf_Unsigned *out) {
  return read_attribute(dbg, die, name, form_udata, out);
}

/* Copies the string into buf: libdwarf's lives in the section. */
int die_string(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name, char *buf,
               size_t size) {
  char *str = NULL;
  if (read_attribute(dbg, die, name, form_string, &str) != 0 || !str)
    return -1;
  snprintf(buf, size, "%s", str);
  return 0;
}

/* The global offset of the DIE an attribute refers to. */
int die_ref(Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half name, Dwarf_Off *out) {
  return read_attribute(dbg, die, name, form_ref, out);
}

Dwarf_Die die_referenced(Dwarf_Debug dbg, Dwarf_Die die) {
  Dwarf_Off off;
  Dwarf_Die target = NULL;
  Dwarf_Error e = NULL;
  if ((die_ref(dbg, die, DW_AT_abstract_origin, &off) == 0 ||
       die_ref(dbg, die, DW_AT_specification, &off) == 0) &&
      dwarf_offdie_b(dbg, off, 1, &target, &e) != DW_DLV_OK)
    target = NULL;
  drop_error(dbg, &e);
  return target;
}

/* ---- address ranges ---------------------------------------------------- */

int real_code(uint64_t lo, uint64_t hi) {
  return lo < hi && lo != 0 && hi < UINT64_MAX - 1;
}

static void add_range(struct ranges *r, uint64_t lo, uint64_t hi) {
  if (real_code(lo, hi) && r->n < 64) {
    r->lo[r->n] = lo;
    r->hi[r->n++] = hi;
  }
}

/* The index or offset a DW_AT_ranges attribute of DWARF 5 gives. */
static int rnglist_value(Dwarf_Attribute attr, Dwarf_Half form,
                         Dwarf_Unsigned *value, Dwarf_Error *e) {
  Dwarf_Off off;
  if (form == DW_FORM_rnglistx)
    return dwarf_formudata(attr, value, e) == DW_DLV_OK ? 0 : -1;
  if (dwarf_global_formref(attr, &off, e) != DW_DLV_OK)
    return -1;
  *value = off;
  return 0;
}

/* The list is checked first (rnglists.c): libdwarf reads where the
 * attribute points without looking. */
static void rnglists(const struct unit *u, Dwarf_Die die, Dwarf_Attribute attr,
                     struct ranges *r) {
  Dwarf_Error e = NULL;
  Dwarf_Half form = 0;
  Dwarf_Off die_offset = 0;
  Dwarf_Unsigned value = 0, count = 0, global = 0;
  Dwarf_Rnglists_Head head = NULL;
  if (dwarf_whatform(attr, &form, &e) != DW_DLV_OK ||
      rnglist_value(attr, form, &value, &e) != 0 ||
      dwarf_dieoffset(die, &die_offset, &e) != DW_DLV_OK ||
      rnglists_check_list(u, form, value, die_offset) != 0 ||
      dwarf_rnglists_get_rle_head(attr, form, value, &head, &count, &global,
                                  &e) != DW_DLV_OK) {
    drop_error(u->dbg, &e);
    return;
  }
  for (Dwarf_Unsigned i = 0; i < count; i++) {
    unsigned length = 0, code = 0;
    Dwarf_Unsigned raw1, raw2, lo, hi;
    Dwarf_Bool unavailable = 0;
    if (dwarf_get_rnglists_entry_fields_a(head, i, &length, &code, &raw1, &raw2,
                                          &unavailable, &lo, &hi,
                                          &e) != DW_DLV_OK) {
      drop_error(u->dbg, &e);
      break;
    }
    if (!unavailable && code != DW_RLE_end_of_list &&
        code != DW_RLE_base_address && code != DW_RLE_base_addressx)
      add_range(r, lo, hi);
  }
  dwarf_dealloc_rnglists_head(head);
}

static void debug_ranges(const struct unit *u, Dwarf_Die die,
                         Dwarf_Attribute attr, struct ranges *r) {
  Dwarf_Error e = NULL;
  Dwarf_Off off = 0, real = 0;
  Dwarf_Unsigned udata;
  if (dwarf_global_formref(attr, &off, &e) != DW_DLV_OK) {
    drop_error(u->dbg, &e);
    if (dwarf_formudata(attr, &udata, &e) != DW_DLV_OK) {
      drop_error(u->dbg, &e);
      return;
    }
    off = udata;
  }
  Dwarf_Ranges *list = NULL;
  Dwarf_Signed count = 0;
  Dwarf_Unsigned bytes = 0;
  if (dwarf_get_ranges_b(u->dbg, off, die, &real, &list, &count, &bytes, &e) !=
      DW_DLV_OK) {
    drop_error(u->dbg, &e);
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

void die_ranges(const struct unit *u, Dwarf_Die die, struct ranges *r) {
  Dwarf_Error e = NULL;
  Dwarf_Addr lo, hi;
  Dwarf_Half form = 0;
  enum Dwarf_Form_Class cls = DW_FORM_CLASS_UNKNOWN;
  r->n = 0;
  r->has_low_pc = dwarf_lowpc(die, &lo, &e) == DW_DLV_OK;
  drop_error(u->dbg, &e);
  if (r->has_low_pc) {
    r->low_pc = lo;
    if (dwarf_highpc_b(die, &hi, &form, &cls, &e) == DW_DLV_OK)
      add_range(r, lo, cls == DW_FORM_CLASS_CONSTANT ? lo + hi : hi);
    drop_error(u->dbg, &e);
    return;
  }
  Dwarf_Attribute attr;
  if (dwarf_attr(die, DW_AT_ranges, &attr, &e) != DW_DLV_OK) {
    drop_error(u->dbg, &e);
    return;
  }
  if (u->version >= 5)
    rnglists(u, die, attr, r);
  else
    debug_ranges(u, die, attr, r);
  dwarf_dealloc_attribute(attr);
}
