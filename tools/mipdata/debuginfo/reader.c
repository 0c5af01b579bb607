/*
 * Reading DWARF's own encodings from a section's bytes, where mipdata reads
 * them itself (line programs, lines.c; range lists checked before libdwarf
 * reads them, rnglists.c): little-endian numbers and LEB128, never past
 * the end.
 */
#include "index.h"

uint64_t read_fixed(struct reader *r, size_t n) {
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

uint64_t read_uleb(struct reader *r) {
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

int64_t read_sleb(struct reader *r) {
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
