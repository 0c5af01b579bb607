/* The call tree of a heap profile and the arithmetic of two profiles'
 * trees (flame_tree.h). */
#include "flame_tree.h"

#include <stdlib.h>
#include <string.h>

/* ---- open addressing over indices ---------------------------------- */

/* A table of indices (FLAME_NONE: empty) found by a hash and an
 * equality the caller gives, so labels and nodes share one probe. */
struct probe {
  uint64_t hash;
  int (*same)(const void *ctx, uint32_t index);
  const void *ctx;
};

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

static uint64_t hash_string(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return mix(h);
}

/* The slot of the index the probe finds, or of the empty slot where it
 * goes. */
static size_t probe_slot(const uint32_t *slot, size_t slots,
                         const struct probe *p) {
  size_t i = p->hash & (slots - 1);
  while (slot[i] != FLAME_NONE && !p->same(p->ctx, slot[i]))
    i = (i + 1) & (slots - 1);
  return i;
}

/* Makes room for one more of count entries (at most half full), rehashing
 * each entry with hash_of. */
static void table_reserve(uint32_t **slot, size_t *slots, size_t count,
                          uint64_t (*hash_of)(const void *ctx, uint32_t),
                          const void *ctx) {
  if (2 * (count + 1) <= *slots)
    return;
  size_t n = *slots ? 2 * *slots : 64;
  uint32_t *fresh = mip_xcalloc(n, sizeof *fresh);
  memset(fresh, 0xff, n * sizeof *fresh);
  for (size_t i = 0; i < *slots; i++) {
    uint32_t v = (*slot)[i];
    if (v == FLAME_NONE)
      continue;
    size_t j = hash_of(ctx, v) & (n - 1);
    while (fresh[j] != FLAME_NONE)
      j = (j + 1) & (n - 1);
    fresh[j] = v;
  }
  free(*slot);
  *slot = fresh;
  *slots = n;
}

/* ---- labels ------------------------------------------------------------ */

void flame_labels_init(struct flame_labels *l) { memset(l, 0, sizeof *l); }

void flame_labels_free(struct flame_labels *l) {
  for (size_t i = 0; i < l->count; i++) {
    free(l->v[i].key);
    free(l->v[i].name);
    free(l->v[i].file);
  }
  free(l->v);
  free(l->slot);
  memset(l, 0, sizeof *l);
}

static uint64_t label_hash(const void *ctx, uint32_t i) {
  const struct flame_labels *l = ctx;
  return hash_string(l->v[i].key);
}

struct label_query {
  const struct flame_labels *l;
  const char *key;
};

static int label_is(const void *ctx, uint32_t i) {
  const struct label_query *q = ctx;
  return strcmp(q->l->v[i].key, q->key) == 0;
}

uint32_t flame_label(struct flame_labels *l, const char *key,
                     const char *name, const char *file) {
  table_reserve(&l->slot, &l->slots, l->count, label_hash, l);
  struct label_query q = {l, key};
  struct probe p = {hash_string(key), label_is, &q};
  size_t s = probe_slot(l->slot, l->slots, &p);
  if (l->slot[s] != FLAME_NONE)
    return l->slot[s];
  if (l->count == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->v = mip_xrealloc(l->v, l->cap, sizeof *l->v);
  }
  l->v[l->count] = (struct flame_label){
      mip_xstrdup(key), mip_xstrdup(name && *name ? name : "??"),
      file ? mip_xstrdup(file) : NULL};
  l->slot[s] = (uint32_t)l->count;
  return (uint32_t)l->count++;
}

/* ---- nodes ------------------------------------------------------------- */

static uint64_t child_hash_of(uint32_t parent, uint32_t label) {
  return mix(((uint64_t)parent << 32 | label) * 0x9e3779b97f4a7c15ull);
}

static uint64_t node_hash(const void *ctx, uint32_t i) {
  const struct flame_tree *t = ctx;
  return child_hash_of(t->nodes[i].parent, t->nodes[i].label);
}

struct child_query {
  const struct flame_tree *t;
  uint32_t parent, label;
};

static int child_is(const void *ctx, uint32_t i) {
  const struct child_query *q = ctx;
  const struct flame_node *n = &q->t->nodes[i];
  return n->parent == q->parent && n->label == q->label;
}

/* A new node under parent (FLAME_NONE: the root), first of its
 * siblings: their order is the page's business. */
static uint32_t new_node(struct flame_tree *t, uint32_t parent,
                         uint32_t label) {
  if (t->count == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 256;
    t->nodes = mip_xrealloc(t->nodes, t->cap, sizeof *t->nodes);
  }
  uint32_t i = (uint32_t)t->count++;
  struct flame_node *n = &t->nodes[i];
  memset(n, 0, sizeof *n);
  n->label = label;
  n->parent = parent;
  n->first_child = FLAME_NONE;
  n->next_sibling = FLAME_NONE;
  n->match = FLAME_NONE;
  if (parent != FLAME_NONE) {
    n->next_sibling = t->nodes[parent].first_child;
    t->nodes[parent].first_child = i;
  }
  return i;
}

void flame_tree_init(struct flame_tree *t, struct flame_labels *l) {
  memset(t, 0, sizeof *t);
  t->labels = l;
  new_node(t, FLAME_NONE, FLAME_NONE);
}

void flame_tree_free(struct flame_tree *t) {
  free(t->nodes);
  free(t->slot);
  free(t->last_label);
  free(t->last_node);
  memset(t, 0, sizeof *t);
}

/* The child of parent labelled label, made when there is none. */
static uint32_t child(struct flame_tree *t, uint32_t parent, uint32_t label) {
  table_reserve(&t->slot, &t->slots, t->count, node_hash, t);
  struct child_query q = {t, parent, label};
  struct probe p = {child_hash_of(parent, label), child_is, &q};
  size_t s = probe_slot(t->slot, t->slots, &p);
  if (t->slot[s] == FLAME_NONE)
    t->slot[s] = new_node(t, parent, label);
  return t->slot[s];
}

/* Sums saturate, as MemInfoBlocks and report_amount_add do. */
static uint64_t add_sat(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void add_amounts(struct report_amount *to,
                        const struct report_amount *from) {
  for (int m = 0; m < REPORT_METRICS; m++) {
    to[m].sum = add_sat(to[m].sum, from[m].sum);
    to[m].allocs = add_sat(to[m].allocs, from[m].allocs);
  }
}

/* flame_tree_add for stacks contexts at once. */
static uint32_t add_path(struct flame_tree *t, const uint32_t *labels,
                         const uint32_t *lines, size_t depth,
                         const struct report_amount *self, uint64_t stacks) {
  uint32_t at = 0;
  add_amounts(t->nodes[0].total, self);
  if (depth > t->last_cap) {
    t->last_cap = depth;
    t->last_label = mip_xrealloc(t->last_label, depth, sizeof *t->last_label);
    t->last_node = mip_xrealloc(t->last_node, depth, sizeof *t->last_node);
  }
  int shared = 1; /* still on the last path's prefix */
  for (size_t k = 0; k < depth; k++) {
    size_t before = t->count;
    shared = shared && k < t->last_depth && t->last_label[k] == labels[k];
    at = shared ? t->last_node[k] : child(t, at, labels[k]);
    t->last_label[k] = labels[k];
    t->last_node[k] = at;
    struct flame_node *n = &t->nodes[at];
    uint32_t line = lines ? lines[k] : 0;
    if (t->count > before)
      n->line = line;
    else if (n->line != line)
      n->flags |= FLAME_LINES;
    add_amounts(n->total, self);
  }
  t->last_depth = depth;
  add_amounts(t->nodes[at].self, self);
  t->nodes[at].stacks += stacks;
  t->stacks += stacks;
  return at;
}

uint32_t flame_tree_add(struct flame_tree *t, const uint32_t *labels,
                        const uint32_t *lines, size_t depth,
                        const struct report_amount *self) {
  return add_path(t, labels, lines, depth, self, 1);
}

/* Every metric's amount of one MemInfoBlock. */
static void mib_amounts(struct report_amount *a, const struct mip_mib *mib) {
  for (int m = 0; m < REPORT_METRICS; m++) {
    a[m] = (struct report_amount){0, 0};
    report_amount_add(&a[m], (enum report_metric)m, mib);
  }
}

/* The label of each of r's frames (frames are shared by the contexts
 * they are in, so each key is made once). */
static uint32_t *frame_labels(struct flame_labels *l, const struct report *r,
                              enum report_key key) {
  uint32_t *label = mip_xcalloc(r->frame_count + 1, sizeof *label);
  struct mip_buf b = {0};
  for (size_t i = 0; i < r->frame_count; i++) {
    const struct report_frame *f = &r->frames[i];
    b.size = 0;
    report_frame_key(&b, f, key);
    mip_buf_append(&b, "", 1);
    label[i] = flame_label(l, (const char *)b.data, f->demangled, f->file);
  }
  mip_buf_free(&b);
  return label;
}

void flame_tree_fold(struct flame_tree *t, const struct report *r,
                     enum report_key key, enum report_direction direction) {
  uint32_t *label_of = frame_labels(t->labels, r, key);
  size_t cap = 0;
  uint32_t *labels = NULL, *lines = NULL;
  for (size_t i = 0; i < r->context_count; i++) {
    const struct report_context *c = &r->contexts[i];
    if (c->depth > cap) {
      cap = c->depth;
      labels = mip_xrealloc(labels, cap, sizeof *labels);
      lines = mip_xrealloc(lines, cap, sizeof *lines);
    }
    for (uint32_t k = 0; k < c->depth; k++) {
      /* stack is leaf first */
      uint32_t frame = c->stack[direction == REPORT_ROOT_FIRST
                                    ? c->depth - 1 - k
                                    : k];
      labels[k] = label_of[frame];
      lines[k] = r->frames[frame].line;
    }
    struct report_amount self[REPORT_METRICS];
    mib_amounts(self, &c->mib);
    flame_tree_add(t, labels, lines, c->depth, self);
  }
  free(labels);
  free(lines);
  free(label_of);
}

double flame_total(const struct flame_node *n, enum report_metric m) {
  return report_amount_value(m, &n->total[m]);
}

double flame_self(const struct flame_node *n, enum report_metric m) {
  return report_amount_value(m, &n->self[m]);
}

double flame_width(const struct flame_node *n, enum report_metric m) {
  return (double)n->total[m].sum * report_metrics[m].scale;
}

/* ---- differential ------------------------------------------------------ */

void flame_diff(struct flame_tree *cur, struct flame_tree *base,
                enum flame_basis basis) {
  /* Nodes come after their parents (new_node), so one pass in index
   * order sees each parent matched before its children. */
  cur->nodes[0].match = 0;
  base->nodes[0].match = 0;
  const struct flame_node *b0 = &base->nodes[0];
  memcpy(cur->nodes[0].base, basis == FLAME_BY_TOTAL ? b0->total : b0->self,
         sizeof cur->nodes[0].base);
  for (size_t i = 1; i < cur->count; i++) {
    struct flame_node *n = &cur->nodes[i];
    uint32_t parent = cur->nodes[n->parent].match;
    uint32_t found = FLAME_NONE;
    if (parent != FLAME_NONE && base->slots) {
      struct child_query q = {base, parent, n->label};
      struct probe p = {child_hash_of(parent, n->label), child_is, &q};
      found = base->slot[probe_slot(base->slot, base->slots, &p)];
    }
    n->match = found;
    if (found == FLAME_NONE) {
      n->flags |= FLAME_NEW;
      continue;
    }
    const struct flame_node *b = &base->nodes[found];
    base->nodes[found].match = (uint32_t)i;
    memcpy(n->base, basis == FLAME_BY_TOTAL ? b->total : b->self,
           sizeof n->base);
  }
}

/* The labels of the path from the root to node i, root first, into
 * path (depth returned). */
static size_t path_of(const struct flame_tree *t, uint32_t i,
                      uint32_t **path, uint32_t **lines, size_t *cap) {
  size_t depth = 0;
  for (uint32_t k = i; k != 0; k = t->nodes[k].parent)
    depth++;
  if (depth > *cap) {
    *cap = depth;
    *path = mip_xrealloc(*path, depth, sizeof **path);
    *lines = mip_xrealloc(*lines, depth, sizeof **lines);
  }
  size_t d = depth;
  for (uint32_t k = i; k != 0; k = t->nodes[k].parent) {
    (*path)[--d] = t->nodes[k].label;
    (*lines)[d] = t->nodes[k].line;
  }
  return depth;
}

size_t flame_elided(struct flame_tree *out, const struct flame_tree *base) {
  size_t cap = 0;
  uint32_t *path = NULL, *lines = NULL;
  for (size_t i = 0; i < base->count; i++) {
    const struct flame_node *n = &base->nodes[i];
    if (!n->stacks || n->match != FLAME_NONE)
      continue;
    size_t depth = path_of(base, (uint32_t)i, &path, &lines, &cap);
    add_path(out, path, lines, depth, n->self, n->stacks);
  }
  free(path);
  free(lines);
  return out->stacks;
}

static int grade_of(double relative, int from_zero) {
  double r = relative < 0 ? -relative : relative;
  if (from_zero || r >= 1)
    return 4;
  return r >= 0.5 ? 3 : r >= 0.25 ? 2 : 1;
}

struct flame_delta flame_compare(const struct flame_node *n,
                                 enum report_metric m, double factor,
                                 double band, enum flame_basis basis) {
  struct flame_delta d = {0};
  d.cur = basis == FLAME_BY_TOTAL ? flame_total(n, m) : flame_self(n, m);
  if (n->flags & FLAME_NEW) {
    d.change = d.cur;
    d.kind = FLAME_ADDED;
    return d;
  }
  d.base = report_amount_value(m, &n->base[m]) *
           (report_metrics[m].mean ? 1 : factor);
  d.change = d.cur - d.base;
  if (d.base > 0)
    d.relative = d.change / d.base;
  else
    d.from_zero = d.cur > 0;
  double r = d.relative < 0 ? -d.relative : d.relative;
  if (!d.from_zero && r <= band)
    return d; /* FLAME_SAME */
  d.kind = d.change > 0 ? FLAME_WORSE : FLAME_BETTER;
  d.grade = grade_of(d.relative, d.from_zero);
  return d;
}

/* ---- size -------------------------------------------------------------- */

struct merge {
  struct flame_tree *out;
  const struct flame_tree *in, *base;
  double limit[REPORT_METRICS];      /* the widest merged width */
  double base_limit[REPORT_METRICS]; /* the same of the base, scaled */
  const double *factor;
};

static int small(const struct merge *g, const struct flame_node *n) {
  for (int m = 0; m < REPORT_METRICS; m++) {
    if (flame_width(n, (enum report_metric)m) > g->limit[m])
      return 0;
    if (!g->base || n->match == FLAME_NONE)
      continue;
    const struct flame_node *b = &g->base->nodes[n->match];
    if (flame_width(b, (enum report_metric)m) * g->factor[m] >
        g->base_limit[m])
      return 0;
  }
  return 1;
}

/* A copy of in's node i (and what it keeps below it) under parent
 * (FLAME_NONE: i is the root, copied onto out's). */
static void copy_subtree(struct merge *g, uint32_t i, uint32_t parent) {
  const struct flame_node *n = &g->in->nodes[i];
  uint32_t at = parent == FLAME_NONE ? 0 : new_node(g->out, parent, n->label);
  struct flame_node *o = &g->out->nodes[at];
  struct flame_node links = *o; /* where new_node put it */
  *o = *n;
  o->parent = links.parent;
  o->next_sibling = links.next_sibling;
  o->first_child = FLAME_NONE;
  uint32_t other = FLAME_NONE;
  for (uint32_t c = n->first_child; c != FLAME_NONE;
       c = g->in->nodes[c].next_sibling) {
    const struct flame_node *k = &g->in->nodes[c];
    if (!small(g, k)) {
      copy_subtree(g, c, at);
      continue;
    }
    if (other == FLAME_NONE) {
      other = new_node(g->out, at, FLAME_NONE);
      g->out->nodes[other].flags = FLAME_OTHER;
    }
    struct flame_node *x = &g->out->nodes[other];
    add_amounts(x->total, k->total);
    add_amounts(x->self, k->total);
    x->merged++;
    if (g->base && k->match != FLAME_NONE)
      add_amounts(x->base, g->base->nodes[k->match].total);
  }
}

void flame_tree_merge_small(struct flame_tree *out,
                            const struct flame_tree *in, double share,
                            const struct flame_tree *base,
                            const double *factor) {
  flame_tree_init(out, in->labels);
  struct merge g = {out, in, base, {0}, {0}, factor};
  for (int m = 0; m < REPORT_METRICS; m++) {
    g.limit[m] = share * flame_width(&in->nodes[0], (enum report_metric)m);
    if (base)
      g.base_limit[m] = share * factor[m] *
                        flame_width(&base->nodes[0], (enum report_metric)m);
  }
  if (share <= 0)
    for (int m = 0; m < REPORT_METRICS; m++)
      g.limit[m] = g.base_limit[m] = -1;
  copy_subtree(&g, 0, FLAME_NONE);
  out->stacks = in->stacks;
}
