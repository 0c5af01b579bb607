/* Block counts (block-counts mode) inside libmipfmt: what
 * profile_build.c, profile_merge.c, profile_check.c, profile_read.c and
 * profile_write.c ask of edge_counts.c. Not part of the library's
 * interface (mipfmt.h), apart from the view's accessors (view.h). */
#ifndef MIP_LIB_EDGE_COUNTS_H
#define MIP_LIB_EDGE_COUNTS_H

#include "mipfmt.h"

/* The map's edge-counts records into a new profile, with their strings,
 * and a zero total for every counter of the BCNT section. */
void mip_edge_counts_from_map(const struct mip_map *map,
                              struct mip_profile *p);
/* One run's counts, or a pooled file's totals (a raw profile whose
 * extents were checked equal to the profile's). */
void mip_edge_counts_add_raw(struct mip_profile *p, const struct mip_raw *raw);
/* Whether two profiles of one build have the same entries. */
int mip_edge_counts_same(const struct mip_profile *a,
                         const struct mip_profile *b);
void mip_edge_counts_add_profile(struct mip_profile *p,
                                 const struct mip_profile *other);

/* The EDGE_COUNTS or EDGE_COUNTERS section's entries (kind). */
void mip_edge_counts_encode(const struct mip_profile *p, uint32_t kind,
                            struct mip_buf *out);
/* Checks an open view's tables: every entry readable, in order, its
 * counters inside EDGE_COUNTERS, which holds one total per counter of the
 * BCNT section. */
int mip_view_check_edge_counts(const struct mip_view *v,
                               struct mip_error *err);
int mip_edge_counts_read(struct mip_profile *p, const struct mip_view *v,
                         struct mip_error *err);
void mip_edge_counts_free(struct mip_profile *p);

#endif
