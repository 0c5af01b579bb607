/*
 * Indexed profiles (.mip) on disk: a header, a table of typed sections and
 * the sections (mip/layout/profile_*.inc). Readers skip section kinds they
 * do not know and fields past the ones they know (entry_size), so later
 * versions can add data without breaking this reader.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mip/layouts.h"
#include "mipfmt.h"

/* ---- writing -------------------------------------------------------- */

struct section_out {
  uint32_t kind;
  uint32_t entry_size;
  struct mip_buf data;
};

static void encode_extents(const struct mip_profile *p, struct mip_buf *out) {
  for (size_t i = 0; i < p->extent_count; i++) {
    const struct mip_extent *e = &p->extents[i];
    struct mip_rec_raw_extent r = {e->kind, e->elem_size, e->link_addr,
                                   e->size};
    mip_rec_raw_extent_encode(&r, mip_buf_extend(out, mip_rec_raw_extent_size));
  }
}

static void encode_functions(const struct mip_profile *p,
                             struct mip_buf *out) {
  for (size_t i = 0; i < p->function_count; i++) {
    const struct mip_profile_function *f = &p->functions[i];
    struct mip_rec_profile_function r = {
        f->key,   f->name,       f->unit,      f->flags,
        f->cfg_hash, f->entry, f->cov_offset, f->covered_runs};
    mip_rec_profile_function_encode(
        &r, mip_buf_extend(out, mip_rec_profile_function_size));
  }
}

static void layout(const struct mip_profile *p, struct mip_buf *file,
                   struct section_out *sections, size_t count) {
  struct mip_rec_profile_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_PROFILE_MAGIC;
  h.version = MIP_PROFILE_VERSION;
  h.header_size = mip_rec_profile_header_size;
  h.modes = p->modes;
  h.runs = p->runs;
  h.section_count = (uint32_t)count;
  h.build_id_size = p->build_id.size;
  memcpy(h.build_id, p->build_id.bytes, p->build_id.size);
  mip_rec_profile_header_encode(&h,
                                mip_buf_extend(file, mip_rec_profile_header_size));
  size_t table = file->size;
  mip_buf_extend(file, count * mip_rec_profile_section_size);
  for (size_t i = 0; i < count; i++) {
    mip_buf_align(file, 8);
    struct mip_rec_profile_section s = {sections[i].kind, sections[i].entry_size,
                                        file->size, sections[i].data.size};
    mip_buf_append(file, sections[i].data.data, sections[i].data.size);
    mip_rec_profile_section_encode(&s, file->data + table +
                                           i * mip_rec_profile_section_size);
  }
  mip_buf_align(file, 8);
}

int mip_profile_write(const char *path, const struct mip_profile *p,
                      struct mip_error *err) {
  struct section_out sections[] = {
      {MIP_PROF_STRINGS, 1, {0}},
      {MIP_PROF_EXTENTS, mip_rec_raw_extent_size, {0}},
      {MIP_PROF_FUNCTIONS, mip_rec_profile_function_size, {0}},
  };
  size_t count = sizeof sections / sizeof sections[0];
  mip_buf_append(&sections[0].data, p->strings.data, p->strings.size);
  encode_extents(p, &sections[1].data);
  encode_functions(p, &sections[2].data);
  struct mip_buf file = {0};
  layout(p, &file, sections, count);
  int rc = mip_file_write_atomic(path, file.data, file.size, err);
  mip_buf_free(&file);
  for (size_t i = 0; i < count; i++)
    mip_buf_free(&sections[i].data);
  return rc;
}

/* ---- reading -------------------------------------------------------- */

struct section_in {
  const uint8_t *data;
  uint64_t size;
  uint32_t entry_size;
  int present;
};

static int read_table(const struct mip_file *f,
                      const struct mip_rec_profile_header *h,
                      struct section_in *known, uint32_t known_count,
                      const char *path, struct mip_error *err) {
  uint64_t end = h->header_size +
                 (uint64_t)h->section_count * mip_rec_profile_section_size;
  if (end > f->size)
    return mip_fail(err, path,
                    "truncated profile (section table needs %" PRIu64
                    " bytes, file has %zu)",
                    end, f->size);
  for (uint32_t i = 0; i < h->section_count; i++) {
    struct mip_rec_profile_section s;
    mip_rec_profile_section_decode(&s, f->data + h->header_size +
                                           i * mip_rec_profile_section_size);
    if (s.offset > f->size || s.size > f->size - s.offset)
      return mip_fail(err, path,
                      "truncated profile (section %" PRIu32
                      " needs bytes up to %" PRIu64 ", file has %zu)",
                      i, s.offset + s.size, f->size);
    if (s.entry_size == 0 || s.size % s.entry_size)
      return mip_fail(err, path,
                      "corrupt profile: section %" PRIu32 " has a bad entry "
                      "size",
                      i);
    if (s.kind >= known_count)
      continue; /* added by a later version */
    if (known[s.kind].present)
      return mip_fail(err, path, "corrupt profile: section kind %" PRIu32
                                 " twice",
                      s.kind);
    known[s.kind] = (struct section_in){f->data + s.offset, s.size,
                                        s.entry_size, 1};
  }
  return 0;
}

static int need(const struct section_in *s, uint32_t min_entry,
                const char *what, const char *path, struct mip_error *err) {
  if (!s->present)
    return mip_fail(err, path, "corrupt profile: no %s section", what);
  if (s->entry_size < min_entry)
    return mip_fail(err, path, "corrupt profile: %s entries too small",
                    what);
  return 0;
}

static int read_strings(struct mip_profile *p, const struct section_in *s,
                        const char *path, struct mip_error *err) {
  if (s->size == 0 || s->data[0] != '\0' || s->data[s->size - 1] != '\0')
    return mip_fail(err, path, "corrupt profile: bad string table");
  mip_buf_append(&p->strings, s->data, s->size);
  return 0;
}

static void read_extents(struct mip_profile *p, const struct section_in *s) {
  for (uint64_t at = 0; at < s->size && p->extent_count < MIP_MAX_EXTENTS;
       at += s->entry_size) {
    struct mip_rec_raw_extent r;
    mip_rec_raw_extent_decode(&r, s->data + at);
    p->extents[p->extent_count++] =
        (struct mip_extent){r.kind, r.elem_size, r.link_addr, r.size};
  }
}

static int read_functions(struct mip_profile *p, const struct section_in *s,
                          const char *path, struct mip_error *err) {
  size_t count = s->size / s->entry_size;
  p->functions = mip_xcalloc(count, sizeof *p->functions);
  for (size_t i = 0; i < count; i++) {
    struct mip_rec_profile_function r;
    mip_rec_profile_function_decode(&r, s->data + i * s->entry_size);
    if (r.key >= p->strings.size || r.name >= p->strings.size ||
        r.unit >= p->strings.size)
      return mip_fail(err, path,
                      "corrupt profile: function %zu names a string out of "
                      "range",
                      i);
    p->functions[i] = (struct mip_profile_function){
        r.key,   r.name,       r.unit,      r.flags,
        r.cfg_hash, r.entry, r.cov_offset, r.covered_runs};
    p->function_count++;
  }
  return 0;
}

static int parse(struct mip_profile *p, const struct mip_file *f,
                 const char *path, struct mip_error *err) {
  if (mip_check_start(f, path, MIP_PROFILE_MAGIC, "indexed profile",
                      mip_rec_profile_header_size, err))
    return -1;
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, f->data);
  if (mip_check_header(f, path, "profile", h.version, MIP_PROFILE_VERSION,
                       h.header_size, mip_rec_profile_header_size,
                       h.build_id_size, err))
    return -1;
  p->modes = h.modes;
  p->runs = h.runs;
  p->build_id.size = h.build_id_size;
  memcpy(p->build_id.bytes, h.build_id, h.build_id_size);

  struct section_in known[MIP_PROF_FUNCTIONS + 1] = {{0}};
  if (read_table(f, &h, known, MIP_PROF_FUNCTIONS + 1, path, err) ||
      need(&known[MIP_PROF_STRINGS], 1, "string", path, err) ||
      need(&known[MIP_PROF_EXTENTS], mip_rec_raw_extent_size, "extent", path,
           err) ||
      need(&known[MIP_PROF_FUNCTIONS], mip_rec_profile_function_size,
           "function", path, err) ||
      read_strings(p, &known[MIP_PROF_STRINGS], path, err))
    return -1;
  read_extents(p, &known[MIP_PROF_EXTENTS]);
  return read_functions(p, &known[MIP_PROF_FUNCTIONS], path, err);
}

int mip_profile_read(const char *path, struct mip_profile *p,
                     struct mip_error *err) {
  memset(p, 0, sizeof *p);
  struct mip_file f;
  if (mip_file_read(path, &f, err))
    return -1;
  int rc = parse(p, &f, path, err);
  mip_file_free(&f);
  return rc;
}

void mip_profile_free(struct mip_profile *p) {
  free(p->functions);
  p->functions = NULL;
  p->function_count = 0;
  mip_buf_free(&p->strings);
}
