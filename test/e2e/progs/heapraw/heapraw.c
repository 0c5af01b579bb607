/*
 * heapraw IN.mipraw OUT.mipraw < SPEC
 * Writes OUT: IN's sections plus heap payloads described on standard
 * input, one per line, numbers in C syntax:
 *
 *   segment START END LOAD_BIAS BUILD_ID_HEX|- PATH|-
 *   stack ID FLAGS RETURN_ADDRESS...
 *   context STACK SITE Field=VALUE...   (MemInfoBlock fields by name)
 *   stat KEY VALUE
 *
 * so mipdata's heap side can be tested on real binaries with known call
 * stacks, whatever the runtime does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "mipfmt.h"

static struct mip_buf mibs, stacks, segments, stats;
static size_t context_count;
static struct mip_buf records;

static uint64_t number(const char *s) { return strtoull(s, NULL, 0); }

static void add_segment(char **w, int n) {
  struct mip_rec_raw_heap_segment r;
  memset(&r, 0, sizeof r);
  r.start = number(w[1]);
  r.end = number(w[2]);
  r.load_bias = number(w[3]);
  if (strcmp(w[4], "-"))
    for (const char *h = w[4]; h[0] && h[1] && r.build_id_size < 64; h += 2) {
      char byte[3] = {h[0], h[1], 0};
      r.build_id[r.build_id_size++] = (uint8_t)strtoul(byte, NULL, 16);
    }
  const char *path = n > 5 && strcmp(w[5], "-") ? w[5] : "";
  r.name_size = (uint32_t)strlen(path);
  mip_rec_raw_heap_segment_encode(
      &r, mip_buf_extend(&segments, mip_rec_raw_heap_segment_size));
  mip_buf_append(&segments, path, strlen(path) + 1);
  mip_buf_align(&segments, 8);
}

static void add_stack(char **w, int n) {
  struct mip_rec_raw_heap_stack r = {number(w[1]), (uint32_t)(n - 3),
                                     (uint32_t)number(w[2])};
  mip_rec_raw_heap_stack_encode(
      &r, mip_buf_extend(&stacks, mip_rec_raw_heap_stack_size));
  for (int i = 3; i < n; i++)
    mip_put_le64(mip_buf_extend(&stacks, 8), number(w[i]));
}

/* Records hold every field this build knows, in mib.inc order. */
static uint32_t record_size(void) {
  uint32_t size = mip_rec_raw_heap_context_size;
  for (int i = 0; i < MIP_MIB_COUNT; i++)
    size += mip_mib_defs[i].width;
  return (size + 7) & ~7u;
}

static void add_context(char **w, int n) {
  uint8_t *at = mip_buf_extend(&records, record_size());
  struct mip_rec_raw_heap_context head = {number(w[1]), number(w[2])};
  mip_rec_raw_heap_context_encode(&head, at);
  uint64_t v[MIP_MIB_COUNT] = {0};
  for (int i = 3; i < n; i++) {
    char *eq = strchr(w[i], '=');
    if (!eq)
      continue;
    *eq = 0;
    for (int f = 0; f < MIP_MIB_COUNT; f++)
      if (!strcmp(mip_mib_defs[f].name, w[i]))
        v[f] = number(eq + 1);
  }
  at += mip_rec_raw_heap_context_size;
  for (int f = 0; f < MIP_MIB_COUNT; f++) {
    if (mip_mib_defs[f].width == 4)
      mip_put_le32(at, (uint32_t)v[f]);
    else
      mip_put_le64(at, v[f]);
    at += mip_mib_defs[f].width;
  }
  context_count++;
}

static void add_stat(char **w) {
  struct mip_rec_raw_stat r = {(uint32_t)number(w[1]), 0, number(w[2])};
  mip_rec_raw_stat_encode(&r, mip_buf_extend(&stats, mip_rec_raw_stat_size));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fputs("usage: heapraw IN.mipraw OUT.mipraw < SPEC\n", stderr);
    return 2;
  }
  struct mip_raw raw;
  struct mip_error err;
  if (mip_raw_read(argv[1], &raw, &err)) {
    fprintf(stderr, "heapraw: %s\n", err.msg);
    return 1;
  }
  char line[8192];
  while (fgets(line, sizeof line, stdin)) {
    char *w[512];
    int n = 0;
    for (char *t = strtok(line, " \t\n"); t && n < 512;
         t = strtok(NULL, " \t\n"))
      w[n++] = t;
    if (n >= 5 && !strcmp(w[0], "segment"))
      add_segment(w, n);
    else if (n >= 3 && !strcmp(w[0], "stack"))
      add_stack(w, n);
    else if (n >= 3 && !strcmp(w[0], "context"))
      add_context(w, n);
    else if (n == 3 && !strcmp(w[0], "stat"))
      add_stat(w);
  }
  struct mip_rec_raw_heap_mibs h = {MIP_MIB_COUNT, record_size(),
                                    context_count};
  mip_rec_raw_heap_mibs_encode(
      &h, mip_buf_extend(&mibs, mip_rec_raw_heap_mibs_size));
  for (int f = 0; f < MIP_MIB_COUNT; f++)
    mip_put_le32(mip_buf_extend(&mibs, 4), mip_mib_defs[f].id);
  mip_buf_align(&mibs, 8);
  mip_buf_append(&mibs, records.data, records.size);

  /* the input's sections, then the heap payloads */
  struct mip_raw_payload out[MIP_MAX_EXTENTS];
  size_t count = 0;
  for (size_t i = 0; i < raw.section_count; i++)
    if (raw.sections[i].extent.kind != MIP_RAW_STATS || !stats.size)
      out[count++] = raw.sections[i];
  struct mip_buf *extra[] = {&stats, &mibs, &stacks, &segments};
  uint32_t kinds[] = {MIP_RAW_STATS, MIP_RAW_HEAP_MIBS, MIP_RAW_HEAP_STACKS,
                      MIP_RAW_HEAP_SEGMENTS};
  for (int i = 0; i < 4; i++)
    if (extra[i]->size || kinds[i] != MIP_RAW_STATS)
      out[count++] = (struct mip_raw_payload){
          {kinds[i], kinds[i] == MIP_RAW_STATS ? mip_rec_raw_stat_size : 1, 0,
           extra[i]->size},
          extra[i]->data};

  struct mip_rec_raw_header hdr;
  memset(&hdr, 0, sizeof hdr);
  hdr.magic = MIP_RAW_MAGIC;
  hdr.version = MIP_RAW_VERSION;
  hdr.header_size = mip_rec_raw_header_size;
  hdr.modes = raw.modes;
  hdr.section_count = (uint32_t)count;
  hdr.build_id_size = raw.build_id.size;
  memcpy(hdr.build_id, raw.build_id.bytes, raw.build_id.size);
  hdr.pid = raw.pid;
  hdr.runs = 1;
  struct mip_buf file = {0};
  mip_rec_raw_header_encode(&hdr,
                            mip_buf_extend(&file, mip_rec_raw_header_size));
  uint64_t offset =
      (mip_rec_raw_header_size + count * mip_rec_raw_section_size + 7) &
      ~(uint64_t)7;
  for (size_t i = 0; i < count; i++) {
    const struct mip_extent *e = &out[i].extent;
    struct mip_rec_raw_section s = {e->kind, e->elem_size, e->link_addr,
                                    e->size, offset};
    mip_rec_raw_section_encode(&s,
                               mip_buf_extend(&file, mip_rec_raw_section_size));
    offset += (e->size + 7) & ~(uint64_t)7;
  }
  for (size_t i = 0; i < count; i++) {
    mip_buf_align(&file, 8);
    mip_buf_append(&file, out[i].data, out[i].extent.size);
  }
  mip_buf_align(&file, 8);
  int rc = mip_file_write_atomic(argv[2], file.data, file.size, &err);
  if (rc)
    fprintf(stderr, "heapraw: %s\n", err.msg);
  mip_raw_free(&raw);
  return rc ? 1 : 0;
}
