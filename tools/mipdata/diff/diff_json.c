/* diff --format json (docs/formats.md#mipdata-diff-output): the whole
 * diff as one document, through the JSON writer. */
#include <stdio.h>

#include "diff.h"
#include "emit.h"
#include "report_emit.h"

static const char *const side_key[REPORT_SIDES] = {"base", "new"};

static void emit_side(struct emitter *e, const struct report *r,
                      const char *key) {
  emit_object_begin(e, key);
  report_emit_profile(e, r, &report_profile_json);
  emit_bool(e, "heap", r->has_heap);
  emit_u64(e, "contexts", r->context_count);
  emit_u64(e, "functions", r->function_count);
  emit_object_end(e);
}

static void emit_values(struct emitter *e, const char *key, const double *v) {
  emit_object_begin(e, key);
  for (int m = 0; m < REPORT_METRICS; m++)
    emit_number(e, report_metrics[m].key, v[m]);
  emit_object_end(e);
}

/* Every metric's value of one side of a group. */
static void emit_side_values(struct emitter *e, const char *key,
                             const struct diff_heap *h,
                             const struct diff_context *c,
                             enum report_side s) {
  double v[REPORT_METRICS];
  for (int m = 0; m < REPORT_METRICS; m++)
    v[m] = diff_value(h, c, s, (enum report_metric)m);
  emit_values(e, key, v);
}

/* new / base, or null when either is 0. */
static void emit_ratio(struct emitter *e, const char *key, double base,
                       double cur) {
  if (base > 0 && cur > 0)
    emit_number(e, key, cur / base);
  else
    emit_null(e, key);
}

#define LEADING_FRAMES 3

/* The row's label, as the tables print it, and the first frame above
 * the allocation wrappers (null when the site's function is none). */
static void emit_caller(struct emitter *e, const struct diff *d,
                        const struct report *r,
                        const struct report_context *ctx) {
  char label[4096];
  diff_site_text(d, r, ctx, label, sizeof label);
  emit_string(e, "label", label);
  uint32_t k = diff_caller_at(d, r, ctx);
  if (!k) {
    emit_null(e, "caller");
    return;
  }
  const struct report_frame *f = &r->frames[ctx->stack[k]];
  emit_object_begin(e, "caller");
  emit_string(e, "function", f->outside ? f->function : f->demangled);
  emit_string_or_null(e, "file", f->outside ? NULL : f->key_file);
  emit_u64(e, "line", f->line);
  emit_u64(e, "depth", k);
  emit_object_end(e);
}

static void emit_context(struct emitter *e, const struct diff *d, size_t at) {
  const struct diff_context *c = &d->heap.contexts[at];
  const struct report_match_group *g = c->group;
  enum report_side side;
  const struct report_context *ctx = diff_context_of(d, c, &side);
  enum report_metric m = d->o->metric;
  double b = diff_value(&d->heap, c, REPORT_BASE, m);
  double n = diff_value(&d->heap, c, REPORT_NEW, m);
  double total = d->heap.total[m].base;
  emit_object_begin(e, NULL);
  emit_string(e, "key", g->key);
  emit_string(e, "matched_by", g->by == REPORT_FINE ? "fine" : "coarse");
  emit_u64(e, "base_contexts", g->count[REPORT_BASE]);
  emit_u64(e, "new_contexts", g->count[REPORT_NEW]);
  emit_number(e, "delta", n - b);
  emit_ratio(e, "ratio", b, n);
  /* Against the whole base total, never the part that changed. */
  emit_number(e, "share", total > 0 ? 100.0 * (n - b) / total : 0);
  emit_side_values(e, "base", &d->heap, c, REPORT_BASE);
  emit_side_values(e, "new", &d->heap, c, REPORT_NEW);
  report_emit_site(e, "site", d->r[side], ctx->site, &report_site_show);
  emit_caller(e, d, d->r[side], ctx);
  emit_array_begin(e, "frames");
  struct report_frame_iter it;
  report_frames_begin(&it, d->r[side], ctx, REPORT_LEAF_FIRST);
  const struct report_frame *f;
  for (int i = 0; i < LEADING_FRAMES && (f = report_frames_next(&it)); i++)
    report_emit_frame(e, NULL, d->r[side], f, &report_frame_json);
  emit_array_end(e);
  emit_object_end(e);
}

static void emit_list(struct emitter *e, const struct diff *d,
                      const char *key, const struct diff_list *l) {
  emit_object_begin(e, key);
  emit_u64(e, "count", l->count);
  emit_number(e, "sum", l->sum);
  emit_array_begin(e, "contexts");
  for (size_t i = 0; i < l->shown; i++)
    emit_context(e, d, l->at[i]);
  emit_array_end(e);
  emit_object_end(e);
}

static void emit_ratios(struct emitter *e, const char *key,
                        const struct diff_ratios *r) {
  emit_object_begin(e, key);
  emit_u64(e, "improved", r->improved);
  emit_u64(e, "regressed", r->regressed);
  emit_u64(e, "unchanged", r->unchanged);
  emit_u64(e, "ratioed", r->ratioed);
  emit_number(e, "geomean", r->geomean);
  emit_number(e, "p10", r->p10);
  emit_number(e, "p50", r->p50);
  emit_number(e, "p90", r->p90);
  emit_object_end(e);
}

/* How files were named for matching (diff_files_text). */
static void emit_files(struct emitter *e, const struct diff *d) {
  const struct report_paths *p = &d->o->paths;
  emit_object_begin(e, "files");
  emit_string_or_null(e, "base_root", d->r[REPORT_BASE]->root);
  emit_string_or_null(e, "new_root", d->r[REPORT_NEW]->root);
  emit_array_begin(e, "path_maps");
  for (size_t i = 0; i < p->count; i++) {
    emit_object_begin(e, NULL);
    emit_string(e, "old", p->maps[i].from);
    emit_string(e, "new", p->maps[i].to);
    emit_u64(e, "base_renamed", d->r[REPORT_BASE]->path_hits[i]);
    emit_u64(e, "new_renamed", d->r[REPORT_NEW]->path_hits[i]);
    emit_object_end(e);
  }
  emit_array_end(e);
  emit_bool(e, "image_frames_only", d->r[REPORT_BASE]->image_frames_only);
  emit_object_end(e);
}

static void emit_wrappers(struct emitter *e, const struct diff *d) {
  const struct diff_wrappers *w = &d->wrappers;
  emit_array_begin(e, "wrappers");
  for (size_t i = 0; i < d->o->wrapper_count; i++)
    emit_string(e, NULL, d->o->wrappers[i]);
  for (size_t i = 0; i < w->detected_count; i++)
    emit_string(e, NULL, w->detected[i]);
  emit_array_end(e);
}

static void emit_matching(struct emitter *e, const struct diff *d) {
  const struct diff_heap *h = &d->heap;
  emit_object_begin(e, "matching");
  emit_files(e, d);
  emit_u64(e, "groups", h->match.group_count);
  for (int s = 0; s < REPORT_SIDES; s++) {
    emit_object_begin(e, side_key[s]);
    emit_u64(e, "contexts", h->match.total[s]);
    emit_u64(e, "matched", h->match.matched[s]);
    emit_u64(e, "collapsed", h->match.collapsed[s]);
    emit_object_end(e);
  }
  emit_number(e, "matched_fraction", h->matched_count);
  emit_number(e, "matched_bytes_fraction", h->matched_bytes);
  emit_object_end(e);
}

static void emit_heap(struct emitter *e, const struct diff *d) {
  const struct diff_heap *h = &d->heap;
  if (!h->compared) {
    emit_null(e, "heap");
    return;
  }
  emit_object_begin(e, "heap");
  emit_values(e, "factor", h->factor);
  emit_u64(e, "base_sample_bytes", h->r[REPORT_BASE]->stats.heap.sample_bytes);
  emit_u64(e, "new_sample_bytes", h->r[REPORT_NEW]->stats.heap.sample_bytes);
  emit_u64(e, "base_uncounted", h->r[REPORT_BASE]->stats.heap.uncounted);
  emit_u64(e, "new_uncounted", h->r[REPORT_NEW]->stats.heap.uncounted);
  emit_matching(e, d);
  emit_wrappers(e, d);
  emit_object_begin(e, "totals");
  for (int m = 0; m < REPORT_METRICS; m++) {
    const struct diff_total *t = &h->total[m];
    emit_object_begin(e, report_metrics[m].key);
    emit_string(e, "unit", report_metrics[m].unit);
    emit_bool(e, "measured", diff_measured(h, (enum report_metric)m));
    if (!diff_measured(h, (enum report_metric)m)) { /* a side counted no accesses: no figure */
      emit_object_end(e);
      continue;
    }
    emit_number(e, "base", t->base);
    emit_number(e, "new", t->cur);
    emit_number(e, "delta", t->delta);
    if (t->base > 0)
      emit_number(e, "change", t->change);
    else
      emit_null(e, "change");
    emit_object_end(e);
  }
  emit_object_end(e);
  emit_u64(e, "min_bytes", d->o->min_bytes);
  emit_u64(e, "above_floor", h->above_floor);
  emit_object_begin(e, "ratios");
  for (int m = 0; m < REPORT_METRICS; m++)
    if (diff_measured(h, (enum report_metric)m))
      emit_ratios(e, report_metrics[m].key, &h->ratios[m]);
  emit_object_end(e);
  emit_string(e, "metric", report_metrics[d->o->metric].key);
  emit_list(e, d, "regressions", &h->regressions);
  emit_list(e, d, "improvements", &h->improvements);
  emit_list(e, d, "new", &h->added);
  emit_list(e, d, "vanished", &h->vanished);
  emit_object_end(e);
}

static void emit_function_list(struct emitter *e, const struct diff *d,
                               const char *key, const struct diff_list *l) {
  emit_object_begin(e, key);
  emit_u64(e, "count", l->count);
  emit_array_begin(e, "functions");
  for (size_t i = 0; i < l->shown; i++)
    emit_string(e, NULL, diff_function_of(d, l->at[i])->name);
  emit_array_end(e);
  emit_object_end(e);
}

static void emit_calls(struct emitter *e, const struct diff *d) {
  const struct diff_functions *f = &d->functions;
  if (!f->calls) {
    emit_null(e, "calls");
    return;
  }
  emit_object_begin(e, "calls");
  emit_number(e, "factor", f->calls_factor);
  emit_ratios(e, "ratios", &f->call_ratios);
  emit_u64(e, "changed", f->call_count);
  emit_array_begin(e, "top");
  for (size_t i = 0; i < f->top_call_count; i++) {
    const struct diff_call *c = &f->top_calls[i];
    emit_object_begin(e, NULL);
    emit_string(e, "function", diff_function_of(d, c->group)->name);
    emit_number(e, "base", c->base);
    emit_number(e, "new", c->cur);
    emit_ratio(e, "ratio", c->base, c->cur);
    emit_object_end(e);
  }
  emit_array_end(e);
  emit_object_end(e);
}

static void emit_order_blocks(struct emitter *e, const struct diff *d) {
  const struct diff_functions *f = &d->functions;
  if (f->order) {
    emit_object_begin(e, "order");
    emit_u64(e, "first", d->o->first_called);
    emit_function_list(e, d, "entered", &f->entered);
    emit_function_list(e, d, "left", &f->left);
    emit_object_end(e);
  } else {
    emit_null(e, "order");
  }
  if (!f->blocks) {
    emit_null(e, "blocks");
    return;
  }
  emit_object_begin(e, "blocks");
  emit_u64(e, "newly_cold", f->cold_count);
  emit_array_begin(e, "cold");
  for (size_t i = 0; i < f->cold_shown; i++) {
    emit_object_begin(e, NULL);
    emit_string(e, "function", diff_function_of(d, f->cold[i].group)->name);
    emit_u64(e, "block", f->cold[i].block);
    emit_u64(e, "line", f->cold[i].line);
    emit_object_end(e);
  }
  emit_array_end(e);
  emit_object_end(e);
}

static void emit_functions(struct emitter *e, const struct diff *d) {
  const struct diff_functions *f = &d->functions;
  if (!f->compared) {
    emit_null(e, "functions");
    return;
  }
  emit_object_begin(e, "functions");
  for (int s = 0; s < REPORT_SIDES; s++) {
    emit_object_begin(e, side_key[s]);
    emit_u64(e, "functions", f->count[s]);
    emit_u64(e, "covered", f->covered[s]);
    emit_number(e, "coverage", f->coverage[s]);
    emit_u64(e, "matched", f->match.matched[s]);
    emit_object_end(e);
  }
  emit_number(e, "coverage_delta", f->coverage_delta);
  emit_u64(e, "added", f->added);
  emit_u64(e, "removed", f->removed);
  emit_function_list(e, d, "newly_covered", &f->newly_covered);
  emit_function_list(e, d, "newly_uncovered", &f->newly_uncovered);
  emit_function_list(e, d, "code_changed", &f->code_changed);
  emit_calls(e, d);
  emit_order_blocks(e, d);
  emit_object_end(e);
}

static void emit_conditions(struct emitter *e, const struct diff *d) {
  emit_array_begin(e, "conditions");
  for (size_t i = 0; i < d->o->condition_count; i++) {
    emit_object_begin(e, NULL);
    emit_string(e, "expression", diff_condition_text(d, i));
    emit_bool(e, "failed", diff_condition_failed(d, i));
    emit_bool(e, "evaluated", !diff_condition_skipped(d, i));
    emit_string(e, "measured", diff_condition_measured(d, i));
    emit_object_end(e);
  }
  emit_array_end(e);
  emit_u64(e, "failed", d->failed);
}

void diff_print_json(const struct diff *d) {
  struct emitter e;
  char headline[512];
  diff_headline(d, headline, sizeof headline);
  emit_begin(&e, stdout, EMIT_JSON);
  emit_string(&e, "headline", headline);
  for (int s = 0; s < REPORT_SIDES; s++)
    emit_side(&e, d->r[s], side_key[s]);
  emit_string(&e, "match", report_match_names[d->o->match]);
  emit_string(&e, "normalize", report_normalize_names[d->o->normalize]);
  emit_array_begin(&e, "missing");
  for (size_t i = 0; i < d->missing_count; i++)
    emit_string(&e, NULL, d->missing[i]);
  emit_array_end(&e);
  emit_heap(&e, d);
  emit_functions(&e, d);
  emit_conditions(&e, d);
  emit_end(&e);
}
