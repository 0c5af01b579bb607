/*
 * The call tree of a heap profile, as a flame graph draws it, and the
 * differential arithmetic of two profiles' trees (docs/mipdata.md,
 * flamegraph). Each context's stack is folded, root first (the flame
 * view) or allocating function first (the inverted view), into a tree
 * whose nodes are paths of frame labels: frames with one key (by default
 * the coarse key, FUNCTION@FILE, with no line) are one node, so two
 * contexts that differ only in lines add into one node once.
 *
 * Every node keeps, for every metric of report_metric.h, its total (the
 * contexts through it) and its self amount (the contexts that end at
 * it), both as report_amounts, so that a mean metric stays a mean.
 */
#ifndef MIPDATA_FLAME_TREE_H
#define MIPDATA_FLAME_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "report_metric.h"

#define FLAME_NONE UINT32_MAX

/* What a node stands for: one key, and what the page shows of it. */
struct flame_label {
  char *key;  /* the frame's key (report_frame_key) */
  char *name; /* the demangled function, "??" unknown */
  char *file; /* NULL unknown */
};

/* The labels of one or more trees (two trees compare by label), each
 * key once. */
struct flame_labels {
  struct flame_label *v;
  size_t count, cap;
  uint32_t *slot; /* hash table of label indices by key */
  size_t slots;
};

enum flame_flags {
  FLAME_NEW = 1u,   /* differential: the base has no node on this path */
  FLAME_OTHER = 2u, /* frames too small to draw, merged (no label) */
  FLAME_LINES = 4u, /* frames of more than one line folded into it */
};

struct flame_node {
  uint32_t label;  /* FLAME_NONE: the root, or an "other" node */
  uint32_t parent; /* FLAME_NONE: the root */
  uint32_t first_child, next_sibling;
  uint32_t line;   /* the first folded frame's line (0 unknown) */
  unsigned flags;
  uint64_t stacks; /* contexts that end here */
  uint32_t merged; /* FLAME_OTHER: how many frames it merged */
  struct report_amount total[REPORT_METRICS];
  struct report_amount self[REPORT_METRICS];
  /* Differential (flame_diff): the base's self (or total) amount on the
   * same path, unscaled (an "other" node: the base's totals of what it
   * merged), and
   * the matching node of the other tree (FLAME_NONE: none). */
  struct report_amount base[REPORT_METRICS];
  uint32_t match;
};

struct flame_tree {
  struct flame_labels *labels; /* shared, not owned */
  struct flame_node *nodes;    /* nodes[0] is the root */
  size_t count, cap;
  uint32_t *slot; /* hash table of nodes by (parent, label) */
  size_t slots;
  size_t stacks; /* contexts folded */
  /* The last path added: its labels and nodes. Contexts come grouped by
   * site and frames, so the next one mostly shares a prefix with it,
   * found without the table. */
  uint32_t *last_label, *last_node;
  size_t last_depth, last_cap;
};

void flame_labels_init(struct flame_labels *l);
void flame_labels_free(struct flame_labels *l);
/* The label of key, added with name and file (copied) when new. */
uint32_t flame_label(struct flame_labels *l, const char *key,
                     const char *name, const char *file);

/* An empty tree: its root alone. */
void flame_tree_init(struct flame_tree *t, struct flame_labels *l);
void flame_tree_free(struct flame_tree *t);

/* One stack of depth labels, root first, ending with amounts self (one
 * per metric): added to the total of every node on the path and to the
 * self of its last node. lines may be NULL. Returns that node. */
uint32_t flame_tree_add(struct flame_tree *t, const uint32_t *labels,
                        const uint32_t *lines, size_t depth,
                        const struct report_amount *self);

/* Folds every context of r, its frames keyed by key: root first for the
 * flame view (REPORT_ROOT_FIRST), allocating function first for the
 * inverted one. */
void flame_tree_fold(struct flame_tree *t, const struct report *r,
                     enum report_key key, enum report_direction direction);

/* The metric's value of a node's total or self amount (report_amount_value:
 * a sum, or a mean for a mean metric). */
double flame_total(const struct flame_node *n, enum report_metric m);
double flame_self(const struct flame_node *n, enum report_metric m);
/* A node's width in metric m: additive, so that children never outgrow
 * their parent. The value for a sum; for a mean metric the field summed
 * (allocations times their mean), in the metric's unit. */
double flame_width(const struct flame_node *n, enum report_metric m);

/* ---- differential ----------------------------------------------------- */

/* What a differential compares: each frame's self amount (the flame
 * view: what the function allocates itself), or its total (the inverted
 * view, where a frame's total is what the allocating function at the
 * root allocates when called through it, and self means nothing). */
enum flame_basis { FLAME_BY_SELF, FLAME_BY_TOTAL };

/* Matches cur's nodes with base's by path of labels (the two trees share
 * their labels): sets each node's match both ways, each cur node's base
 * amounts from its match's self or total (basis), and FLAME_NEW on cur's
 * nodes that have none. */
void flame_diff(struct flame_tree *cur, struct flame_tree *base,
                enum flame_basis basis);

/* The base's stacks that vanished (whose last node has no match in the
 * new tree, after flame_diff), folded into out, which has base's labels.
 * Returns how many; none means that the page offers no elided view. */
size_t flame_elided(struct flame_tree *out, const struct flame_tree *base);

enum flame_change {
  FLAME_SAME,   /* within the neutral band */
  FLAME_WORSE,  /* more than the band above the base */
  FLAME_BETTER, /* more than the band below */
  FLAME_ADDED,  /* a frame the base has not */
};

/* How a node's self (or total) value compares with the base's, scaled by
 * factor (report_scale; a mean metric is never scaled). Always finite. */
struct flame_delta {
  double base;     /* the base's value, scaled */
  double cur;      /* the node's value */
  double change;   /* cur - base */
  double relative; /* change / base; 0 when both are 0 */
  int from_zero;   /* the base is 0 and cur is not: relative is 0 */
  enum flame_change kind;
  int grade; /* worse or better: 1 to 4, as |relative| reaches 0.25, 0.5
                and 1 (from zero: 4); else 0 */
};

/* The neutral band is a share of the base: |relative| <= band is the
 * same. */
struct flame_delta flame_compare(const struct flame_node *n,
                                 enum report_metric m, double factor,
                                 double band, enum flame_basis basis);

/* ---- size ------------------------------------------------------------- */

/* A copy of in (into out, with in's labels) in which the children of each
 * node that are, in every metric, no wider than share of the root (and,
 * in a differential tree, whose base is no more than share of the base's
 * root, scaled) are merged into one FLAME_OTHER node without children:
 * frames too thin to draw. The root's totals stay the same. share 0
 * merges nothing. base: the tree in was compared with (flame_diff), or
 * NULL, and factor its scale factor per metric. */
void flame_tree_merge_small(struct flame_tree *out,
                            const struct flame_tree *in, double share,
                            const struct flame_tree *base,
                            const double *factor);

#endif
