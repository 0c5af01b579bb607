/* The flame graph's tree and arithmetic (tools/mipdata/flame/flame_tree.h):
 * total and self per node, frames of several lines folded once, means,
 * the base scaled, the neutral band, new frames, vanished stacks, empty
 * sides, small frames merged. Stacks are given as labels a to e, with
 * amounts made from MemInfoBlocks as a profile's contexts give them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flame_tree.h"
#include "suites.h"

struct fixture {
  struct flame_labels labels;
  uint32_t a, b, c, d, e;
};

static void fixture_init(struct fixture *f) {
  flame_labels_init(&f->labels);
  f->a = flame_label(&f->labels, "a@x.c", "a", "x.c");
  f->b = flame_label(&f->labels, "b@x.c", "b", "x.c");
  f->c = flame_label(&f->labels, "c@x.c", "c", "x.c");
  f->d = flame_label(&f->labels, "d@y.c", "d", "y.c");
  f->e = flame_label(&f->labels, "e@y.c", NULL, NULL);
}

/* A context's amounts: bytes in allocs allocations, lifetime_ms in all. */
static void amounts(struct report_amount *a, uint64_t bytes, uint64_t allocs,
                    uint64_t lifetime_ms) {
  struct mip_mib mib;
  memset(&mib, 0, sizeof mib);
  mib.v[MIP_MIBI_TotalSize] = bytes;
  mib.v[MIP_MIBI_AllocCount] = allocs;
  mib.v[MIP_MIBI_TotalLifetime] = lifetime_ms;
  for (int m = 0; m < REPORT_METRICS; m++) {
    a[m] = (struct report_amount){0, 0};
    report_amount_add(&a[m], (enum report_metric)m, &mib);
  }
}

static uint32_t add(struct flame_tree *t, const uint32_t *path, size_t depth,
                    uint64_t bytes) {
  struct report_amount a[REPORT_METRICS];
  amounts(a, bytes, 1, 0);
  return flame_tree_add(t, path, NULL, depth, a);
}

/* The node at a path of labels, or FLAME_NONE. */
static uint32_t at(const struct flame_tree *t, const uint32_t *path,
                   size_t depth) {
  uint32_t n = 0;
  for (size_t k = 0; k < depth && n != FLAME_NONE; k++) {
    uint32_t c = t->nodes[n].first_child;
    while (c != FLAME_NONE && t->nodes[c].label != path[k])
      c = t->nodes[c].next_sibling;
    n = c;
  }
  return n;
}

static double bytes_total(const struct flame_tree *t, uint32_t n) {
  return flame_total(&t->nodes[n], REPORT_BYTES);
}

static double bytes_self(const struct flame_tree *t, uint32_t n) {
  return flame_self(&t->nodes[n], REPORT_BYTES);
}

START_TEST(totals_and_self_values) {
  struct fixture f;
  fixture_init(&f);
  struct flame_tree t;
  flame_tree_init(&t, &f.labels);
  uint32_t abc[] = {f.a, f.b, f.c}, ab[] = {f.a, f.b}, ad[] = {f.a, f.d};
  add(&t, abc, 3, 10);
  add(&t, ab, 2, 5);
  add(&t, ad, 2, 3);
  ck_assert(bytes_total(&t, 0) == 18 && bytes_self(&t, 0) == 0);
  ck_assert(bytes_total(&t, at(&t, ab, 1)) == 18);
  ck_assert(bytes_self(&t, at(&t, ab, 1)) == 0);
  ck_assert(bytes_total(&t, at(&t, ab, 2)) == 15);
  ck_assert(bytes_self(&t, at(&t, ab, 2)) == 5);
  ck_assert(bytes_self(&t, at(&t, abc, 3)) == 10);
  ck_assert(bytes_total(&t, at(&t, ad, 2)) == 3);
  ck_assert_uint_eq(t.count, 5); /* root, a, b, c, d */
  ck_assert_uint_eq(t.stacks, 3);
  /* The same label under another parent is another node. */
  uint32_t bc[] = {f.b, f.c};
  add(&t, bc, 2, 1);
  ck_assert(bytes_total(&t, at(&t, bc, 2)) == 1);
  ck_assert(bytes_total(&t, at(&t, abc, 3)) == 10);
  flame_tree_free(&t);
  flame_labels_free(&f.labels);
}
END_TEST

/* Two contexts whose frames differ in lines only are one path: b's self
 * is their sum once, not once per line (CPython's duplicated self). */
START_TEST(frames_of_several_lines_fold_once) {
  struct fixture f;
  fixture_init(&f);
  ck_assert_uint_eq(flame_label(&f.labels, "b@x.c", "b", "x.c"), f.b);
  ck_assert_uint_eq(f.labels.count, 5);
  ck_assert_str_eq(f.labels.v[f.e].name, "??");
  struct flame_tree t;
  flame_tree_init(&t, &f.labels);
  uint32_t ab[] = {f.a, f.b}, line1[] = {1, 2}, line2[] = {1, 7};
  struct report_amount x[REPORT_METRICS], y[REPORT_METRICS];
  amounts(x, 10, 1, 0);
  amounts(y, 20, 1, 0);
  uint32_t n1 = flame_tree_add(&t, ab, line1, 2, x);
  uint32_t n2 = flame_tree_add(&t, ab, line2, 2, y);
  ck_assert_uint_eq(n1, n2);
  ck_assert(bytes_self(&t, n1) == 30 && bytes_total(&t, n1) == 30);
  ck_assert(bytes_total(&t, 0) == 30);
  ck_assert(t.nodes[n1].flags & FLAME_LINES);
  ck_assert_uint_eq(t.nodes[n1].line, 2);
  ck_assert(!(t.nodes[at(&t, ab, 1)].flags & FLAME_LINES));
  ck_assert_uint_eq(t.nodes[n1].stacks, 2);
  flame_tree_free(&t);
  flame_labels_free(&f.labels);
}
END_TEST

/* A mean metric stays a mean over the allocations under a node; its
 * width, the field summed, adds up. */
START_TEST(means_are_per_allocation_and_widths_add_up) {
  struct fixture f;
  fixture_init(&f);
  struct flame_tree t;
  flame_tree_init(&t, &f.labels);
  uint32_t ab[] = {f.a, f.b}, ac[] = {f.a, f.c};
  struct report_amount x[REPORT_METRICS], y[REPORT_METRICS];
  amounts(x, 100, 2, 4000); /* 2 s each */
  amounts(y, 100, 1, 1000);
  flame_tree_add(&t, ab, NULL, 2, x);
  flame_tree_add(&t, ac, NULL, 2, y);
  const struct flame_node *a = &t.nodes[at(&t, ab, 1)];
  ck_assert(fabs(flame_total(a, REPORT_LIFETIME) - 5.0 / 3) < 1e-12);
  ck_assert(flame_width(a, REPORT_LIFETIME) == 5.0);
  ck_assert(flame_total(&t.nodes[at(&t, ab, 2)], REPORT_LIFETIME) == 2.0);
  ck_assert(flame_self(a, REPORT_LIFETIME) == 0.0); /* no allocation: 0 */
  ck_assert(flame_width(a, REPORT_BYTES) == flame_total(a, REPORT_BYTES));
  flame_tree_free(&t);
  flame_labels_free(&f.labels);
}
END_TEST

/* cur's a->b allocates cur_bytes, base's base_bytes: b's delta. */
static struct flame_delta compare_b(uint64_t base_bytes, uint64_t cur_bytes,
                                    double factor, double band) {
  struct fixture f;
  fixture_init(&f);
  struct flame_tree cur, base;
  flame_tree_init(&cur, &f.labels);
  flame_tree_init(&base, &f.labels);
  uint32_t ab[] = {f.a, f.b};
  add(&cur, ab, 2, cur_bytes);
  add(&base, ab, 2, base_bytes);
  flame_diff(&cur, &base, FLAME_BY_SELF);
  struct flame_delta d =
      flame_compare(&cur.nodes[at(&cur, ab, 2)], REPORT_BYTES, factor,
                    band, FLAME_BY_SELF);
  flame_tree_free(&cur);
  flame_tree_free(&base);
  flame_labels_free(&f.labels);
  return d;
}

START_TEST(self_values_compare_scaled_within_a_band) {
  struct flame_delta d = compare_b(100, 150, 1, 0.15);
  ck_assert_int_eq(d.kind, FLAME_WORSE);
  ck_assert(d.base == 100 && d.cur == 150 && d.change == 50);
  ck_assert(d.relative == 0.5);
  ck_assert_int_eq(d.grade, 3);
  /* The base scaled first: 100 x 2 = 200 against 150 is 25 % better. */
  d = compare_b(100, 150, 2, 0.15);
  ck_assert_int_eq(d.kind, FLAME_BETTER);
  ck_assert(d.base == 200 && d.relative == -0.25);
  ck_assert_int_eq(d.grade, 2);
  /* Within the band, and out of a narrower one. */
  d = compare_b(100, 110, 1, 0.15);
  ck_assert_int_eq(d.kind, FLAME_SAME);
  ck_assert_int_eq(d.grade, 0);
  d = compare_b(100, 110, 1, 0.05);
  ck_assert_int_eq(d.kind, FLAME_WORSE);
  ck_assert_int_eq(d.grade, 1);
  /* The band's edge is still the same. */
  ck_assert_int_eq(compare_b(100, 115, 1, 0.15).kind, FLAME_SAME);
  /* Gone: -100 %, the darkest blue. */
  d = compare_b(100, 0, 1, 0.15);
  ck_assert(d.kind == FLAME_BETTER && d.relative == -1 && d.grade == 4);
  /* From nothing: no division by 0, the darkest red. */
  d = compare_b(0, 10, 1, 0.15);
  ck_assert(d.kind == FLAME_WORSE && d.from_zero && d.grade == 4);
  ck_assert(d.relative == 0 && isfinite(d.relative));
  d = compare_b(0, 0, 1, 0);
  ck_assert(d.kind == FLAME_SAME && !d.from_zero && d.relative == 0);
}
END_TEST

START_TEST(new_frames_and_vanished_stacks) {
  struct fixture f;
  fixture_init(&f);
  struct flame_tree cur, base, elided;
  flame_tree_init(&cur, &f.labels);
  flame_tree_init(&base, &f.labels);
  uint32_t ab[] = {f.a, f.b}, ac[] = {f.a, f.c}, ad[] = {f.a, f.d};
  uint32_t abe[] = {f.a, f.b, f.e};
  add(&cur, ab, 2, 10);
  add(&cur, ad, 2, 7);
  add(&base, ab, 2, 10);
  add(&base, ac, 2, 4);
  add(&base, abe, 3, 2);
  flame_diff(&cur, &base, FLAME_BY_SELF);
  const struct flame_node *d = &cur.nodes[at(&cur, ad, 2)];
  ck_assert(d->flags & FLAME_NEW);
  ck_assert(!(cur.nodes[at(&cur, ab, 2)].flags & FLAME_NEW));
  struct flame_delta added = flame_compare(d, REPORT_BYTES, 1, 0.15,
                                           FLAME_BY_SELF);
  ck_assert_int_eq(added.kind, FLAME_ADDED);
  ck_assert(added.cur == 7);
  /* By total (the inverted view's basis): a allocated 17 against 16. */
  flame_diff(&cur, &base, FLAME_BY_TOTAL);
  struct flame_delta total = flame_compare(&cur.nodes[at(&cur, ab, 1)],
                                           REPORT_BYTES, 1, 0.01,
                                           FLAME_BY_TOTAL);
  ck_assert(total.base == 16 && total.cur == 17);
  ck_assert_int_eq(total.kind, FLAME_WORSE);
  /* c and b->e vanished: two stacks, drawn as the base had them. */
  flame_tree_init(&elided, &f.labels);
  ck_assert_uint_eq(flame_elided(&elided, &base), 2);
  ck_assert(bytes_total(&elided, 0) == 6);
  ck_assert(bytes_self(&elided, at(&elided, ac, 2)) == 4);
  ck_assert(bytes_self(&elided, at(&elided, abe, 3)) == 2);
  ck_assert(bytes_self(&elided, at(&elided, ab, 2)) == 0);
  ck_assert_uint_eq(at(&elided, ad, 2), FLAME_NONE);
  flame_tree_free(&elided);
  /* The same profile against itself: nothing new, nothing vanished. */
  struct flame_tree again;
  flame_tree_init(&again, &f.labels);
  add(&again, ab, 2, 10);
  add(&again, ac, 2, 4);
  add(&again, abe, 3, 2);
  flame_diff(&again, &base, FLAME_BY_SELF);
  for (size_t i = 0; i < again.count; i++)
    ck_assert(!(again.nodes[i].flags & FLAME_NEW));
  flame_tree_init(&elided, &f.labels);
  ck_assert_uint_eq(flame_elided(&elided, &base), 0);
  ck_assert_uint_eq(elided.count, 1);
  flame_tree_free(&elided);
  flame_tree_free(&again);
  flame_tree_free(&cur);
  flame_tree_free(&base);
  flame_labels_free(&f.labels);
}
END_TEST

/* Every value of every node, in every metric, finite. */
static void assert_finite(const struct flame_tree *t, double factor) {
  for (size_t i = 0; i < t->count; i++)
    for (int m = 0; m < REPORT_METRICS; m++) {
      struct flame_delta d =
          flame_compare(&t->nodes[i], (enum report_metric)m, factor,
                        0.15, FLAME_BY_SELF);
      ck_assert(isfinite(d.base) && isfinite(d.cur) && isfinite(d.change) &&
                isfinite(d.relative));
      ck_assert(isfinite(flame_total(&t->nodes[i], (enum report_metric)m)));
    }
}

START_TEST(empty_sides_give_no_nan) {
  struct fixture f;
  fixture_init(&f);
  struct flame_tree cur, empty, elided;
  flame_tree_init(&cur, &f.labels);
  flame_tree_init(&empty, &f.labels);
  uint32_t ab[] = {f.a, f.b};
  add(&cur, ab, 2, 10);
  /* An empty base: everything is new, nothing vanished. */
  flame_diff(&cur, &empty, FLAME_BY_SELF);
  ck_assert(cur.nodes[at(&cur, ab, 2)].flags & FLAME_NEW);
  ck_assert(!(cur.nodes[0].flags & FLAME_NEW));
  assert_finite(&cur, 1);
  flame_tree_init(&elided, &f.labels);
  ck_assert_uint_eq(flame_elided(&elided, &empty), 0);
  flame_tree_free(&elided);
  /* An empty profile against a base: every stack of the base vanished. */
  struct flame_tree none, base;
  flame_tree_init(&none, &f.labels);
  flame_tree_init(&base, &f.labels);
  add(&base, ab, 2, 10);
  flame_diff(&none, &base, FLAME_BY_SELF);
  assert_finite(&none, 1);
  flame_tree_init(&elided, &f.labels);
  ck_assert_uint_eq(flame_elided(&elided, &base), 1);
  ck_assert(bytes_total(&elided, 0) == 10);
  /* Both empty. */
  struct flame_tree none2;
  flame_tree_init(&none2, &f.labels);
  flame_diff(&none2, &empty, FLAME_BY_SELF);
  assert_finite(&none2, 1);
  assert_finite(&empty, 1);
  flame_tree_free(&none2);
  flame_tree_free(&elided);
  flame_tree_free(&none);
  flame_tree_free(&base);
  flame_tree_free(&cur);
  flame_tree_free(&empty);
  flame_labels_free(&f.labels);
}
END_TEST

/* The children of n, each as its label's name ("other" as "*") followed
 * by a space, in name order. */
static int by_string(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static void children_of(const struct flame_tree *t, uint32_t n, char *out) {
  const char *names[16];
  size_t k = 0;
  for (uint32_t c = t->nodes[n].first_child; c != FLAME_NONE && k < 16;
       c = t->nodes[c].next_sibling)
    names[k++] = t->nodes[c].label == FLAME_NONE
                     ? "*"
                     : t->labels->v[t->nodes[c].label].name;
  qsort(names, k, sizeof *names, by_string);
  *out = 0;
  for (size_t i = 0; i < k; i++) {
    strcat(out, names[i]);
    strcat(out, " ");
  }
}

/* The "other" child of n. */
static uint32_t other_of(const struct flame_tree *t, uint32_t n) {
  for (uint32_t c = t->nodes[n].first_child; c != FLAME_NONE;
       c = t->nodes[c].next_sibling)
    if (t->nodes[c].flags & FLAME_OTHER)
      return c;
  return FLAME_NONE;
}

START_TEST(small_frames_merge_into_other) {
  struct fixture f;
  fixture_init(&f);
  struct flame_tree t, small;
  flame_tree_init(&t, &f.labels);
  uint32_t a[] = {f.a}, bc[] = {f.b, f.c}, d[] = {f.d}, e[] = {f.e};
  add(&t, a, 1, 1000);
  add(&t, bc, 2, 2);
  add(&t, d, 1, 1);
  /* e is small in bytes but not in allocations: kept. */
  struct report_amount many[REPORT_METRICS];
  amounts(many, 1, 500, 0);
  flame_tree_add(&t, e, NULL, 1, many);
  flame_tree_merge_small(&small, &t, 0.01, NULL, NULL);
  char names[64];
  children_of(&small, 0, names);
  ck_assert_str_eq(names, "* ?? a ");
  uint32_t other = other_of(&small, 0);
  ck_assert(small.nodes[other].flags & FLAME_OTHER);
  ck_assert_uint_eq(small.nodes[other].merged, 2);
  ck_assert(bytes_total(&small, other) == 3 && bytes_self(&small, other) == 3);
  ck_assert_uint_eq(small.nodes[other].first_child, FLAME_NONE);
  ck_assert(bytes_total(&small, 0) == bytes_total(&t, 0));
  ck_assert_uint_eq(small.count, 4);
  flame_tree_free(&small);
  /* share 0 merges nothing. */
  flame_tree_merge_small(&small, &t, 0, NULL, NULL);
  ck_assert_uint_eq(small.count, t.count);
  flame_tree_free(&small);
  /* Compared with a base in which d was large, d stays. */
  struct flame_tree base;
  flame_tree_init(&base, &f.labels);
  add(&base, d, 1, 1000);
  add(&base, a, 1, 1000);
  flame_diff(&t, &base, FLAME_BY_SELF);
  double factor[REPORT_METRICS];
  for (int m = 0; m < REPORT_METRICS; m++)
    factor[m] = 1;
  flame_tree_merge_small(&small, &t, 0.01, &base, factor);
  children_of(&small, 0, names);
  ck_assert_str_eq(names, "* ?? a d ");
  other = other_of(&small, 0);
  ck_assert(bytes_total(&small, other) == 2);
  /* What an "other" merged of the base: nothing here (b->c is new). */
  ck_assert(flame_compare(&small.nodes[other], REPORT_BYTES, 1, 0.15,
                          FLAME_BY_SELF)
                .base == 0);
  flame_tree_free(&small);
  flame_tree_free(&base);
  flame_tree_free(&t);
  flame_labels_free(&f.labels);
}
END_TEST

Suite *flame_suite(void) {
  Suite *s = suite_create("flame");
  TCase *t = tcase_create("flame");
  tcase_add_test(t, totals_and_self_values);
  tcase_add_test(t, frames_of_several_lines_fold_once);
  tcase_add_test(t, means_are_per_allocation_and_widths_add_up);
  tcase_add_test(t, self_values_compare_scaled_within_a_band);
  tcase_add_test(t, new_frames_and_vanished_stacks);
  tcase_add_test(t, empty_sides_give_no_nan);
  tcase_add_test(t, small_frames_merge_into_other);
  suite_add_tcase(s, t);
  return s;
}
