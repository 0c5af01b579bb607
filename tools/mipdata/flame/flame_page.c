/* The flame graph page (flame_page.h): the trees of both views as compact
 * JSON arrays, inside the page's HTML. */
#include "flame_page.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "escape.h"
#include "flame_assets.h"
#include "flame_tree.h"

/* ---- the trees of one view ---------------------------------------- */

struct view {
  struct flame_tree cur, base, elided; /* as folded */
  struct flame_tree shown, shown_elided; /* small frames merged */
  int has_base;
  size_t vanished;
  enum flame_basis basis; /* what the differential compares */
};

static void view_build(struct view *v, struct flame_labels *labels,
                       const struct report *cur, const struct report *base,
                       enum report_direction direction,
                       const struct flame_page_options *o,
                       const double *factor) {
  memset(v, 0, sizeof *v);
  v->basis = direction == REPORT_ROOT_FIRST ? FLAME_BY_SELF : FLAME_BY_TOTAL;
  flame_tree_init(&v->cur, labels);
  flame_tree_fold(&v->cur, cur, o->key, direction);
  v->has_base = base != NULL;
  if (base) {
    flame_tree_init(&v->base, labels);
    flame_tree_fold(&v->base, base, o->key, direction);
    flame_diff(&v->cur, &v->base, v->basis);
    flame_tree_init(&v->elided, labels);
    v->vanished = flame_elided(&v->elided, &v->base);
  }
  flame_tree_merge_small(&v->shown, &v->cur, o->merge_below,
                         base ? &v->base : NULL, factor);
  if (v->vanished)
    flame_tree_merge_small(&v->shown_elided, &v->elided, o->merge_below,
                           NULL, factor);
}

static void view_free(struct view *v) {
  flame_tree_free(&v->cur);
  flame_tree_free(&v->shown);
  if (v->has_base) {
    flame_tree_free(&v->base);
    flame_tree_free(&v->elided);
  }
  if (v->vanished)
    flame_tree_free(&v->shown_elided);
}

/* ---- node order: depth first, siblings by name ------------------------ */

/* Named frames by name, then key; "other" last. */
static int by_name(const void *a, const void *b, void *arg) {
  const struct flame_tree *t = arg;
  uint32_t x = t->nodes[*(const uint32_t *)a].label;
  uint32_t y = t->nodes[*(const uint32_t *)b].label;
  if (x == FLAME_NONE || y == FLAME_NONE)
    return (x == FLAME_NONE) - (y == FLAME_NONE);
  const struct flame_label *lx = &t->labels->v[x], *ly = &t->labels->v[y];
  int c = strcmp(lx->name, ly->name);
  return c ? c : strcmp(lx->key, ly->key);
}

/* The nodes of t in the page's order: each node before its children,
 * siblings by name. Returns the order (count entries). */
static uint32_t *page_order(const struct flame_tree *t) {
  uint32_t *order = mip_xcalloc(t->count, sizeof *order);
  uint32_t *stack = mip_xcalloc(t->count, sizeof *stack);
  uint32_t *kids = mip_xcalloc(t->count, sizeof *kids);
  size_t top = 0, n = 0;
  stack[top++] = 0;
  while (top) {
    uint32_t i = stack[--top];
    order[n++] = i;
    size_t k = 0;
    for (uint32_t c = t->nodes[i].first_child; c != FLAME_NONE;
         c = t->nodes[c].next_sibling)
      kids[k++] = c;
    qsort_r(kids, k, sizeof *kids, by_name, (void *)t);
    while (k) /* the first child on top */
      stack[top++] = kids[--k];
  }
  free(stack);
  free(kids);
  return order;
}

/* ---- JSON ------------------------------------------------------------ */

static void json_string(FILE *f, const char *key, const char *value) {
  fprintf(f, "\"%s\":", key);
  if (value)
    escape_json(f, value);
  else
    fputs("null", f);
}

/* "key":[...] of one number per node, whole (iv) or with a fraction (dv,
 * when iv is NULL), or "key":[] when all are 0 (most columns of most
 * trees: metrics a build does not count, flags). */
static void json_column(FILE *f, const char *key, const int64_t *iv,
                        const double *dv, size_t n) {
  size_t nonzero = 0;
  while (nonzero < n && (iv ? iv[nonzero] == 0 : dv[nonzero] == 0))
    nonzero++;
  fprintf(f, "\"%s\":[", key);
  for (size_t j = 0; j < n && nonzero < n; j++) {
    if (j)
      fputc(',', f);
    if (iv)
      fprintf(f, "%lld", (long long)iv[j]);
    else
      fprintf(f, "%.9g", dv[j]);
  }
  fputc(']', f);
}

/* One tree: each node's distance up to its parent (the parent's position
 * is the node's less it; 0 for the root), label, line, flags, merged
 * count, then per metric its raw width (the field summed) and, compared
 * with a base, the base's self value scaled (flame_compare). */
static void json_tree(FILE *f, const struct flame_tree *t, int compared,
                      const double *factor, double band,
                      enum flame_basis basis) {
  size_t n = t->count;
  uint32_t *order = page_order(t);
  int64_t *pos = mip_xcalloc(n, sizeof *pos);
  int64_t *v = mip_xcalloc(n, sizeof *v);
  double *d = mip_xcalloc(n, sizeof *d);
  for (size_t j = 0; j < n; j++)
    pos[order[j]] = (int64_t)j;
  const struct flame_node *nodes = t->nodes;
#define COLUMN(KEY, EXPR)                                                      \
  do {                                                                         \
    for (size_t j = 0; j < n; j++) {                                           \
      const struct flame_node *x = &nodes[order[j]];                           \
      v[j] = (int64_t)(EXPR);                                                  \
    }                                                                          \
    json_column(f, KEY, v, NULL, n);                                           \
  } while (0)
  fputc('{', f);
  COLUMN("up", x->parent == FLAME_NONE ? 0 : (int64_t)j - pos[x->parent]);
  fputc(',', f);
  COLUMN("label", x->label == FLAME_NONE ? -1 : (int64_t)x->label);
  fputc(',', f);
  COLUMN("line", x->line);
  fputc(',', f);
  COLUMN("flags", x->flags);
  fputc(',', f);
  COLUMN("merged", x->merged);
  fputs(",\"width\":[", f);
  for (int m = 0; m < REPORT_METRICS; m++) {
    fputs(m ? ",{" : "{", f);
    COLUMN("v", x->total[m].sum);
    fputc('}', f);
  }
#undef COLUMN
  fputc(']', f);
  for (int m = 0; compared && m < REPORT_METRICS; m++) {
    fputs(m ? ",{" : ",\"base\":[{", f);
    for (size_t j = 0; j < n; j++)
      d[j] = flame_compare(&nodes[order[j]], (enum report_metric)m,
                           factor[m], band, basis)
                 .base;
    json_column(f, "v", NULL, d, n);
    fputs(m == REPORT_METRICS - 1 ? "}]" : "}", f);
  }
  fputc('}', f);
  free(d);
  free(v);
  free(pos);
  free(order);
}

/* What the differential finds in t at the band, per metric. */
static void count_changes(const struct flame_tree *t, enum report_metric m,
                          double factor, double band, enum flame_basis basis,
                          struct flame_page_summary *s) {
  memset(s, 0, sizeof *s);
  for (size_t i = 1; i < t->count; i++) {
    struct flame_delta d =
        flame_compare(&t->nodes[i], m, factor, band, basis);
    s->worse += d.kind == FLAME_WORSE;
    s->better += d.kind == FLAME_BETTER;
    s->added += d.kind == FLAME_ADDED;
  }
}

static void json_view(FILE *f, const char *name, struct view *v,
                      const double *factor, double band,
                      const struct flame_page_options *o,
                      struct flame_page_summary *summary) {
  fprintf(f, "\"%s\":{\"tree\":", name);
  json_tree(f, &v->shown, v->has_base, factor, band, v->basis);
  fputs(",\"elided\":", f);
  if (v->vanished)
    json_tree(f, &v->shown_elided, 0, factor, band, v->basis);
  else
    fputs("null", f);
  fprintf(f, ",\"by_total\":%s,\"vanished\":%zu,\"nodes\":%zu,\"changes\":[",
          v->basis == FLAME_BY_TOTAL ? "true" : "false", v->vanished,
          v->cur.count);
  for (int m = 0; m < REPORT_METRICS && v->has_base; m++) {
    struct flame_page_summary s;
    count_changes(&v->shown, (enum report_metric)m, factor[m], band,
                  v->basis, &s);
    fprintf(f, "%s[%zu,%zu,%zu]", m ? "," : "", s.worse, s.better, s.added);
    if (summary && m == (int)o->metric) {
      *summary = s;
      summary->elided = v->vanished;
    }
  }
  fputs("]}", f);
}

static void json_profile(FILE *f, const char *key, const struct report *r) {
  fprintf(f, "\"%s\":{", key);
  json_string(f, "path", r->path);
  fputc(',', f);
  json_string(f, "build_id", r->build_id);
  fprintf(f, ",\"runs\":%" PRIu64 ",\"contexts\":%zu,\"sample_bytes\":%" PRIu64 "}",
          r->runs, r->context_count, r->stats.heap.sample_bytes);
}

static void json_labels(FILE *f, const struct flame_labels *l) {
  fputs("\"labels\":{\"name\":[", f);
  for (size_t i = 0; i < l->count; i++) {
    if (i)
      fputc(',', f);
    escape_json(f, l->v[i].name);
  }
  fputs("],\"file\":[", f);
  for (size_t i = 0; i < l->count; i++) {
    if (i)
      fputc(',', f);
    if (l->v[i].file)
      escape_json(f, l->v[i].file);
    else
      fputs("null", f);
  }
  fputs("]}", f);
}

/* Each metric, and whether the profiles measured it (a build of
 * heap-allocs counts no accesses: the page offers no such view). */
static void json_metrics(FILE *f, const double *factor,
                         const struct report *cur, const struct report *base) {
  fputs("\"metrics\":[", f);
  for (int m = 0; m < REPORT_METRICS; m++) {
    const struct report_metric_def *d = &report_metrics[m];
    fputs(m ? ",{" : "{", f);
    json_string(f, "key", d->key);
    fputc(',', f);
    json_string(f, "label", d->label);
    fputc(',', f);
    json_string(f, "unit", d->unit);
    fprintf(f, ",\"mean\":%s,\"scale\":%.17g,\"factor\":%.17g,"
               "\"measured\":%s}",
            d->mean ? "true" : "false", d->scale, factor[m],
            report_metric_compared(base, cur, (enum report_metric)m)
                ? "true"
                : "false");
  }
  fputc(']', f);
}

static void json_data(FILE *f, const struct report *cur,
                      const struct report *base,
                      const struct flame_page_options *o,
                      struct flame_page_summary *summary) {
  double factor[REPORT_METRICS];
  for (int m = 0; m < REPORT_METRICS; m++)
    factor[m] = base ? report_scale(base, cur, o->normalize,
                                    (enum report_metric)m)
                     : 1;
  struct flame_labels labels;
  flame_labels_init(&labels);
  struct view flame, inverted;
  view_build(&flame, &labels, cur, base, REPORT_ROOT_FIRST, o, factor);
  view_build(&inverted, &labels, cur, base, REPORT_LEAF_FIRST, o, factor);
  fputs("{\"version\":1,", f);
  json_profile(f, "profile", cur);
  if (base) {
    fputc(',', f);
    json_profile(f, "base", base);
  } else {
    fputs(",\"base\":null", f);
  }
  fputc(',', f);
  json_string(f, "normalize", report_normalize_names[o->normalize]);
  fputc(',', f);
  json_string(f, "key", o->key == REPORT_FINE ? "fine" : "coarse");
  fputc(',', f);
  json_string(f, "metric", report_metrics[o->metric].key);
  fprintf(f, ",\"band\":%.17g,\"merge_below\":%.17g,", o->band,
          o->merge_below);
  json_metrics(f, factor, cur, base);
  fputc(',', f);
  json_labels(f, &labels);
  fputs(",\"views\":{", f);
  json_view(f, "flame", &flame, factor, o->band, o, summary);
  fputc(',', f);
  json_view(f, "icicle", &inverted, factor, o->band, o, NULL);
  fputs("}}", f);
  view_free(&flame);
  view_free(&inverted);
  flame_labels_free(&labels);
}

/* ---- the page ----------------------------------------------------------- */

static void title(FILE *out, const struct report *cur,
                  const struct report *base) {
  char note[REPORT_HEAP_NOTE_SIZE];
  fputs("MIP heap flame graph: ", out);
  escape_xml(out, cur->path);
  if (*report_heap_note(cur, note, sizeof note))
    fprintf(out, " (%s)", note);
  if (base) {
    fputs(" against ", out);
    escape_xml(out, base->path);
    if (*report_heap_note(base, note, sizeof note))
      fprintf(out, " (%s)", note);
  }
}

void flame_page_write(FILE *out, const struct report *cur,
                      const struct report *base,
                      const struct flame_page_options *o,
                      struct flame_page_summary *summary) {
  char *json = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&json, &size);
  if (!f)
    abort(); /* out of memory, as mip_xcalloc would */
  memset(summary, 0, sizeof *summary);
  json_data(f, cur, base, o, summary);
  fclose(f);
  static const struct {
    const char *marker;
    int what;
  } parts[] = {{"@TITLE@", 0}, {"@CSS@", 1}, {"@DATA@", 2}, {"@JS@", 3}};
  for (const char *p = flame_html; *p;) {
    size_t k = 0;
    while (k < sizeof parts / sizeof *parts &&
           strncmp(p, parts[k].marker, strlen(parts[k].marker)))
      k++;
    if (k == sizeof parts / sizeof *parts) {
      fputc(*p++, out);
      continue;
    }
    if (parts[k].what == 0)
      title(out, cur, base);
    else if (parts[k].what == 1)
      fputs(flame_css, out);
    else if (parts[k].what == 2)
      escape_json_in_script(out, json, size);
    else
      fputs(flame_js, out);
    p += strlen(parts[k].marker);
  }
  free(json);
}
