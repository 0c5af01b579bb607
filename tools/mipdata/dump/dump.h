/* mipdata dump: one file per kind of MIP file (dump_*.c), each checking
 * the whole file with the library's reader before printing any of it. */
#ifndef MIPDATA_DUMP_H
#define MIPDATA_DUMP_H

#include "dump_out.h"
#include "mipfmt.h"

/* The file at path, whose bytes are *f (taken: freed, *f emptied, as a
 * parse takes them), dumped as what its first bytes say it is; 0, or -1
 * with err set and nothing printed. An ELF file is read again from path
 * (libelf reads it); everything else is parsed from the bytes. */
int dump_bytes(const char *path, struct mip_file *f, struct dump_out *d,
               struct mip_error *err);

/* One kind each, the bytes taken as by dump_bytes. */
int dump_raw(const char *path, struct mip_file *f, struct dump_out *d,
             struct mip_error *err);
int dump_profile(const char *path, struct mip_file *f, struct dump_out *d,
                 struct mip_error *err);
/* A map file, a bare map section, or an ELF file holding one. */
int dump_map(const char *path, struct mip_file *f, struct dump_out *d,
             struct mip_error *err);

/* Counters and other arrays of one element size, each element with its
 * offset. */
void dump_elements(struct dump_out *d, const char *key, const uint8_t *p,
                   uint64_t count, uint32_t elem_size, uint64_t offset);

/* Heap contexts (raw and indexed): the schema, count u32 MemInfoBlock
 * field ids at schema, and a record's fields in the schema's order from
 * byte at of the record, each named as mib.inc names it. */
void dump_mib_schema(struct dump_out *d, const char *key, const uint8_t *schema,
                     uint64_t count, uint64_t offset);
void dump_mib_fields(struct dump_out *d, const uint8_t *schema, uint64_t count,
                     const uint8_t *record, uint32_t at, uint64_t offset);

#endif
