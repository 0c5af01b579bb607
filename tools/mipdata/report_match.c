/* Matching two profiles' entities by key (report_match.h). */
#include "report_match.h"

#include <stdlib.h>
#include <string.h>

const char *const report_match_names[] = {"source", "lines", NULL};

size_t report_entity_count(const struct report *r, enum report_entity what) {
  return what == REPORT_FUNCTIONS ? r->function_count
         : what == REPORT_SITES   ? r->site_count
                                  : r->context_count;
}

const char *report_entity_key(const struct report *r, enum report_entity what,
                              size_t i, enum report_key kind) {
  return what == REPORT_FUNCTIONS ? r->functions[i].key[kind]
         : what == REPORT_SITES   ? r->sites[i].key[kind]
                                  : r->contexts[i].key[kind];
}

/* One entity of either side, under one of its keys. */
struct keyed {
  const char *key;
  size_t index;
  enum report_side side;
};

static int by_key_side_index(const void *a, const void *b) {
  const struct keyed *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  if (c)
    return c;
  if (x->side != y->side)
    return (int)x->side - (int)y->side;
  return (x->index > y->index) - (x->index < y->index);
}

/* The groups as they are made: a run of sorted entries. */
struct building {
  struct report_match *m;
  struct keyed *members; /* every group's, group after group */
  size_t member_count;
  size_t cap;
};

static void add_group(struct building *b, const struct keyed *run, size_t n,
                      enum report_key by) {
  struct report_match *m = b->m;
  if (m->group_count == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    m->groups = mip_xrealloc(m->groups, b->cap, sizeof *m->groups);
  }
  struct report_match_group *g = &m->groups[m->group_count++];
  *g = (struct report_match_group){run[0].key, by, {0, 0}, {0, 0}};
  /* Base members come first in a sorted run. */
  g->first[REPORT_BASE] = b->member_count;
  for (size_t i = 0; i < n; i++) {
    if (run[i].side == REPORT_NEW && !g->count[REPORT_NEW])
      g->first[REPORT_NEW] = b->member_count;
    g->count[run[i].side]++;
    b->members[b->member_count++] = run[i];
  }
  if (!g->count[REPORT_NEW])
    g->first[REPORT_NEW] = b->member_count;
}

static size_t run_length(const struct keyed *k, size_t n, size_t at) {
  size_t end = at + 1;
  while (end < n && !strcmp(k[end].key, k[at].key))
    end++;
  return end - at;
}

/* Pass 1: pairs of equal fine keys become groups; the others are moved
 * to the front of k, and their count returned. */
static size_t pair_fine(struct building *b, struct keyed *k, size_t n) {
  size_t left = 0;
  for (size_t at = 0; at < n;) {
    size_t len = run_length(k, n, at);
    /* Fine keys are unique in a profile: a run is one of each side. */
    if (len == 2 && k[at].side != k[at + 1].side)
      add_group(b, &k[at], 2, REPORT_FINE);
    else
      for (size_t i = 0; i < len; i++)
        k[left++] = k[at + i];
    at += len;
  }
  return left;
}

/* Pass 2: what is left, one group per coarse key (or, matching lines
 * only, one group each). */
static void group_rest(struct building *b, struct keyed *k, size_t n,
                       const struct report *const r[REPORT_SIDES],
                       enum report_entity what, enum report_match_mode mode) {
  if (mode == REPORT_MATCH_LINES) {
    for (size_t i = 0; i < n; i++)
      add_group(b, &k[i], 1, REPORT_FINE);
    return;
  }
  for (size_t i = 0; i < n; i++)
    k[i].key = report_entity_key(r[k[i].side], what, k[i].index,
                                 REPORT_COARSE);
  qsort(k, n, sizeof *k, by_key_side_index);
  for (size_t at = 0; at < n;) {
    size_t len = run_length(k, n, at);
    add_group(b, &k[at], len, REPORT_COARSE);
    at += len;
  }
}

static int by_group_key(const void *a, const void *b) {
  const struct report_match_group *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : (int)x->by - (int)y->by;
}

static void count_members(struct report_match *m) {
  for (size_t i = 0; i < m->group_count; i++) {
    const struct report_match_group *g = &m->groups[i];
    for (int s = 0; s < REPORT_SIDES; s++) {
      if (report_match_paired(g))
        m->matched[s] += g->count[s];
      if (g->count[s] > 1)
        m->collapsed[s] += g->count[s];
    }
  }
}

void report_match(struct report_match *m, const struct report *base,
                  const struct report *cur, enum report_entity what,
                  enum report_match_mode mode) {
  const struct report *r[REPORT_SIDES] = {base, cur};
  memset(m, 0, sizeof *m);
  m->entity = what;
  size_t n = 0;
  for (int s = 0; s < REPORT_SIDES; s++)
    n += m->total[s] = report_entity_count(r[s], what);
  struct keyed *k = mip_xcalloc(n + 1, sizeof *k);
  size_t at = 0;
  for (int s = 0; s < REPORT_SIDES; s++)
    for (size_t i = 0; i < m->total[s]; i++)
      k[at++] = (struct keyed){report_entity_key(r[s], what, i, REPORT_FINE),
                               i, (enum report_side)s};
  qsort(k, n, sizeof *k, by_key_side_index);
  struct building b = {m, mip_xcalloc(n + 1, sizeof *b.members), 0, 0};
  size_t left = pair_fine(&b, k, n);
  group_rest(&b, k, left, r, what, mode);
  qsort(m->groups, m->group_count, sizeof *m->groups, by_group_key);
  m->members = mip_xcalloc(n + 1, sizeof *m->members);
  for (size_t i = 0; i < n; i++)
    m->members[i] = b.members[i].index;
  count_members(m);
  free(b.members);
  free(k);
}

void report_match_free(struct report_match *m) {
  free(m->groups);
  free(m->members);
  memset(m, 0, sizeof *m);
}
