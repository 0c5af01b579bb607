/*
 * mipdata export --format speedscope: speedscope's JSON file format
 * (https://www.speedscope.app/file-format-schema.json), one sampled
 * profile per metric that adds up along a stack: every metric of
 * report_metric.h but the means (lifetime, density), which do not. Each
 * heap context is one sample, its stack root first as speedscope wants,
 * weighted by the context's value; the unit is "bytes" for the metrics
 * in bytes and "none" for counts (allocations, blocks, accesses), the
 * only units speedscope has for them. Call counts add a profile "calls"
 * of one-frame samples. Frames are the report's (shared by the
 * profiles), then one per counted function.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "export.h"
#include "report_metric.h"

static void emit_frame(struct emitter *e, const char *name, const char *file,
                       uint32_t line, uint32_t column) {
  emit_object_begin(e, NULL);
  emit_string(e, "name", name);
  if (file)
    emit_string(e, "file", file);
  if (line)
    emit_u64(e, "line", line);
  if (column)
    emit_u64(e, "col", column);
  emit_object_end(e);
}

static void emit_frames(struct emitter *e, const struct report *r) {
  emit_object_begin(e, "shared");
  emit_array_begin(e, "frames");
  for (size_t i = 0; i < r->frame_count; i++) {
    const struct report_frame *f = &r->frames[i];
    emit_frame(e, export_frame_function(f),
               f->file ? f->file : report_frame_object(f), f->line, f->column);
  }
  for (size_t i = 0; r->counted && i < r->function_count; i++) {
    const struct report_function *f = &r->functions[i];
    emit_frame(e, f->demangled, export_function_file(f), f->line, 0);
  }
  emit_array_end(e);
  emit_object_end(e);
}

static void profile_begin(struct emitter *e, const char *name, const char *unit,
                          uint64_t total) {
  emit_object_begin(e, NULL);
  emit_string(e, "type", "sampled");
  emit_string(e, "name", name);
  emit_string(e, "unit", unit);
  emit_u64(e, "startValue", 0);
  emit_u64(e, "endValue", total);
}

/* Scratch for lists of numbers: a stack, the weights. */
struct numbers {
  uint64_t *v;
  size_t n, cap;
};

static void numbers_add(struct numbers *l, uint64_t x) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 1024;
    l->v = mip_xrealloc(l->v, l->cap, sizeof *l->v);
  }
  l->v[l->n++] = x;
}

static void emit_metric(struct emitter *e, const struct report *r,
                        enum report_metric m, struct numbers *stack,
                        struct numbers *weights) {
  const struct report_metric_def *d = &report_metrics[m];
  struct report_amount total = report_total(r, m);
  profile_begin(e, d->label, strcmp(d->unit, "bytes") ? "none" : "bytes",
                total.sum);
  weights->n = 0;
  emit_array_begin(e, "samples");
  for (size_t i = 0; i < r->context_count; i++) {
    const struct report_context *c = &r->contexts[i];
    if (!c->mib.v[d->field])
      continue;
    stack->n = 0;
    for (uint32_t k = c->depth; k-- > 0;)
      numbers_add(stack, c->stack[k]);
    emit_u64_list(e, NULL, stack->v, stack->n);
    numbers_add(weights, c->mib.v[d->field]);
  }
  emit_array_end(e);
  emit_u64_list(e, "weights", weights->v, weights->n);
  emit_object_end(e);
}

static void emit_calls(struct emitter *e, const struct report *r,
                       struct numbers *weights) {
  uint64_t total = 0;
  for (size_t i = 0; i < r->function_count; i++)
    total += r->functions[i].calls;
  profile_begin(e, "calls", "none", total);
  weights->n = 0;
  emit_array_begin(e, "samples");
  for (size_t i = 0; i < r->function_count; i++)
    if (r->functions[i].calls) {
      uint64_t frame = r->frame_count + i;
      emit_u64_list(e, NULL, &frame, 1);
      numbers_add(weights, r->functions[i].calls);
    }
  emit_array_end(e);
  emit_u64_list(e, "weights", weights->v, weights->n);
  emit_object_end(e);
}

int export_speedscope(const struct export_input *in, FILE *out,
                      struct mip_error *err) {
  const struct report *r = in->r;
  if (export_need_heap_or_calls(r, "speedscope", err))
    return -1;
  int heap = export_has_heap(r);
  struct mip_buf name = {0};
  struct emitter e;
  emit_begin(&e, out, EMIT_JSON);
  emit_string(&e, "$schema",
              "https://www.speedscope.app/file-format-schema.json");
  char note[REPORT_HEAP_NOTE_SIZE];
  report_heap_note(r, note, sizeof note);
  emit_string(&e, "name",
              export_format(&name, "%s (%" PRIu64 " run%s%s%s)", r->path,
                            r->runs, r->runs == 1 ? "" : "s",
                            heap && *note ? ", heap " : "",
                            heap ? note : ""));
  mip_buf_free(&name);
  emit_string(&e, "exporter", "mipdata export");
  emit_u64(&e, "activeProfileIndex", 0);
  emit_frames(&e, r);
  struct numbers stack = {0}, weights = {0};
  emit_array_begin(&e, "profiles");
  for (int m = 0; heap && m < REPORT_METRICS; m++)
    if (!report_metrics[m].mean &&
        report_metric_measured(r, (enum report_metric)m))
      emit_metric(&e, r, (enum report_metric)m, &stack, &weights);
  if (r->counted)
    emit_calls(&e, r, &weights);
  emit_array_end(&e);
  emit_end(&e);
  free(stack.v);
  free(weights.v);
  return 0;
}
