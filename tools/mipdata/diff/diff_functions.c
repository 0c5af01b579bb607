/* The functions side of a diff (diff.h): coverage, code changes, call
 * counts, first-call order and blocks, over functions matched by key. A
 * group of several functions of one side (one coarse key) counts as
 * covered when one of them is, with their calls summed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* A group's member i of side s. */
static const struct report_function *
member(const struct diff_functions *f, const struct report *const r[],
       size_t group, enum report_side s, size_t i) {
  const struct report_match_group *g = &f->match.groups[group];
  return &r[s]->functions[report_match_member(&f->match, g, s, i)];
}

static int group_covered(const struct diff_functions *f,
                         const struct report *const r[], size_t group,
                         enum report_side s) {
  for (size_t i = 0; i < f->match.groups[group].count[s]; i++)
    if (member(f, r, group, s, i)->runs)
      return 1;
  return 0;
}

static double group_calls(const struct diff_functions *f,
                          const struct report *const r[], size_t group,
                          enum report_side s) {
  double calls = 0;
  for (size_t i = 0; i < f->match.groups[group].count[s]; i++)
    calls += (double)member(f, r, group, s, i)->calls;
  return calls;
}

static void list_add(struct diff_list *l, size_t group, size_t top) {
  if (l->count++ < top) {
    l->at = mip_xrealloc(l->at, l->shown + 1, sizeof *l->at);
    l->at[l->shown++] = group;
  }
}

static void coverage(struct diff_functions *f, const struct report *const r[],
                     size_t top) {
  for (int s = 0; s < REPORT_SIDES; s++) {
    f->count[s] = r[s]->function_count;
    for (size_t i = 0; i < f->count[s]; i++)
      f->covered[s] += r[s]->functions[i].runs > 0;
    f->coverage[s] =
        f->count[s] ? 100.0 * (double)f->covered[s] / (double)f->count[s] : 0;
  }
  f->coverage_delta = f->coverage[REPORT_NEW] - f->coverage[REPORT_BASE];
  for (size_t i = 0; i < f->match.group_count; i++) {
    const struct report_match_group *g = &f->match.groups[i];
    f->added += !g->count[REPORT_BASE];
    f->removed += !g->count[REPORT_NEW];
    if (!report_match_paired(g))
      continue;
    int was = group_covered(f, r, i, REPORT_BASE);
    int is = group_covered(f, r, i, REPORT_NEW);
    if (was && !is)
      list_add(&f->newly_uncovered, i, top);
    if (!was && is)
      list_add(&f->newly_covered, i, top);
    /* The code changed: a pair of one function each whose CFG hashes
     * differ (a collapsed group has no one hash to compare). */
    if (g->count[REPORT_BASE] == 1 && g->count[REPORT_NEW] == 1 &&
        member(f, r, i, REPORT_BASE, 0)->cfg_hash !=
            member(f, r, i, REPORT_NEW, 0)->cfg_hash)
      list_add(&f->code_changed, i, top);
  }
}

static int larger_change(const void *a, const void *b) {
  const struct diff_call *x = a, *y = b;
  double dx = fabs(x->cur - x->base), dy = fabs(y->cur - y->base);
  if (dx != dy)
    return dx < dy ? 1 : -1;
  return (x->group > y->group) - (x->group < y->group);
}

/* Call counts of paired functions, base normalized: their ratios, and
 * the largest changes. */
static void calls(struct diff_functions *f, const struct report *const r[],
                  const struct diff_options *o) {
  uint64_t total[REPORT_SIDES] = {0, 0};
  for (int s = 0; s < REPORT_SIDES; s++)
    for (size_t i = 0; i < r[s]->function_count; i++)
      total[s] += r[s]->functions[i].calls;
  f->calls_factor =
      report_scale_counts(o->normalize, r[REPORT_BASE]->runs,
                          r[REPORT_NEW]->runs, total[REPORT_BASE],
                          total[REPORT_NEW]);
  struct diff_call *all = mip_xcalloc(f->match.group_count + 1, sizeof *all);
  double *ratios = mip_xcalloc(f->match.group_count + 1, sizeof *ratios);
  size_t n = 0;
  for (size_t i = 0; i < f->match.group_count; i++) {
    if (!report_match_paired(&f->match.groups[i]))
      continue;
    struct diff_call c = {i, group_calls(f, r, i, REPORT_BASE) * f->calls_factor,
                          group_calls(f, r, i, REPORT_NEW)};
    diff_ratios_add(&f->call_ratios, ratios, c.base, c.cur);
    if (!diff_same(c.base, c.cur))
      all[n++] = c;
  }
  diff_ratios_finish(&f->call_ratios, ratios);
  qsort(all, n, sizeof *all, larger_change);
  f->call_count = n;
  f->top_call_count = n < o->top ? n : (size_t)o->top;
  f->top_calls = all;
  free(ratios);
}

/* A group's best (lowest) mean first-call rank on side s; 0 when none
 * of its functions was ranked. */
static double group_rank(const struct diff_functions *f,
                         const struct report *const r[], size_t group,
                         enum report_side s) {
  double best = 0;
  for (size_t i = 0; i < f->match.groups[group].count[s]; i++) {
    const struct report_function *fn = member(f, r, group, s, i);
    if (fn->ranked && (best == 0 || fn->order < best))
      best = fn->order;
  }
  return best;
}

struct rank {
  double rank;
  size_t group;
};

static int earliest(const void *a, const void *b) {
  const struct rank *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->group > y->group) - (x->group < y->group);
}

/* first[group] set when side s ranks the group among its first n. */
static void mark_first(const struct diff_functions *f,
                       const struct report *const r[], enum report_side s,
                       uint64_t n, unsigned char *first) {
  struct rank *ranks = mip_xcalloc(f->match.group_count + 1, sizeof *ranks);
  size_t count = 0;
  for (size_t i = 0; i < f->match.group_count; i++) {
    double rank = group_rank(f, r, i, s);
    if (rank != 0)
      ranks[count++] = (struct rank){rank, i};
  }
  qsort(ranks, count, sizeof *ranks, earliest);
  for (size_t i = 0; i < count && i < n; i++)
    first[ranks[i].group] = 1;
  free(ranks);
}

static void order(struct diff_functions *f, const struct report *const r[],
                  const struct diff_options *o) {
  size_t n = f->match.group_count;
  unsigned char *was = mip_xcalloc(n + 1, 1), *is = mip_xcalloc(n + 1, 1);
  mark_first(f, r, REPORT_BASE, o->first_called, was);
  mark_first(f, r, REPORT_NEW, o->first_called, is);
  for (size_t i = 0; i < n; i++) {
    if (is[i] && !was[i])
      list_add(&f->entered, i, o->top);
    if (was[i] && !is[i])
      list_add(&f->left, i, o->top);
  }
  free(was);
  free(is);
}

/* Blocks that ran in a base run and in no new run, in functions whose
 * code did not change (the same CFG: the same blocks). */
static void blocks(struct diff_functions *f, const struct report *const r[],
                   size_t top) {
  for (size_t i = 0; i < f->match.group_count; i++) {
    const struct report_match_group *g = &f->match.groups[i];
    if (g->count[REPORT_BASE] != 1 || g->count[REPORT_NEW] != 1)
      continue;
    const struct report_function *b = member(f, r, i, REPORT_BASE, 0);
    const struct report_function *n = member(f, r, i, REPORT_NEW, 0);
    if (b->cfg_hash != n->cfg_hash || b->block_count != n->block_count)
      continue;
    for (uint32_t k = 0; k < b->block_count; k++) {
      if (!b->blocks[k].covered_runs || n->blocks[k].covered_runs)
        continue;
      if (f->cold_count++ < top) {
        f->cold = mip_xrealloc(f->cold, f->cold_shown + 1, sizeof *f->cold);
        f->cold[f->cold_shown++] =
            (struct diff_block){i, k, n->blocks[k].line};
      }
    }
  }
}

void diff_functions(struct diff_functions *f,
                    const struct report *const r[REPORT_SIDES],
                    const struct diff_options *o) {
  memset(f, 0, sizeof *f);
  f->compared =
      r[REPORT_BASE]->function_count && r[REPORT_NEW]->function_count;
  if (!f->compared)
    return;
  report_match(&f->match, r[REPORT_BASE], r[REPORT_NEW], REPORT_FUNCTIONS,
               o->match);
  coverage(f, r, o->top);
  f->calls = r[REPORT_BASE]->counted && r[REPORT_NEW]->counted;
  if (f->calls)
    calls(f, r, o);
  f->order = r[REPORT_BASE]->ordered && r[REPORT_NEW]->ordered;
  if (f->order)
    order(f, r, o);
  f->blocks = r[REPORT_BASE]->block_count && r[REPORT_NEW]->block_count;
  if (f->blocks)
    blocks(f, r, o->top);
}

void diff_functions_free(struct diff_functions *f) {
  report_match_free(&f->match);
  free(f->newly_covered.at);
  free(f->newly_uncovered.at);
  free(f->code_changed.at);
  free(f->top_calls);
  free(f->entered.at);
  free(f->left.at);
  free(f->cold);
  memset(f, 0, sizeof *f);
}
