/* Matching two profiles' entities by key (report_match.h). */
#include "report_match.h"

#include <stdint.h>
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

/* Where each entity goes, as matching finds it: its group. */
struct building {
  struct report_match *m;
  size_t *group_of[REPORT_SIDES]; /* SIZE_MAX: none yet */
  size_t cap;
};

static size_t new_group(struct building *b, const char *key,
                        enum report_key by) {
  struct report_match *m = b->m;
  if (m->group_count == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    m->groups = mip_xrealloc(m->groups, b->cap, sizeof *m->groups);
  }
  m->groups[m->group_count] =
      (struct report_match_group){key, by, {0, 0}, {0, 0}};
  return m->group_count++;
}

static void join(struct building *b, size_t group, enum report_side s,
                 size_t i) {
  b->group_of[s][i] = group;
  b->m->groups[group].count[s]++;
}

/* Pass 1: the entities of both sides with one fine key make a group. Fine
 * keys are unique in a profile (a group of two), but for contexts keyed
 * by their image's frames alone (report.h, image_frames_only), which
 * several contexts of a profile can share: they are summed. Base's
 * entities of each key are chained, head first, through next. */
static void pair_fine(struct building *b,
                      const struct report *const r[REPORT_SIDES],
                      enum report_entity what) {
  struct report_key_index base;
  report_key_index_init(&base);
  size_t *next = mip_xcalloc(b->m->total[REPORT_BASE] + 1, sizeof *next);
  for (size_t i = 0; i < b->m->total[REPORT_BASE]; i++) {
    int found;
    size_t *head = report_key_index_get(
        &base, report_entity_key(r[REPORT_BASE], what, i, REPORT_FINE), i,
        &found);
    next[i] = found ? *head : SIZE_MAX;
    *head = i;
  }
  for (size_t i = 0; i < b->m->total[REPORT_NEW]; i++) {
    const char *key = report_entity_key(r[REPORT_NEW], what, i, REPORT_FINE);
    const size_t *head = report_key_index_find(&base, key);
    if (!head)
      continue;
    size_t g = b->group_of[REPORT_BASE][*head];
    if (g == SIZE_MAX) {
      g = new_group(b, key, REPORT_FINE);
      for (size_t k = *head; k != SIZE_MAX; k = next[k])
        join(b, g, REPORT_BASE, k);
    }
    join(b, g, REPORT_NEW, i);
  }
  free(next);
  report_key_index_free(&base);
}

/* Pass 2: what is left, one group per coarse key of either side (or,
 * matching lines only, one group each, under its fine key). */
static void group_rest(struct building *b,
                       const struct report *const r[REPORT_SIDES],
                       enum report_entity what, enum report_match_mode mode) {
  enum report_key kind =
      mode == REPORT_MATCH_LINES ? REPORT_FINE : REPORT_COARSE;
  struct report_key_index groups;
  report_key_index_init(&groups);
  for (int s = 0; s < REPORT_SIDES; s++)
    for (size_t i = 0; i < b->m->total[s]; i++) {
      if (b->group_of[s][i] != SIZE_MAX)
        continue;
      const char *key = report_entity_key(r[s], what, i, kind);
      int found = 0;
      size_t g = mode == REPORT_MATCH_LINES
                     ? SIZE_MAX
                     : *report_key_index_get(&groups, key, b->m->group_count,
                                             &found);
      if (!found)
        g = new_group(b, key, kind);
      join(b, g, (enum report_side)s, i);
    }
  report_key_index_free(&groups);
}

/* Each group's members, side by side, in profile order; groups in the
 * order of their first base member, then of their first new member. */
static void lay_out(struct building *b) {
  struct report_match *m = b->m;
  size_t n = m->total[REPORT_BASE] + m->total[REPORT_NEW];
  size_t *order = mip_xcalloc(m->group_count + 1, sizeof *order);
  size_t *renumber = mip_xcalloc(m->group_count + 1, sizeof *renumber);
  size_t placed = 0;
  for (int s = 0; s < REPORT_SIDES; s++)
    for (size_t i = 0; i < m->total[s]; i++) {
      size_t g = b->group_of[s][i];
      if (!renumber[g]) {
        renumber[g] = ++placed;
        order[placed - 1] = g;
      }
    }
  struct report_match_group *groups =
      mip_xcalloc(m->group_count + 1, sizeof *groups);
  size_t at = 0;
  for (size_t k = 0; k < m->group_count; k++) {
    groups[k] = m->groups[order[k]];
    for (int s = 0; s < REPORT_SIDES; s++) {
      groups[k].first[s] = at;
      at += groups[k].count[s];
      groups[k].count[s] = 0;
    }
  }
  m->members = mip_xcalloc(n + 1, sizeof *m->members);
  for (int s = 0; s < REPORT_SIDES; s++)
    for (size_t i = 0; i < m->total[s]; i++) {
      struct report_match_group *g = &groups[renumber[b->group_of[s][i]] - 1];
      m->members[g->first[s] + g->count[s]++] = i;
    }
  free(m->groups);
  m->groups = groups;
  free(order);
  free(renumber);
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
  const struct report *const r[REPORT_SIDES] = {base, cur};
  memset(m, 0, sizeof *m);
  m->entity = what;
  struct building b = {m, {NULL, NULL}, 0};
  for (int s = 0; s < REPORT_SIDES; s++) {
    m->total[s] = report_entity_count(r[s], what);
    b.group_of[s] = mip_xcalloc(m->total[s] + 1, sizeof *b.group_of[s]);
    for (size_t i = 0; i < m->total[s]; i++)
      b.group_of[s][i] = SIZE_MAX;
  }
  pair_fine(&b, r, what);
  group_rest(&b, r, what, mode);
  lay_out(&b);
  count_members(m);
  for (int s = 0; s < REPORT_SIDES; s++)
    free(b.group_of[s]);
}

void report_match_free(struct report_match *m) {
  free(m->groups);
  free(m->members);
  memset(m, 0, sizeof *m);
}
