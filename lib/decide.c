/*
 * What a rebuild with a profile decides: which functions are hot or cold,
 * and which allocation sites get a hot or cold hint. The compiler's
 * profile-use pass, `mipdata annotate` and `mipdata order` all decide
 * here, so they never disagree. The rules are in docs/use.md.
 */
#include <stdlib.h>

#include "mipfmt.h"

typedef unsigned __int128 u128;

void mip_decide_defaults(struct mip_decide_options *o) {
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  o->field = def;
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
}

/* ---- functions ------------------------------------------------------- */

static int most_first(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

uint64_t mip_hot_threshold(uint64_t *calls, size_t count, double share,
                           uint64_t runs) {
  qsort(calls, count, sizeof *calls, most_first);
  u128 total = 0;
  for (size_t i = 0; i < count; i++)
    total += calls[i];
  if (total == 0 || !(share > 0)) /* NaN too */
    return UINT64_MAX;
  /* The shortest prefix whose calls reach share of the total, in integers
   * (share in parts per billion), so that exactly 90% is exactly enough.
   * Any share above 0 makes at least the most-called function hot, however
   * small it is. */
  const u128 billion = 1000000000u;
  u128 want = (u128)((long double)(share > 1 ? 1 : share) * 1e9L + 0.5L);
  if (want == 0)
    want = 1;
  u128 sum = 0;
  size_t n = 0;
  while (n < count && calls[n] > 0 && sum * billion < want * total)
    sum += calls[n++];
  if (!n)
    return UINT64_MAX;
  /* Hot means called again and again; n > 0, so calls[n - 1] > 0. */
  uint64_t floor = runs == UINT64_MAX ? UINT64_MAX : runs + 1;
  return calls[n - 1] > floor ? calls[n - 1] : floor;
}

int mip_view_hot_threshold(const struct mip_view *v, double share,
                           uint64_t *threshold, struct mip_error *err) {
  *threshold = UINT64_MAX;
  if (!(v->modes & MIP_MODE_BIT(MIP_RAW_CNT)))
    return 0;
  size_t count = mip_view_count(v, MIP_PROF_FUNCTIONS);
  uint64_t *calls = mip_xcalloc(count ? count : 1, sizeof *calls);
  for (size_t i = 0; i < count; i++) {
    struct mip_profile_function f;
    if (mip_view_function(v, i, &f, err)) {
      free(calls);
      return -1;
    }
    calls[i] = f.cnt_offset != MIP_NO_OFFSET ? f.calls : 0;
  }
  *threshold = mip_hot_threshold(calls, count, share, v->runs);
  free(calls);
  return 0;
}

const char *mip_temperature_name(enum mip_temperature t) {
  static const char *const names[] = {"unknown", "cold", "warm", "hot"};
  return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

enum mip_temperature mip_function_temperature(
    const struct mip_profile_function *f, uint64_t runs, uint64_t threshold) {
  if (runs == 0)
    return MIP_TEMP_UNKNOWN;
  uint64_t calls = f->cnt_offset != MIP_NO_OFFSET ? f->calls : 0;
  if (f->covered_runs == 0 && calls == 0)
    return MIP_TEMP_COLD;
  if (f->cnt_offset != MIP_NO_OFFSET && calls > 0 && calls >= threshold)
    return MIP_TEMP_HOT;
  return MIP_TEMP_WARM;
}

/* ---- allocations ------------------------------------------------------- */

const char *mip_alloc_class_name(enum mip_alloc_class c) {
  static const char *const names[] = {"notcold", "cold", "hot"};
  return (unsigned)c < MIP_CLASS_COUNT ? names[c] : "?";
}

int mip_allocator_allocates(uint32_t allocator) {
  switch (allocator) {
#define MIP_ALLOCATOR(id, NAME, name, frees, c, hook, ptr, size, factor)      \
  case id:                                                                     \
    return !(frees);
#include "mip/allocators.inc"
#undef MIP_ALLOCATOR
  }
  return 0;
}

const char *mip_allocator_name(uint32_t allocator) {
  switch (allocator) {
#define MIP_ALLOCATOR(id, NAME, name, frees, c, hook, ptr, size, factor)      \
  case id:                                                                     \
    return name;
#include "mip/allocators.inc"
#undef MIP_ALLOCATOR
  }
  return NULL;
}

/* MemProf's units: lifetimes in ms, densities times 100 (two decimals). */
void mip_mib_stats(const struct mip_mib *m, struct mip_alloc_stats *s) {
  uint64_t n = m->v[MIP_MIBI_AllocCount];
  s->allocs = n;
  s->bytes = m->v[MIP_MIBI_TotalSize];
  s->lifetime = n ? (double)m->v[MIP_MIBI_TotalLifetime] / (double)n / 1000
                  : 0;
  s->density =
      n ? (double)m->v[MIP_MIBI_TotalLifetimeAccessDensity] / (double)n / 100
        : 0;
}

enum mip_alloc_class mip_mib_class(const struct mip_mib *m,
                                   const struct mip_decide_options *o) {
  struct mip_alloc_stats s;
  mip_mib_stats(m, &s);
  if (!s.allocs)
    return MIP_CLASS_NOTCOLD;
  if (s.density < o->cold_max_density && s.lifetime >= o->cold_min_lifetime)
    return MIP_CLASS_COLD;
  if (s.density > o->hot_min_density)
    return MIP_CLASS_HOT;
  return MIP_CLASS_NOTCOLD;
}

enum mip_alloc_class
mip_cloned_class(const uint64_t contexts[MIP_CLASS_COUNT]) {
  /* Cold before hot: a cold block in the default arena dilutes the pages
   * of every other, a hot block there only misses being packed. */
  if (contexts[MIP_CLASS_COLD])
    return MIP_CLASS_COLD;
  return contexts[MIP_CLASS_HOT] ? MIP_CLASS_HOT : MIP_CLASS_NOTCOLD;
}

/* Whether v's build counted no accesses (heap-allocs). */
static int view_uncounted(const struct mip_view *v) {
  uint64_t uncounted = 0;
  mip_view_stat(v, MIP_STAT_HEAP_UNCOUNTED, &uncounted);
  return uncounted != 0;
}

enum mip_alloc_class mip_view_context_class(const struct mip_view *v,
                                            const struct mip_mib *m,
                                            const struct mip_decide_options *o) {
  return view_uncounted(v) ? MIP_CLASS_NOTCOLD : mip_mib_class(m, o);
}

int mip_view_site_decision(const struct mip_view *v, uint32_t site,
                           const struct mip_decide_options *o,
                           struct mip_site_decision *d,
                           struct mip_error *err) {
  *d = (struct mip_site_decision){.alloc_class = MIP_CLASS_NOTCOLD};
  struct mip_mib total = {{0}};
  int any = 0, uncounted = view_uncounted(v);
  uint64_t first, n = mip_view_site_contexts(v, site, &first);
  for (uint64_t i = first; i < first + n; i++) {
    struct mip_heap_context c;
    if (mip_view_heap_context(v, i, &c, err))
      return -1;
    if (!c.mib.v[MIP_MIBI_AllocCount])
      continue;
    d->contexts[uncounted ? MIP_CLASS_NOTCOLD : mip_mib_class(&c.mib, o)]++;
    if (any)
      mip_mib_merge(&total, &c.mib);
    else
      total = c.mib;
    any = 1;
  }
  mip_mib_stats(&total, &d->total);
  int classes = 0;
  for (int k = 0; k < MIP_CLASS_COUNT; k++)
    if (d->contexts[k]) {
      classes++;
      d->alloc_class = (enum mip_alloc_class)k;
    }
  if (classes > 1) {
    d->mixed = 1;
    d->alloc_class = MIP_CLASS_NOTCOLD;
  }
  return 0;
}

/* The allocation sites whose decision counts. */
static int64_t count_sites(const struct mip_view *v,
                           const struct mip_decide_options *o,
                           int (*counts)(const struct mip_site_decision *),
                           struct mip_error *err) {
  int64_t found = 0;
  uint64_t n = mip_view_count(v, MIP_PROF_HEAP_SITES);
  for (uint64_t i = 0; i < n; i++) {
    struct mip_heap_site s;
    struct mip_site_decision d;
    if (mip_view_heap_site(v, i, &s, err) ||
        mip_view_site_decision(v, (uint32_t)i, o, &d, err))
      return -1;
    found += mip_allocator_allocates(s.allocator) && counts(&d);
  }
  return found;
}

static int hinted(const struct mip_site_decision *d) {
  return d->alloc_class != MIP_CLASS_NOTCOLD;
}

static int cloned_at_link(const struct mip_site_decision *d) {
  return d->mixed && mip_cloned_class(d->contexts) != MIP_CLASS_NOTCOLD;
}

int64_t mip_view_hinted_sites(const struct mip_view *v,
                              const struct mip_decide_options *o,
                              struct mip_error *err) {
  return count_sites(v, o, hinted, err);
}

int64_t mip_view_wrapper_sites(const struct mip_view *v,
                               const struct mip_decide_options *o,
                               struct mip_error *err) {
  return count_sites(v, o, cloned_at_link, err);
}
