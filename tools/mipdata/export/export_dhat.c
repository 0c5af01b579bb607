/*
 * mipdata export --format dhat: valgrind DHAT's JSON (dhatFileVersion 2),
 * for its viewer dh_view.html, one program point (PP) per heap context.
 *
 * What DHAT measures and MIP does not, MIP leaves out, with the flag the
 * viewer reads turned off, rather than fill it with something else:
 *   bklt  off. With block lifetimes on, the viewer requires each PP's
 *         bytes and blocks at the global peak (gb, gbk), which MIP does
 *         not record (it has each context's own peak).
 *   bkacc off. DHAT counts bytes read and bytes written; MIP counts
 *         accesses to 64-byte granules, reads and writes together.
 * So each PP has tb (bytes allocated) and tbk (blocks allocated), the
 * metrics bytes and allocs, and its frames, innermost first (fs; ftbl[0]
 * is "[root]", as the viewer wants). Times are in microseconds (tu "µs",
 * Mtu "s": rates per second); te, the program's duration, is the end of
 * the millisecond of the latest allocation or free the runtime timed (its
 * timestamps are whole milliseconds): the viewer's rates are per second of
 * that, and never divide by 0.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "emit.h"
#include "export.h"
#include "report_metric.h"

/* DHAT's form of a frame: "FUNCTION (FILE:LINE:COLUMN)", "FUNCTION (in
 * OBJECT)" outside the program's code. */
static uint32_t frame_id(struct export_names *ftbl, struct mip_buf *text,
                         const struct report_frame *f) {
  const char *object = report_frame_object(f);
  const char *s;
  if (f->file)
    s = export_format(text, "%s (%s:%" PRIu32 ":%" PRIu32 ")%s",
                      export_frame_function(f), f->file, f->line, f->column,
                      f->inlined ? " [inlined]" : "");
  else if (f->outside)
    s = export_format(text, "??? (in %s)", object);
  else if (object)
    s = export_format(text, "%s (in %s)", export_frame_function(f), object);
  else
    s = export_format(text, "%s", export_frame_function(f));
  return export_name_id(ftbl, s, NULL);
}

static uint64_t sum(const struct report_context *c, enum report_metric m) {
  struct report_amount a = {0, 0};
  report_amount_add(&a, m, &c->mib);
  return a.sum;
}

/* fs has room for depth frame ids; text is scratch. */
static void emit_pp(struct emitter *e, struct export_names *ftbl,
                    const struct report *r, const struct report_context *c,
                    uint64_t *fs, struct mip_buf *text) {
  emit_object_begin(e, NULL);
  emit_u64(e, "tb", sum(c, REPORT_BYTES));
  emit_u64(e, "tbk", sum(c, REPORT_ALLOCS));
  struct report_frame_iter it;
  report_frames_begin(&it, r, c, REPORT_LEAF_FIRST);
  size_t n = 0;
  for (const struct report_frame *f; (f = report_frames_next(&it));)
    fs[n++] = frame_id(ftbl, text, f);
  emit_u64_list(e, "fs", fs, n);
  emit_object_end(e);
}

/* The end of the millisecond of the latest allocation or free the
 * runtime timed, in microseconds. */
static uint64_t end_time(const struct report *r) {
  uint64_t ms = 0;
  for (size_t i = 0; i < r->context_count; i++) {
    const struct mip_mib *m = &r->contexts[i].mib;
    if (m->v[MIP_MIBI_AllocTimestamp] > ms)
      ms = m->v[MIP_MIBI_AllocTimestamp];
    if (m->v[MIP_MIBI_DeallocTimestamp] > ms)
      ms = m->v[MIP_MIBI_DeallocTimestamp];
  }
  return (ms + 1) * 1000;
}

static void emit_heading(struct emitter *e, const struct export_input *in,
                         struct mip_buf *text) {
  char note[REPORT_HEAP_NOTE_SIZE];
  report_heap_note(in->r, note, sizeof note);
  const char *cmd = export_format(
      text, "%s (MIP profile %s, build-id %s, %" PRIu64 " run%s%s%s)",
      in->debug ? in->debug : "?", in->r->path, in->r->build_id, in->r->runs,
      in->r->runs == 1 ? "" : "s", *note ? ", " : "", note);
  emit_u64(e, "dhatFileVersion", 2);
  emit_string(e, "mode", "heap");
  emit_string(e, "verb", "Allocated");
  emit_bool(e, "bklt", 0);
  emit_bool(e, "bkacc", 0);
  emit_string(e, "tu", "µs");
  emit_string(e, "Mtu", "s");
  emit_string(e, "cmd", cmd);
  emit_u64(e, "pid", 0);
  emit_u64(e, "te", end_time(in->r));
}

int export_dhat(const struct export_input *in, FILE *out,
                struct mip_error *err) {
  const struct report *r = in->r;
  if (export_need_heap(r, "DHAT", err))
    return -1;
  struct export_names ftbl;
  export_names_init(&ftbl); /* id 0, "", stands for "[root]" */
  struct mip_buf text = {0};
  struct emitter e;
  emit_begin(&e, out, EMIT_JSON);
  emit_heading(&e, in, &text);
  uint32_t depth = 1;
  for (size_t i = 0; i < r->context_count; i++)
    if (r->contexts[i].depth > depth)
      depth = r->contexts[i].depth;
  uint64_t *fs = mip_xcalloc(depth, sizeof *fs);
  emit_array_begin(&e, "pps");
  for (size_t i = 0; i < r->context_count; i++)
    emit_pp(&e, &ftbl, r, &r->contexts[i], fs, &text);
  emit_array_end(&e);
  free(fs);
  emit_array_begin(&e, "ftbl");
  emit_string(&e, NULL, "[root]");
  for (size_t i = 1; i < ftbl.count; i++)
    emit_string(&e, NULL, export_name(&ftbl, (uint32_t)i));
  emit_array_end(&e);
  emit_end(&e);
  mip_buf_free(&text);
  export_names_free(&ftbl);
  return 0;
}
