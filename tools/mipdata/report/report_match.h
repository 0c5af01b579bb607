/*
 * Matching the entities of two profiles by their keys (docs/report.md
 * "Keys"), never by index or address: what diff compares, and what a
 * differential flame graph will draw. Functions, sites or contexts of a
 * base and a new profile go into groups:
 *   1. an entity and the other side's entity with the same fine key
 *      (function, file, line, column) make a group of two (or, when
 *      contexts are keyed by their image's frames alone, every context
 *      of either side with that key make one);
 *   2. then, unless only lines match (REPORT_MATCH_LINES), the rest
 *      group by coarse key (lines left out), a group holding every
 *      entity of either side with that key: several contexts that an
 *      edit can no longer tell apart are summed, once each;
 *   3. what is left is a group of one side only: vanished (base) or new.
 * Every entity of both profiles is in exactly one group.
 */
#ifndef MIPDATA_REPORT_MATCH_H
#define MIPDATA_REPORT_MATCH_H

#include <stddef.h>

#include "report.h"

enum report_entity { REPORT_FUNCTIONS, REPORT_SITES, REPORT_CONTEXTS };

enum report_match_mode {
  REPORT_MATCH_SOURCE, /* fine keys, then coarse keys (the default) */
  REPORT_MATCH_LINES,  /* fine keys only: a moved line no longer matches */
};

/* NULL-terminated, in enum order ("source", "lines"): for OPT_CHOICE. */
extern const char *const report_match_names[];

enum report_side { REPORT_BASE, REPORT_NEW, REPORT_SIDES };

struct report_match_group {
  const char *key;     /* the key the group shares (a member's) */
  enum report_key by;  /* REPORT_FINE or REPORT_COARSE */
  size_t first[REPORT_SIDES]; /* its members: count[s] indices into */
  size_t count[REPORT_SIDES]; /* report_match.members from first[s] */
};

struct report_match {
  enum report_entity entity;
  /* In the order of their first member of base, then (groups of new
   * only) of new: the profiles' orders. */
  struct report_match_group *groups;
  size_t group_count;
  size_t *members; /* entity indices in their profile, in its order */
  /* Entities (of each side) in a group with the other side. */
  size_t matched[REPORT_SIDES];
  /* Entities (of each side) summed with others of their side under one
   * coarse key. */
  size_t collapsed[REPORT_SIDES];
  size_t total[REPORT_SIDES]; /* entities of each side */
};

/* Groups the entities of base and cur (docs above); m is freed with
 * report_match_free. */
void report_match(struct report_match *m, const struct report *base,
                  const struct report *cur, enum report_entity what,
                  enum report_match_mode mode);
void report_match_free(struct report_match *m);

/* A group's i-th member of side s (i < g->count[s]). */
static inline size_t report_match_member(const struct report_match *m,
                                         const struct report_match_group *g,
                                         enum report_side s, size_t i) {
  return m->members[g->first[s] + i];
}

/* Has members on both sides. */
static inline int report_match_paired(const struct report_match_group *g) {
  return g->count[REPORT_BASE] && g->count[REPORT_NEW];
}

/* How many entities of one kind r has, and one's key. */
size_t report_entity_count(const struct report *r, enum report_entity what);
const char *report_entity_key(const struct report *r, enum report_entity what,
                              size_t i, enum report_key kind);

#endif
