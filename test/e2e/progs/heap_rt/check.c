/*
 * check FILE.mipraw: prints the heap payloads of a raw profile, decoded
 * with the layout decoders, one line each:
 *   kinds K...
 *   sites SET/ALL                 (site bytes that are not 0)
 *   stat KEY VALUE
 *   context site=0x... stack=ID Name=VALUE... (every field of the schema)
 *   stack ID DEPTH FLAGS 0xFRAME...
 *   segment 0xSTART 0xEND 0xBIAS BUILD_ID_SIZE NAME
 * and exits 1 on anything malformed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"

static const char *field_name(uint32_t id) {
  switch (id) {
#define MIP_MIB_FIELD(id, Name, type)                                          \
  case id:                                                                     \
    return #Name;
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  }
  return NULL;
}

#define WIDTH_u32 4
#define WIDTH_u64 8

static uint32_t field_width(uint32_t id) {
  switch (id) {
#define MIP_MIB_FIELD(id, Name, type)                                          \
  case id:                                                                     \
    return WIDTH_##type;
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  }
  return 8;
}

static void bad(const char *what) {
  fprintf(stderr, "check: %s\n", what);
  exit(1);
}

static void mibs(const uint8_t *p, uint64_t size) {
  struct mip_rec_raw_heap_mibs h;
  if (size < mip_rec_raw_heap_mibs_size)
    bad("short MIBS");
  mip_rec_raw_heap_mibs_decode(&h, p);
  uint64_t schema = ((uint64_t)h.field_count * 4 + 7) & ~7ull;
  if (mip_rec_raw_heap_mibs_size + schema + h.record_count * h.record_size !=
      size)
    bad("MIBS size");
  const uint8_t *ids = p + mip_rec_raw_heap_mibs_size;
  const uint8_t *r = ids + schema;
  for (uint64_t i = 0; i < h.record_count; i++, r += h.record_size) {
    struct mip_rec_raw_heap_context c;
    mip_rec_raw_heap_context_decode(&c, r);
    printf("context site=0x%llx stack=%llu", (unsigned long long)c.site,
           (unsigned long long)c.stack);
    uint64_t at = mip_rec_raw_heap_context_size;
    for (uint32_t f = 0; f < h.field_count; f++) {
      uint32_t id = mip_get_le32(ids + 4 * f), w = field_width(id);
      uint64_t v = w == 4 ? mip_get_le32(r + at) : mip_get_le64(r + at);
      if (field_name(id))
        printf(" %s=%llu", field_name(id), (unsigned long long)v);
      at += w;
    }
    if (at > h.record_size)
      bad("record size");
    printf("\n");
  }
}

static void stacks(const uint8_t *p, uint64_t size) {
  for (uint64_t at = 0; at < size;) {
    struct mip_rec_raw_heap_stack s;
    mip_rec_raw_heap_stack_decode(&s, p + at);
    at += mip_rec_raw_heap_stack_size;
    if (at + 8ull * s.depth > size)
      bad("stack size");
    printf("stack %llu %u %u", (unsigned long long)s.id, s.depth, s.flags);
    for (uint32_t i = 0; i < s.depth; i++, at += 8)
      printf(" 0x%llx", (unsigned long long)mip_get_le64(p + at));
    printf("\n");
  }
}

static void segments(const uint8_t *p, uint64_t size) {
  for (uint64_t at = 0; at < size;) {
    struct mip_rec_raw_heap_segment s;
    mip_rec_raw_heap_segment_decode(&s, p + at);
    const char *name = (const char *)p + at + mip_rec_raw_heap_segment_size;
    if (name[s.name_size] != 0)
      bad("segment name");
    printf("segment 0x%llx 0x%llx 0x%llx %u %s\n",
           (unsigned long long)s.start, (unsigned long long)s.end,
           (unsigned long long)s.load_bias, s.build_id_size,
           s.name_size ? name : "-");
    at += (mip_rec_raw_heap_segment_size + s.name_size + 1 + 7) & ~7ull;
  }
}

int main(int argc, char **argv) {
  FILE *f = argc == 2 ? fopen(argv[1], "rb") : NULL;
  if (!f)
    bad("usage: check FILE.mipraw");
  static uint8_t data[64 << 20];
  size_t n = fread(data, 1, sizeof data, f);
  fclose(f);
  struct mip_rec_raw_header h;
  if (n < mip_rec_raw_header_size)
    bad("short file");
  mip_rec_raw_header_decode(&h, data);
  if (h.magic != MIP_RAW_MAGIC)
    bad("not a raw profile");
  printf("kinds");
  for (uint32_t i = 0; i < h.section_count; i++) {
    struct mip_rec_raw_section s;
    mip_rec_raw_section_decode(&s, data + h.header_size +
                                       i * mip_rec_raw_section_size);
    printf(" %u", s.kind);
  }
  printf("\n");
  for (uint32_t i = 0; i < h.section_count; i++) {
    struct mip_rec_raw_section s;
    mip_rec_raw_section_decode(&s, data + h.header_size +
                                       i * mip_rec_raw_section_size);
    if (s.offset + s.size > n || s.size % s.elem_size)
      bad("section bounds");
    const uint8_t *p = data + s.offset;
    if (s.kind == MIP_RAW_SITE) {
      uint64_t set = 0;
      for (uint64_t at = 0; at < s.size; at++)
        set += p[at] != 0;
      printf("sites %llu/%llu\n", (unsigned long long)set,
             (unsigned long long)s.size);
    } else if (s.kind == MIP_RAW_STATS)
      for (uint64_t at = 0; at < s.size; at += mip_rec_raw_stat_size) {
        struct mip_rec_raw_stat st;
        mip_rec_raw_stat_decode(&st, p + at);
        printf("stat %u %llu\n", st.key, (unsigned long long)st.value);
      }
    else if (s.kind == MIP_RAW_HEAP_MIBS)
      mibs(p, s.size);
    else if (s.kind == MIP_RAW_HEAP_STACKS)
      stacks(p, s.size);
    else if (s.kind == MIP_RAW_HEAP_SEGMENTS)
      segments(p, s.size);
  }
  return 0;
}
