/* Hot and cold: what a rebuild with the profile decides, defined once for the compiler and mipdata.
 * Part of libmipfmt's interface: include "mipfmt.h", which includes every
 * part in order. */
#ifndef MIPFMT_DECIDE_H
#define MIPFMT_DECIDE_H

/* ---- hot and cold: what a rebuild with the profile decides -------------
 * One definition for the compiler (-fmip-use), `mipdata annotate` and
 * `mipdata order` (docs/use.md gives the rules). */

/* The settings of mip/decide.inc: hot functions are the most-called ones
 * that together make hot_share of all calls, with every function called
 * as often as the last of them. Allocation contexts follow MemProf's
 * rules: cold when the average lifetime access density (accesses per byte
 * per second of lifetime) is below cold_max_density and the average
 * lifetime is at least cold_min_lifetime seconds; else hot when that
 * density is above hot_min_density; else notcold. */
struct mip_decide_options {
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  double field;
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
};

/* The settings by index (MIP_DECIDE_HOT_SHARE, ...). */
enum mip_decide_setting {
#define MIP_DECIDE_SETTING(NAME, field, key, unit, def, min, max, help)       \
  MIP_DECIDE_##NAME,
#include "mip/decide.inc"
#undef MIP_DECIDE_SETTING
  MIP_DECIDE_SETTINGS
};

void mip_decide_defaults(struct mip_decide_options *o);

/* The fewest calls a hot function has, from every function's calls in
 * runs merged runs (sorted in place, most first); UINT64_MAX when nothing
 * is hot. The most-called functions that make share of all calls are hot,
 * but never one called once per run or less: in a flat profile (start-up
 * code, each function called once) nothing is hot. */
uint64_t mip_hot_threshold(uint64_t *calls, size_t count, double share,
                           uint64_t runs);
/* The same over the functions of a profile; UINT64_MAX without counts. */
int mip_view_hot_threshold(const struct mip_view *v, double share,
                           uint64_t *threshold, struct mip_error *err);

enum mip_temperature {
  MIP_TEMP_UNKNOWN, /* no runs merged: nothing to decide */
  MIP_TEMP_COLD,    /* never ran in any merged run */
  MIP_TEMP_WARM,    /* ran, not hot */
  MIP_TEMP_HOT,     /* among the hot functions (needs call counts) */
};

const char *mip_temperature_name(enum mip_temperature t); /* "cold", ... */

enum mip_temperature mip_function_temperature(
    const struct mip_profile_function *f, uint64_t runs, uint64_t threshold);

/* Global variables (data mode): the most-accessed ones that make share of
 * all accesses are hot (mip_hot_threshold over their accesses); one that
 * no run accessed is cold, unless its address escapes (MIP_DATA_ESCAPES:
 * accesses through pointers are not counted); the rest are warm. The
 * threshold: the fewest accesses of a hot one, UINT64_MAX for none. */
uint64_t mip_data_hot_threshold(const struct mip_data_object *data,
                                size_t count, double share, uint64_t runs);
enum mip_temperature mip_data_temperature(const struct mip_data_object *d,
                                          uint64_t runs, uint64_t threshold);

enum mip_alloc_class {
  MIP_CLASS_NOTCOLD,
  MIP_CLASS_COLD,
  MIP_CLASS_HOT,
  MIP_CLASS_COUNT
};

const char *mip_alloc_class_name(enum mip_alloc_class c); /* "notcold", ... */

/* What a context's MemInfoBlock averages to (0 without allocations). */
struct mip_alloc_stats {
  uint64_t allocs;
  uint64_t bytes;
  double lifetime;      /* mean seconds a block lived */
  double density;       /* mean accesses per byte per second of lifetime */
};

void mip_mib_stats(const struct mip_mib *m, struct mip_alloc_stats *s);
enum mip_alloc_class mip_mib_class(const struct mip_mib *m,
                                   const struct mip_decide_options *o);
/* mip_mib_class of a context of v's; notcold for all when v's build
 * counted no accesses (heap-allocs), whose densities are all 0: hot and
 * cold are told by density. */
enum mip_alloc_class mip_view_context_class(const struct mip_view *v,
                                            const struct mip_mib *m,
                                            const struct mip_decide_options *o);

/* An allocation site's class over its contexts: their common class, or
 * notcold when they disagree (mixed). Counts per class, and the site's
 * totals, in the other fields. */
struct mip_site_decision {
  enum mip_alloc_class alloc_class;
  int mixed;
  uint64_t contexts[MIP_CLASS_COUNT]; /* contexts of each class */
  struct mip_alloc_stats total;       /* over all its contexts */
};

/*
 * Which class of a mixed site's contexts gets clones of its own at a -flto
 * link (docs/use.md, "Wrappers and LTO"): LLVM's context disambiguation
 * tells two kinds of contexts apart, so the contexts of this class are
 * cloned and hinted, and every other context keeps the original call,
 * unhinted. Cold when any context is cold, else hot; notcold when no
 * context is either (nothing to clone). contexts[] is a site decision's.
 */
enum mip_alloc_class mip_cloned_class(const uint64_t contexts[MIP_CLASS_COUNT]);

/* Decides heap site site (an index in HEAP_SITES); returns 0, or -1 for a
 * corrupt profile. A site with no allocation decides notcold with no
 * contexts. */
int mip_view_site_decision(const struct mip_view *v, uint32_t site,
                           const struct mip_decide_options *o,
                           struct mip_site_decision *d,
                           struct mip_error *err);

/* Whether allocator (MIP_ALLOC_*) allocates, so a hint could apply. */
int mip_allocator_allocates(uint32_t allocator);
/* "malloc", "operator new[]", ...; NULL for a kind this build does not
 * know. */
const char *mip_allocator_name(uint32_t allocator);

/* How many allocation sites of the profile decide cold or hot, so that a
 * rebuild hints their calls; -1 for a corrupt profile. */
int64_t mip_view_hinted_sites(const struct mip_view *v,
                              const struct mip_decide_options *o,
                              struct mip_error *err);
/* How many have contexts that disagree, cold or hot ones among them:
 * reached through a wrapper, a -flto rebuild clones it for those
 * (mip_cloned_class; docs/use.md, "Wrappers and LTO"); -1 for a corrupt
 * profile. */
int64_t mip_view_wrapper_sites(const struct mip_view *v,
                               const struct mip_decide_options *o,
                               struct mip_error *err);

#endif
