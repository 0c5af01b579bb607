/*
 * Function placement for `mipdata order` (rules in docs/order.md):
 *
 *   1. hot:     the most-called functions whose calls make hot_share of
 *               all calls, and any called as often as the last of them
 *               (mip_hot_threshold: the hot functions of -fmip-use);
 *   2. start-up: the other called functions with a first-call rank, by
 *               mean rank, at most startup_limit of them;
 *   3. warm:    the remaining called functions: ranked ones by mean rank,
 *               then unranked ones by calls;
 *   4. cold:    never-called functions, in profile order.
 *
 * The file lists start-up, hot, warm, cold. Hot functions are clustered
 * with C3 (Ottoni and Maher, CGO 2017) when the profile has call edges and
 * function sizes, else listed by calls. Every tie is broken by name, then
 * by profile key, so the result depends on nothing but the profile.
 */
#include "function_order.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* C3 leaves a merge out when it would make the caller's cluster this many
 * times less dense (as hfsort and lld's call-graph sort do). */
#define DENSITY_DEGRADATION 8

const char *order_group_name(enum order_group group) {
  static const char *const names[ORDER_GROUPS] = {"startup", "hot", "warm",
                                                  "cold"};
  return group < ORDER_GROUPS ? names[group] : "?";
}

uint64_t order_symbol_size(const struct mip_profile *p, uint64_t entry) {
  const struct mip_symbol *s =
      mip_symbol_at_or_below(p->symbols, p->symbol_count, entry);
  return s && s->addr == entry ? s->size : 0;
}

/* ---- what the rules look at, per function ----------------------------- */

struct fn {
  uint64_t calls;
  uint64_t size;
  int called;
  int ranked;
};

struct ctx {
  const struct mip_profile *p;
  const struct fn *fn;
};

static const char *name_of(const struct mip_profile *p, uint32_t i) {
  return mip_profile_string(p, p->functions[i].name);
}

/* The last word on every tie: name, then key (which tells static
 * functions of one name apart), then position in the profile. */
static int by_name(const struct mip_profile *p, uint32_t a, uint32_t b) {
  int c = strcmp(name_of(p, a), name_of(p, b));
  if (!c)
    c = strcmp(mip_profile_string(p, p->functions[a].key),
               mip_profile_string(p, p->functions[b].key));
  if (!c)
    c = (a > b) - (a < b);
  return c;
}

static int by_calls(const void *x, const void *y, void *arg) {
  const struct ctx *c = arg;
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  if (c->fn[a].calls != c->fn[b].calls)
    return c->fn[a].calls > c->fn[b].calls ? -1 : 1;
  return by_name(c->p, a, b);
}

/* Mean ranks compared exactly: rank_sum_a / runs_a vs rank_sum_b / runs_b. */
static int by_rank(const void *x, const void *y, void *arg) {
  const struct ctx *c = arg;
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  const struct mip_profile_function *fa = &c->p->functions[a],
                                    *fb = &c->p->functions[b];
  u128 l = (u128)fa->rank_sum * fb->ranked_runs;
  u128 r = (u128)fb->rank_sum * fa->ranked_runs;
  if (l != r)
    return l < r ? -1 : 1;
  return by_name(c->p, a, b);
}

static uint64_t add_sat(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

/* ---- C3 --------------------------------------------------------------- */

struct cluster {
  uint32_t head, tail; /* functions, linked through next[] */
  uint64_t calls, size;
};

struct c3 {
  const struct mip_profile *p;
  struct cluster *clusters; /* one per hot function to start with */
  uint32_t *cluster_of;     /* per profile function; UINT32_MAX: not hot */
  uint32_t *next;           /* per profile function */
};

/* Density a.calls/a.size against b.calls/b.size, exactly; -1 when a is
 * the denser one. */
static int denser(const struct cluster *a, const struct cluster *b) {
  u128 l = (u128)a->calls * b->size, r = (u128)b->calls * a->size;
  return l > r ? -1 : l < r;
}

static int by_density(const void *x, const void *y, void *arg) {
  const struct c3 *c = arg;
  const struct cluster *a = &c->clusters[*(const uint32_t *)x],
                       *b = &c->clusters[*(const uint32_t *)y];
  int d = denser(a, b);
  return d ? d : by_name(c->p, a->head, b->head);
}

/* Per hot function, the caller with the most edge samples into it (its
 * most likely predecessor), or MIP_NO_FUNCTION. Calls from outside the
 * instrumented code and recursive calls do not count. */
static void best_predecessors(const struct mip_profile *p, uint32_t *best,
                              uint64_t *best_samples,
                              const uint32_t *cluster_of) {
  for (size_t i = 0; i < p->function_count; i++) {
    best[i] = MIP_NO_FUNCTION;
    best_samples[i] = 0;
  }
  for (size_t i = 0; i < p->edge_count;) {
    const struct mip_edge *e = &p->edges[i];
    uint64_t samples = 0;
    size_t j = i;
    /* Edges are sorted by caller, then callee: sum repeats of a pair. */
    for (; j < p->edge_count && p->edges[j].caller == e->caller &&
           p->edges[j].callee == e->callee;
         j++)
      samples = add_sat(samples, p->edges[j].samples);
    i = j;
    uint32_t to = e->callee, from = e->caller;
    if (from == MIP_NO_FUNCTION || to >= p->function_count ||
        from >= p->function_count || from == to ||
        cluster_of[to] == UINT32_MAX || !samples)
      continue;
    if (best[to] == MIP_NO_FUNCTION || samples > best_samples[to] ||
        (samples == best_samples[to] && by_name(p, from, best[to]) < 0)) {
      best[to] = from;
      best_samples[to] = samples;
    }
  }
}

/* Orders hot[0..n) (sorted by calls, most first) in place, cluster by
 * cluster, and sets each one's cluster number. */
static size_t cluster_hot(const struct mip_profile *p, const struct fn *fn,
                          uint32_t *hot, size_t n, uint64_t limit,
                          uint32_t *cluster_number) {
  struct c3 c = {.p = p};
  size_t count = p->function_count;
  c.clusters = mip_xcalloc(n ? n : 1, sizeof *c.clusters);
  c.cluster_of = mip_xcalloc(count ? count : 1, sizeof *c.cluster_of);
  c.next = mip_xcalloc(count ? count : 1, sizeof *c.next);
  uint32_t *best = mip_xcalloc(count ? count : 1, sizeof *best);
  uint64_t *best_samples = mip_xcalloc(count ? count : 1, sizeof *best_samples);
  for (size_t i = 0; i < count; i++) {
    c.cluster_of[i] = UINT32_MAX;
    c.next[i] = MIP_NO_FUNCTION;
  }
  for (size_t k = 0; k < n; k++) {
    uint32_t f = hot[k];
    /* A function of unknown size (no symbol at its entry) counts as one
     * byte, so that density stays defined. */
    c.clusters[k] =
        (struct cluster){f, f, fn[f].calls, fn[f].size ? fn[f].size : 1};
    c.cluster_of[f] = (uint32_t)k;
  }
  best_predecessors(p, best, best_samples, c.cluster_of);

  /* Hottest function first: append its cluster to the cluster of its
   * most likely caller, if that caller is hot, the two fit in limit
   * bytes, and the caller's cluster keeps at least 1/8 of its density. */
  for (size_t k = 0; k < n; k++) {
    uint32_t f = hot[k], pred = best[f];
    if (pred == MIP_NO_FUNCTION || c.cluster_of[pred] == UINT32_MAX)
      continue;
    struct cluster *to = &c.clusters[c.cluster_of[pred]];
    struct cluster *from = &c.clusters[c.cluster_of[f]];
    if (to == from || to->size + from->size > limit ||
        to->size + from->size < to->size)
      continue;
    struct cluster merged = {to->head, from->tail,
                             add_sat(to->calls, from->calls),
                             to->size + from->size};
    if ((u128)to->calls * merged.size >
        (u128)merged.calls * to->size * DENSITY_DEGRADATION)
      continue;
    uint32_t into = c.cluster_of[pred];
    for (uint32_t g = from->head; g != MIP_NO_FUNCTION; g = c.next[g])
      c.cluster_of[g] = into;
    c.next[to->tail] = from->head;
    *to = merged;
    *from = (struct cluster){MIP_NO_FUNCTION, MIP_NO_FUNCTION, 0, 0};
  }

  /* The clusters left, densest first. */
  uint32_t *order = mip_xcalloc(n ? n : 1, sizeof *order);
  size_t left = 0;
  for (size_t k = 0; k < n; k++)
    if (c.clusters[k].head != MIP_NO_FUNCTION)
      order[left++] = (uint32_t)k;
  qsort_r(order, left, sizeof *order, by_density, &c);
  size_t out = 0;
  for (size_t k = 0; k < left; k++)
    for (uint32_t g = c.clusters[order[k]].head; g != MIP_NO_FUNCTION;
         g = c.next[g]) {
      hot[out] = g;
      cluster_number[out++] = (uint32_t)(k + 1);
    }
  free(order);
  free(best_samples);
  free(best);
  free(c.next);
  free(c.cluster_of);
  free(c.clusters);
  return left;
}

/* ---- placement -------------------------------------------------------- */

static void place(struct order_result *r, uint32_t f, enum order_group group,
                  uint32_t cluster, const struct fn *fn) {
  r->entries[r->count++] = (struct order_entry){
      .function = f,
      .group = group,
      .cluster = cluster,
      .calls = fn[f].calls,
      .size = fn[f].size,
  };
  r->group_count[group]++;
}

struct line_ctx {
  const struct mip_profile *p;
  const struct order_result *r;
};

/* Positions in the result, by the name placed there, then position. */
static int by_placed_name(const void *x, const void *y, void *arg) {
  const struct line_ctx *c = arg;
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  int d = strcmp(name_of(c->p, c->r->entries[a].function),
                 name_of(c->p, c->r->entries[b].function));
  return d ? d : (a > b) - (a < b);
}

/* Whether a name can be one line of a linker's ordering file: one that
 * holds a control character (a line end among them) would split into
 * other names, or name no symbol there. */
static int fits_a_line(const char *name) {
  for (const unsigned char *c = (const unsigned char *)name; *c; c++)
    if (*c < 0x20 || *c == 0x7f)
      return 0;
  return 1;
}

/* Numbers the lines of the output file: a name is written once, where
 * its first function is placed; later functions of that name (static
 * functions of other files) get line 0, and so does a name that cannot
 * be a line of it (fits_a_line). */
static void number_lines(const struct mip_profile *p, struct order_result *r) {
  size_t n = r->count;
  uint32_t *pos = mip_xcalloc(n ? n : 1, sizeof *pos);
  uint8_t *repeat = mip_xcalloc(n ? n : 1, 1);
  for (size_t i = 0; i < n; i++)
    pos[i] = (uint32_t)i;
  struct line_ctx c = {p, r};
  qsort_r(pos, n, sizeof *pos, by_placed_name, &c);
  for (size_t i = 1; i < n; i++)
    repeat[pos[i]] = !strcmp(name_of(p, r->entries[pos[i - 1]].function),
                             name_of(p, r->entries[pos[i]].function));
  r->lines = 0;
  for (size_t i = 0; i < n; i++)
    r->entries[i].line =
        repeat[i] || !fits_a_line(name_of(p, r->entries[i].function))
            ? 0
            : ++r->lines;
  free(repeat);
  free(pos);
}

void order_functions(const struct mip_profile *p, const struct order_options *o,
                     struct order_result *r) {
  size_t count = p->function_count;
  memset(r, 0, sizeof *r);
  r->entries = mip_xcalloc(count ? count : 1, sizeof *r->entries);
  struct fn *fn = mip_xcalloc(count ? count : 1, sizeof *fn);
  int has_ranks = mip_profile_has(p, MIP_RAW_ORD);
  for (size_t i = 0; i < count; i++) {
    const struct mip_profile_function *f = &p->functions[i];
    fn[i].calls = f->cnt_offset != MIP_NO_OFFSET ? f->calls : 0;
    fn[i].size = order_symbol_size(p, f->entry);
    fn[i].called = fn[i].calls > 0 || f->covered_runs > 0;
    fn[i].ranked = has_ranks && f->ord_offset != MIP_NO_OFFSET &&
                   f->ranked_runs > 0 && fn[i].called;
  }
  struct ctx ctx = {p, fn};

  /* Called functions, most calls first. */
  uint32_t *called = mip_xcalloc(count ? count : 1, sizeof *called);
  size_t ncalled = 0;
  for (size_t i = 0; i < count; i++)
    if (fn[i].called)
      called[ncalled++] = (uint32_t)i;
  qsort_r(called, ncalled, sizeof *called, by_calls, &ctx);

  /* Hot: as a rebuild with the profile decides (mip_hot_threshold). */
  uint64_t *calls = mip_xcalloc(ncalled ? ncalled : 1, sizeof *calls);
  for (size_t k = 0; k < ncalled; k++)
    calls[k] = fn[called[k]].calls;
  uint64_t threshold = mip_hot_threshold(calls, ncalled, o->hot_share, p->runs);
  free(calls);
  size_t nhot = 0;
  while (nhot < ncalled && fn[called[nhot]].calls > 0 &&
         fn[called[nhot]].calls >= threshold)
    nhot++;
  uint32_t *hot = mip_xcalloc(nhot ? nhot : 1, sizeof *hot);
  uint32_t *cluster = mip_xcalloc(nhot ? nhot : 1, sizeof *cluster);
  memcpy(hot, called, nhot * sizeof *hot);
  if (!p->edge_period)
    r->clustering = ORDER_NO_EDGES;
  else if (!p->symbol_count)
    r->clustering = ORDER_NO_SIZES;
  else
    r->clusters = cluster_hot(p, fn, hot, nhot, o->cluster_size, cluster);

  /* The rest of the called ones: ranked by mean rank, then the unranked
   * by calls (already in that order). */
  uint32_t *rest = mip_xcalloc(ncalled - nhot + 1, sizeof *rest);
  size_t nranked = 0, nrest = 0;
  for (size_t k = nhot; k < ncalled; k++)
    if (fn[called[k]].ranked)
      rest[nranked++] = called[k];
  nrest = nranked;
  for (size_t k = nhot; k < ncalled; k++)
    if (!fn[called[k]].ranked)
      rest[nrest++] = called[k];
  qsort_r(rest, nranked, sizeof *rest, by_rank, &ctx);
  size_t nstartup =
      nranked < o->startup_limit ? nranked : (size_t)o->startup_limit;
  r->ranked = has_ranks;

  for (size_t k = 0; k < nstartup; k++)
    place(r, rest[k], ORDER_STARTUP, 0, fn);
  for (size_t k = 0; k < nhot; k++)
    place(r, hot[k], ORDER_HOT, cluster[k], fn);
  for (size_t k = nstartup; k < nrest; k++)
    place(r, rest[k], ORDER_WARM, 0, fn);
  for (size_t i = 0; i < count; i++)
    if (!fn[i].called)
      place(r, (uint32_t)i, ORDER_COLD, 0, fn);

  number_lines(p, r);
  free(rest);
  free(cluster);
  free(hot);
  free(called);
  free(fn);
}

void order_result_free(struct order_result *r) {
  free(r->entries);
  memset(r, 0, sizeof *r);
}
