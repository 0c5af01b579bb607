/*
 * Building and growing indexed profiles. Merging only adds, so the result
 * does not depend on the order of its inputs.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mipfmt.h"

static uint32_t add_string(struct mip_buf *strings, const char *a,
                           const char *sep, const char *b) {
  uint32_t at = (uint32_t)strings->size;
  mip_buf_append(strings, a, strlen(a));
  mip_buf_append(strings, sep, strlen(sep));
  mip_buf_append(strings, b, strlen(b) + 1);
  return at;
}

static int by_key(const void *a, const void *b, void *profile) {
  const struct mip_profile_function *x = a, *y = b;
  int c = strcmp(mip_profile_string(profile, x->key),
                 mip_profile_string(profile, y->key));
  if (c)
    return c;
  return (x->entry > y->entry) - (x->entry < y->entry);
}

void mip_profile_from_map(const struct mip_map *map, struct mip_profile *p) {
  memset(p, 0, sizeof *p);
  p->build_id = map->build_id;
  memcpy(p->extents, map->extents, sizeof map->extents);
  p->extent_count = map->extent_count;
  for (size_t i = 0; i < p->extent_count; i++)
    p->modes |= MIP_MODE_BIT(p->extents[i].kind);
  mip_buf_extend(&p->strings, 1); /* offset 0: "" */
  const struct mip_extent *cov =
      mip_extent_find(map->extents, map->extent_count, MIP_RAW_COV);
  p->functions = mip_xcalloc(map->function_count, sizeof *p->functions);
  p->function_count = map->function_count;
  for (size_t i = 0; i < map->function_count; i++) {
    const struct mip_map_function *m = &map->functions[i];
    struct mip_profile_function *f = &p->functions[i];
    int local = (m->flags & MIP_FN_LOCAL) && m->unit[0];
    /* Locals are keyed "unit;name"; name points into the same string. */
    f->key = add_string(&p->strings, local ? m->unit : "", local ? ";" : "",
                        m->name);
    f->name = local ? f->key + (uint32_t)strlen(m->unit) + 1 : f->key;
    f->unit = local ? add_string(&p->strings, m->unit, "", "") : 0;
    f->flags = m->flags;
    f->cfg_hash = m->cfg_hash;
    f->entry = m->entry;
    f->cov_offset = m->cov_addr - cov->link_addr;
  }
  if (p->function_count)
    qsort_r(p->functions, p->function_count, sizeof *p->functions, by_key, p);
}

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static int check_same_build(const struct mip_profile *p, const char *p_path,
                            const struct mip_build_id *id,
                            const char *other_path, struct mip_error *err) {
  if (!p->build_id.size || !id->size || mip_build_id_equal(&p->build_id, id))
    return 0;
  char mine[2 * MIP_BUILD_ID_MAX + 1], theirs[2 * MIP_BUILD_ID_MAX + 1];
  return mip_fail(err, other_path,
                  "from another build: build-id %s, but %s is for build-id %s",
                  mip_build_id_hex(id, theirs, sizeof theirs), p_path,
                  mip_build_id_hex(&p->build_id, mine, sizeof mine));
}

static int check_extent(const struct mip_extent *want,
                        const struct mip_extent *have, const char *p_path,
                        const char *other_path, struct mip_error *err) {
  if (!have)
    return mip_fail(err, other_path,
                    "has no counters of kind %" PRIu32 " that %s expects",
                    want->kind, p_path);
  if (have->link_addr != want->link_addr || have->size != want->size ||
      have->elem_size != want->elem_size)
    return mip_fail(err, other_path,
                    "from another build: its counters (kind %" PRIu32
                    ", %" PRIu64 " bytes at 0x%" PRIx64
                    ") do not match %s (%" PRIu64 " bytes at 0x%" PRIx64 ")",
                    want->kind, have->size, have->link_addr, p_path,
                    want->size, want->link_addr);
  return 0;
}

int mip_profile_add_raw(struct mip_profile *p, const char *p_path,
                        const struct mip_raw *raw, const char *raw_path,
                        struct mip_error *err) {
  if (check_same_build(p, p_path, &raw->build_id, raw_path, err))
    return -1;
  for (size_t i = 0; i < p->extent_count; i++) {
    const struct mip_raw_payload *s = mip_raw_find(raw, p->extents[i].kind);
    if (check_extent(&p->extents[i], s ? &s->extent : NULL, p_path, raw_path,
                     err))
      return -1;
  }
  const struct mip_raw_payload *cov = mip_raw_find(raw, MIP_RAW_COV);
  for (size_t i = 0; i < p->function_count; i++) {
    struct mip_profile_function *f = &p->functions[i];
    if (f->cov_offset < cov->extent.size && cov->data[f->cov_offset])
      f->covered_runs = add_saturating(f->covered_runs, 1);
  }
  p->runs = add_saturating(p->runs, 1);
  return 0;
}

static int same_functions(const struct mip_profile *a,
                          const struct mip_profile *b) {
  if (a->function_count != b->function_count)
    return 0;
  for (size_t i = 0; i < a->function_count; i++)
    if (a->functions[i].cov_offset != b->functions[i].cov_offset ||
        a->functions[i].cfg_hash != b->functions[i].cfg_hash ||
        strcmp(mip_profile_string(a, a->functions[i].key),
               mip_profile_string(b, b->functions[i].key)))
      return 0;
  return 1;
}

int mip_profile_add_profile(struct mip_profile *p, const char *p_path,
                            const struct mip_profile *other,
                            const char *other_path, struct mip_error *err) {
  if (check_same_build(p, p_path, &other->build_id, other_path, err))
    return -1;
  for (size_t i = 0; i < p->extent_count; i++)
    if (check_extent(&p->extents[i],
                     mip_extent_find(other->extents, other->extent_count,
                                     p->extents[i].kind),
                     p_path, other_path, err))
      return -1;
  if (!same_functions(p, other))
    return mip_fail(err, other_path,
                    "from another build: its functions differ from %s",
                    p_path);
  for (size_t i = 0; i < p->function_count; i++)
    p->functions[i].covered_runs = add_saturating(
        p->functions[i].covered_runs, other->functions[i].covered_runs);
  p->runs = add_saturating(p->runs, other->runs);
  return 0;
}
