/*
 * Call edges and statistics of a pooled file. An edge is a (call site,
 * callee) pair of link-time addresses, the same in every run, so edges
 * of the file and of this run with the same pair become one, their
 * samples summed (saturating, as `mipdata merge` sums them). Statistics
 * combine by MIP_STAT_TAKES_MAX: the largest value for the edge period
 * and the stack depth limit, the sum for the rest; a key this runtime
 * does not know cannot come from a run of this image.
 */
#include "merge.h"
#include "mip/layouts.h"

static uint64_t add_saturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static int bad(struct mip_rt_merge *m, const char *what) {
  return mip_rt_why_set(&m->why, "it is not a valid raw profile (", what, ")",
                        NULL);
}

/* The entries of a payload of kind in v, each of size bytes: their number,
 * or -1 when the payload has entries of another size. */
static int64_t entries(struct mip_rt_merge *m, const struct mip_rt_view *v,
                       uint32_t kind, uint32_t size,
                       const struct mip_rt_section **s) {
  *s = mip_rt_view_find(v, kind);
  if (!*s)
    return 0;
  if ((*s)->elem_size != size)
    return bad(m, kind == MIP_RAW_EDGES ? "bad edge entries"
                                        : "bad statistics entries");
  return (int64_t)((*s)->size / size);
}

/* ---- edges ------------------------------------------------------------- */

struct edge_table {
  uint8_t *entries; /* raw_edge entries, in the order first seen */
  uint64_t count;
  uint32_t *slots; /* entry + 1; 0: free */
  uint64_t mask;
};

static void add_edge(struct edge_table *t, const uint8_t *entry) {
  struct mip_rec_raw_edge e;
  mip_rec_raw_edge_decode(&e, entry);
  uint64_t at = mip_rt_mix(mip_rt_mix(0, e.site), e.callee);
  for (;; at++) {
    uint32_t *slot = &t->slots[at & t->mask];
    if (!*slot) {
      mip_rec_raw_edge_encode(&e, t->entries + t->count * mip_rec_raw_edge_size);
      *slot = (uint32_t)++t->count;
      return;
    }
    uint8_t *found = t->entries + (*slot - 1) * (uint64_t)mip_rec_raw_edge_size;
    struct mip_rec_raw_edge f;
    mip_rec_raw_edge_decode(&f, found);
    if (f.site == e.site && f.callee == e.callee) {
      f.samples = add_saturating(f.samples, e.samples);
      mip_rec_raw_edge_encode(&f, found);
      return;
    }
  }
}

int mip_rt_merge_edges(struct mip_rt_merge *m) {
  const struct mip_rt_section *old, *run;
  int64_t n_old = entries(m, &m->old, MIP_RAW_EDGES, mip_rec_raw_edge_size, &old);
  int64_t n_run = entries(m, &m->run, MIP_RAW_EDGES, mip_rec_raw_edge_size, &run);
  if (n_old < 0 || n_run < 0)
    return -1;
  uint64_t total = (uint64_t)n_old + (uint64_t)n_run;
  if (!total)
    return 0;
  if (total >= UINT32_MAX / 2)
    return bad(m, "too many edges");
  struct edge_table t = {NULL, 0, NULL, 1};
  while (t.mask < 2 * total)
    t.mask <<= 1;
  t.slots = mip_rt_arena_alloc(&m->arena, 4 * t.mask);
  t.mask--;
  t.entries = mip_rt_merge_payload(m, MIP_RAW_EDGES, mip_rec_raw_edge_size, 0,
                                   total * mip_rec_raw_edge_size);
  if (!t.slots || !t.entries)
    return mip_rt_why_set(&m->why, "no memory for the merge", NULL);
  for (int64_t i = 0; i < n_old; i++)
    add_edge(&t, old->data + (uint64_t)i * mip_rec_raw_edge_size);
  for (int64_t i = 0; i < n_run; i++)
    add_edge(&t, run->data + (uint64_t)i * mip_rec_raw_edge_size);
  m->out[m->out_count - 1].size = t.count * mip_rec_raw_edge_size;
  return 0;
}

/* ---- statistics -------------------------------------------------------- */

#define MAX_KEY MIP_STAT_HEAP_LIVE_UNINTERPOSED

struct stats {
  int seen[MAX_KEY + 1];
  uint64_t value[MAX_KEY + 1];
};

static int add_stats(struct mip_rt_merge *m, struct stats *st,
                     const struct mip_rt_view *v) {
  const struct mip_rt_section *s;
  int64_t n = entries(m, v, MIP_RAW_STATS, mip_rec_raw_stat_size, &s);
  for (int64_t i = 0; i < n; i++) {
    struct mip_rec_raw_stat e;
    mip_rec_raw_stat_decode(&e, s->data + (uint64_t)i * mip_rec_raw_stat_size);
    if (e.key == 0 || e.key > MAX_KEY)
      return mip_rt_why_set(&m->why, "it holds statistics this runtime does "
                                     "not know (another build?)", NULL);
    uint64_t *to = &st->value[e.key];
    if (MIP_STAT_TAKES_MAX(e.key))
      *to = e.value > *to ? e.value : *to;
    else
      *to = add_saturating(*to, e.value);
    st->seen[e.key] = 1;
  }
  return n < 0 ? -1 : 0;
}

int mip_rt_merge_stats(struct mip_rt_merge *m) {
  struct stats st;
  for (uint32_t k = 0; k <= MAX_KEY; k++)
    st.seen[k] = 0, st.value[k] = 0;
  if (add_stats(m, &st, &m->old) || add_stats(m, &st, &m->run))
    return -1;
  uint64_t n = 0;
  for (uint32_t k = 1; k <= MAX_KEY; k++)
    n += (uint64_t)st.seen[k];
  if (!n)
    return 0;
  uint8_t *out = mip_rt_merge_payload(m, MIP_RAW_STATS, mip_rec_raw_stat_size,
                                      0, n * mip_rec_raw_stat_size);
  if (!out)
    return -1;
  for (uint32_t k = 1; k <= MAX_KEY; k++) {
    if (!st.seen[k])
      continue;
    struct mip_rec_raw_stat e = {k, 0, st.value[k]};
    mip_rec_raw_stat_encode(&e, out);
    out += mip_rec_raw_stat_size;
  }
  return 0;
}
