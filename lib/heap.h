/* Heap profiles inside libmipfmt: what profile_build.c, profile_io.c and
 * profile_merge.c ask of heap_profile.c. Not part of the library's
 * interface (mipfmt.h). */
#ifndef MIP_LIB_HEAP_H
#define MIP_LIB_HEAP_H

#include "mipfmt.h"

/* The map's heap sites into a new profile, after its functions (sorted)
 * and their strings; sets heap_strings_at. */
void mip_heap_sites_from_map(const struct mip_map *map, struct mip_profile *p);

/* The heap part of one run. Fails only before it changes anything: when
 * the raw profile has heap data and no symbolizer is given, or when a
 * context names a site of the profile's image that the map lacks. */
int mip_heap_add_raw(struct mip_profile *p, const struct mip_raw *raw,
                     const char *raw_path,
                     const struct mip_symbolizer *symbolizer,
                     struct mip_error *err);

/* Whether two profiles of one build have the same heap sites. */
int mip_heap_same_sites(const struct mip_profile *a,
                        const struct mip_profile *b);
/* Whether heap data at rate (heap_sample, 0: exact; has_heap: any) may
 * join p: sampled and exact runs mix only when p->heap_mix_sampled says
 * so; else -1 and err says why. */
int mip_heap_sampling_check(const struct mip_profile *p, uint64_t rate,
                            int has_heap, const char *path,
                            struct mip_error *err);
/* The heap part of another profile of the same build (same sites). */
void mip_heap_add_profile(struct mip_profile *p,
                          const struct mip_profile *other);

/* Puts frames, strings and contexts in their one canonical form: frames
 * unique and sorted, their strings sorted after heap_strings_at, unused
 * frames dropped, contexts unique by (site, frames) and sorted, stacks in
 * context order. Does nothing without heap data. */
void mip_heap_normalize(struct mip_profile *p);

void mip_heap_free(struct mip_profile *p);

/* ---- heap_timeline.c ---- */

/* A pooled raw profile's PEAKS payload s (NULL: none), after its
 * TIMELINE, checked. */
int mip_raw_heap_peaks_parse(struct mip_raw_heap *heap,
                             const struct mip_raw_payload *s,
                             const char *path, struct mip_error *err);

/* The TIMELINE payload s (NULL: none) into heap, checked. */
int mip_raw_heap_timeline_parse(struct mip_raw_heap *heap,
                                const struct mip_raw_payload *s,
                                const char *path, struct mip_error *err);

/* Whose at-peak values a merge keeps (mip_heap_peaks_add). */
enum {
  MIP_HEAP_PEAK_NONE,   /* the other side has no peak: both are summed */
  MIP_HEAP_PEAK_OURS,   /* the profile's: the other's are cleared */
  MIP_HEAP_PEAK_THEIRS, /* the other's: the profile's were cleared */
};
/* Adds another run's (or profile's) peaks, highest first, and keeps the
 * timeline of the highest; call before adding its contexts. */
int mip_heap_peaks_add(struct mip_profile *p, const struct mip_heap_peak *peaks,
                       size_t peak_count, const struct mip_heap_point *points,
                       size_t point_count);
/* A MemInfoBlock without its at-peak values (another run's peak). */
void mip_heap_at_peak_clear(struct mip_mib *m);
void mip_heap_peaks_free(struct mip_profile *p);
/* NULL, or what is wrong with a peak, or with its timeline's points. */
const char *mip_heap_peak_check(const struct mip_heap_peak *k);
const char *mip_heap_points_check(const struct mip_heap_peak *k,
                                  const struct mip_heap_point *pt, size_t n);

/* Where the strings that are not the frames' end: after the last string a
 * function or a site names. */
size_t mip_heap_strings_start(const struct mip_profile *p);

#endif
