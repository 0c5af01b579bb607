/* What the export writers share (export.h): tables of distinct strings
 * with dense ids, frame and function names, the checks of what a format
 * needs. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "report_text.h"

void export_names_init(struct export_names *n) {
  memset(n, 0, sizeof *n);
  mip_buf_append(&n->strings, "", 1); /* offset 0: "", id 0 */
  mip_interner_init(&n->in, &n->strings, n->strings.size);
  n->cap = 64;
  n->offset_of = mip_xcalloc(n->cap, sizeof *n->offset_of);
  n->count = 1;
}

void export_names_free(struct export_names *n) {
  mip_interner_free(&n->in);
  mip_buf_free(&n->strings);
  free(n->id_of);
  free(n->offset_of);
  memset(n, 0, sizeof *n);
}

uint32_t export_name_id(struct export_names *n, const char *s, int *added) {
  uint32_t offset = mip_intern(&n->in, s);
  if (n->strings.size > n->id_of_cap) {
    size_t cap = n->id_of_cap ? n->id_of_cap : 1024;
    while (cap < n->strings.size)
      cap *= 2;
    n->id_of = mip_xrealloc(n->id_of, cap, sizeof *n->id_of);
    memset(n->id_of + n->id_of_cap, 0, (cap - n->id_of_cap) * sizeof *n->id_of);
    n->id_of_cap = cap;
  }
  if (added)
    *added = 0;
  if (offset == 0)
    return 0;
  if (n->id_of[offset])
    return n->id_of[offset] - 1;
  if (n->count == n->cap) {
    n->cap *= 2;
    n->offset_of = mip_xrealloc(n->offset_of, n->cap, sizeof *n->offset_of);
  }
  uint32_t id = (uint32_t)n->count++;
  n->offset_of[id] = offset;
  n->id_of[offset] = id + 1;
  if (added)
    *added = 1;
  return id;
}

const char *export_name(const struct export_names *n, uint32_t id) {
  return (const char *)n->strings.data + n->offset_of[id];
}

const char *export_format(struct mip_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  b->size = 0;
  char *s = mip_buf_extend(b, (size_t)(n > 0 ? n : 0) + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
  va_end(ap);
  return s;
}

const char *export_frame_function(const struct report_frame *f) {
  if (f->demangled && *f->demangled)
    return f->demangled;
  return *f->function ? f->function : "??";
}

const char *export_function_file(const struct report_function *f) {
  return f->file ? f->file : f->unit;
}

/* Why r has no heap context to export, NULL when it has. */
static const char *heap_lack(const struct report *r) {
  if (r->has_heap && r->context_count)
    return NULL;
  return r->has_heap ? "its runs recorded no allocation context, or the "
                       "filters kept none"
                     : report_no_heap_reason(r);
}

int export_has_heap(const struct report *r) { return !heap_lack(r); }

int export_need_heap(const struct report *r, const char *format,
                     struct mip_error *err) {
  const char *lack = heap_lack(r);
  return lack ? mip_fail(err, r->path, "no heap data to export as %s: %s",
                         format, lack)
              : 0;
}

int export_need_heap_or_calls(const struct report *r, const char *format,
                              struct mip_error *err) {
  const char *lack = heap_lack(r);
  if (!lack || r->counted)
    return 0;
  return mip_fail(err, r->path,
                  "no call counts (build with -fmip-generate=counts) and no "
                  "heap data to export as %s: %s",
                  format, lack);
}

int export_need_files(const struct export_input *in, const char *format,
                      struct mip_error *err) {
  if (in->debug)
    return 0;
  return mip_fail(err, in->r->path,
                  "%s names source files: give the profiled binary "
                  "with --debug",
                  format);
}
