/*
 * The checks a heap peak and a timeline's points pass (docs/formats.md,
 * HEAP_TIMELINE), in raw profiles and indexed ones alike: defined once,
 * for mipdata (lib/heap_timeline.c, lib/profile_view.c) and for pool
 * mode's merge, which compiles this very file into the runtime under
 * names of its own (rt/pool/merge_peak_check.c), so that a pooled file
 * is refused where mipdata would refuse it. No library call.
 */
#include "heap.h"

/* The checks a peak passes, in a raw profile or an indexed one: NULL, or
 * what is wrong. */
const char *mip_heap_peak_check(const struct mip_heap_peak *k) {
  if (!k->interval || (k->interval & (k->interval - 1)))
    return "has an interval that is not a power of two";
  if (k->event > k->events)
    return "has its peak after its last event";
  if (k->blocks > k->event)
    return "has more blocks at its peak than births before it";
  return NULL;
}

/* The checks of a timeline's points against their peak. */
const char *mip_heap_points_check(const struct mip_heap_peak *k,
                                  const struct mip_heap_point *pt, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (i && pt[i].event <= pt[i - 1].event)
      return "has points out of order";
    if (pt[i].event > k->events)
      return "has a point after its last event";
    if (pt[i].bytes > k->bytes)
      return "has a point above its peak";
    if (pt[i].blocks > pt[i].event)
      return "has a point with more blocks than events";
  }
  return NULL;
}

