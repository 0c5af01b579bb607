/*
 * A raw profile in memory, for a merge: the file found at a pool's name
 * (written by any process, or by something else entirely) and this run,
 * rendered. The header and the section table are checked against the
 * size here; each payload is checked by the part of the merge that reads
 * it. And whether the file holds runs of this very image: the same
 * build-id, the same modes, the same counter arrays.
 */
#include <stdarg.h>

#include "merge.h"
#include "mip/layouts.h"

int mip_rt_why_set(struct mip_rt_why *why, const char *first, ...) {
  size_t n = 0;
  va_list ap;
  va_start(ap, first);
  for (const char *s = first; s; s = va_arg(ap, const char *))
    n = mip_rt_append(why->text, n, sizeof why->text, s);
  va_end(ap);
  return -1;
}

static int corrupt(struct mip_rt_why *why, const char *what) {
  return mip_rt_why_set(why, "it is not a valid raw profile (", what, ")",
                        NULL);
}

static int read_header(const uint8_t *data, uint64_t size,
                       struct mip_rt_view *v, struct mip_rt_why *why,
                       uint32_t *section_count) {
  if (size < 16 || mip_get_le64(data) != MIP_RAW_MAGIC)
    return mip_rt_why_set(why, "it is not a MIP raw profile", NULL);
  uint32_t version = mip_get_le32(data + 8);
  if (version != MIP_RAW_VERSION) {
    char digits[24];
    mip_rt_append_u64(digits, 0, sizeof digits, version);
    return mip_rt_why_set(why, "it is a raw profile of format version ",
                          digits, ", which this MIP does not merge", NULL);
  }
  if (size < mip_rec_raw_header_size)
    return corrupt(why, "truncated header");
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, data);
  if (h.header_size != mip_rec_raw_header_size ||
      h.build_id_size > MIP_BUILD_ID_MAX ||
      h.flags & ~(MIP_RAW_POOLED | MIP_RAW_COV_ZERO) ||
      (h.flags & MIP_RAW_POOLED && h.flags & MIP_RAW_COV_ZERO) ||
      h.section_count > MIP_RT_MAX_PAYLOADS ||
      ((h.flags & MIP_RAW_POOLED) ? h.runs == 0 : h.runs != 1))
    return corrupt(why, "bad header");
  v->pooled = (h.flags & MIP_RAW_POOLED) != 0;
  v->cov_zero = (h.flags & MIP_RAW_COV_ZERO) != 0;
  v->modes = h.modes;
  v->runs = h.runs;
  v->build_id_size = h.build_id_size;
  mip_copy_bytes(v->build_id, h.build_id, h.build_id_size);
  *section_count = h.section_count;
  return 0;
}

int mip_rt_view_read(const uint8_t *data, uint64_t size,
                     struct mip_rt_view *v, struct mip_rt_why *why) {
  uint32_t count;
  v->present = 1;
  v->count = 0;
  if (read_header(data, size, v, why, &count))
    return -1;
  uint64_t table = mip_rec_raw_header_size;
  if (count * (uint64_t)mip_rec_raw_section_size > size - table)
    return corrupt(why, "truncated section table");
  for (uint32_t i = 0; i < count; i++) {
    struct mip_rec_raw_section s;
    mip_rec_raw_section_decode(&s, data + table + i * mip_rec_raw_section_size);
    if (s.offset > size || s.size > size - s.offset)
      return corrupt(why, "a section lies outside the file");
    if (s.elem_size == 0 || s.size % s.elem_size || mip_rt_view_find(v, s.kind))
      return corrupt(why, "bad section table");
    /* Each kind of the file is the kind a run has, or its totals. */
    int total = s.kind > MIP_RAW_POOL_BASE && s.kind <= MIP_RAW_POOL_LAST;
    if (s.kind < MIP_RAW_EDGES ? v->pooled : total && !v->pooled)
      return corrupt(why, "counters of a run in a pooled file, or totals "
                          "in a file of one run");
    v->sections[v->count++] = (struct mip_rt_section){
        s.kind, s.elem_size, s.link_addr, s.size, data + s.offset};
  }
  return 0;
}

const struct mip_rt_section *mip_rt_view_find(const struct mip_rt_view *v,
                                              uint32_t kind) {
  for (size_t i = 0; i < v->count; i++)
    if (v->sections[i].kind == kind)
      return &v->sections[i];
  return NULL;
}

/* Mode bits of the counter kinds: those of the image, not of a run. */
#define COUNTER_MODES(modes) ((modes) & (MIP_MODE_BIT(MIP_RAW_EDGES) - 1))

int mip_rt_view_same_image(const struct mip_rt_view *old,
                           const struct mip_rt_view *run,
                           struct mip_rt_why *why) {
  if (!old->present)
    return 0;
  int same_id = old->build_id_size == run->build_id_size;
  for (uint32_t i = 0; same_id && i < run->build_id_size; i++)
    same_id = old->build_id[i] == run->build_id[i];
  if (!same_id)
    return mip_rt_why_set(why, "it holds the profile of another build "
                               "(another build-id)", NULL);
  if (COUNTER_MODES(old->modes) != COUNTER_MODES(run->modes))
    return mip_rt_why_set(why, "it holds the profile of another build "
                               "(other modes)", NULL);
  return 0; /* the counter arrays: merge_counters.c */
}
