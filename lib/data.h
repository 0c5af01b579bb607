/* Global variables (data mode) inside libmipfmt: what profile_build.c, profile_merge.c, profile_view.c, profile_read.c and
 * profile_write.c ask of data_profile.c. Not part of the library's
 * interface (mipfmt.h). */
#ifndef MIP_LIB_DATA_H
#define MIP_LIB_DATA_H

#include "mipfmt.h"

/* The map's variables into a new profile, with their strings. */
void mip_data_from_map(const struct mip_map *map, struct mip_profile *p);
/* One run's accesses (a raw profile whose extents were checked). */
void mip_data_add_raw(struct mip_profile *p, const struct mip_raw *raw);
/* Whether two profiles of one build have the same variables. */
int mip_data_same(const struct mip_profile *a, const struct mip_profile *b);
void mip_data_add_profile(struct mip_profile *p,
                          const struct mip_profile *other);

/* The DATA section's entries. */
void mip_data_encode(const struct mip_profile *p, struct mip_buf *out);
/* Checks every entry of an open view's DATA table: in range, in order. */
int mip_view_check_data(const struct mip_view *v, struct mip_error *err);
int mip_data_read(struct mip_profile *p, const struct mip_view *v,
                  struct mip_error *err);
void mip_data_free(struct mip_profile *p);

#endif
