/*
 * The heap over time (docs/heap.md, "Timeline and peak"): the TIMELINE
 * payload of a raw profile, checked when it is read, and how the global
 * peaks, timelines and at-peak values of several runs combine.
 *
 * A run's peak is a moment of that run: the bytes each context held then
 * (AtPeakSize, AtPeakCount) add up over the contexts of that run, not
 * over runs. A merge keeps the timeline and the at-peak values of the run
 * with the highest peak (mip/peak.h: a total order, so that the result
 * does not depend on the order of the runs; pool mode's merge keeps the
 * same) and lists every run's peak, highest first. A pooled raw profile
 * carries the other runs' peaks in its PEAKS payload.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "mip/layouts.h"
#include "mip/peak.h"

static int corrupt(const char *path, struct mip_error *err, const char *what,
                   uint64_t n, const char *unit) {
  if (!unit)
    return mip_fail(err, path, "corrupt raw profile: heap timeline %s", what);
  return mip_fail(err, path,
                  "corrupt raw profile: heap timeline %s (%" PRIu64 " %s)",
                  what, n, unit);
}

static struct mip_rec_heap_peak rec(const struct mip_heap_peak *k) {
  return (struct mip_rec_heap_peak){k->bytes,    k->blocks, k->event, k->events,
                                    k->interval, k->ms,     0};
}

static int compare_peaks(const struct mip_heap_peak *a,
                         const struct mip_heap_peak *b) {
  struct mip_rec_heap_peak x = rec(a), y = rec(b);
  return mip_heap_peak_compare(&x, &y);
}

int mip_raw_heap_timeline_parse(struct mip_raw_heap *heap,
                                const struct mip_raw_payload *s,
                                const char *path, struct mip_error *err) {
  if (!s)
    return 0;
  uint64_t size = s->extent.size, head = mip_rec_heap_peak_size +
                                         mip_rec_raw_heap_timeline_size;
  if (size < head)
    return corrupt(path, err, "is truncated", size, "bytes");
  struct mip_rec_heap_peak k;
  struct mip_rec_raw_heap_timeline t;
  mip_rec_heap_peak_decode(&k, s->data);
  mip_rec_raw_heap_timeline_decode(&t, s->data + mip_rec_heap_peak_size);
  if (t.point_size < mip_rec_heap_point_size || t.point_size % 8)
    return corrupt(path, err, "has points of a bad size", t.point_size,
                   "bytes");
  if ((uint64_t)t.point_count * t.point_size != size - head)
    return corrupt(path, err, "does not hold its points", t.point_count,
                   "points");
  heap->peak = (struct mip_heap_peak){k.bytes,  k.blocks,   k.event,
                                      k.events, k.interval, k.ms};
  const char *why = mip_heap_peak_check(&heap->peak);
  if (why)
    return corrupt(path, err, why, 0, NULL);
  heap->points = mip_xcalloc(t.point_count ? t.point_count : 1,
                             sizeof *heap->points);
  for (uint32_t i = 0; i < t.point_count; i++) {
    struct mip_rec_heap_point r;
    mip_rec_heap_point_decode(&r, s->data + head + (uint64_t)i * t.point_size);
    heap->points[i] = (struct mip_heap_point){r.event, r.ms, r.bytes, r.blocks};
  }
  heap->point_count = t.point_count;
  if ((why = mip_heap_points_check(&heap->peak, heap->points, t.point_count)))
    return corrupt(path, err, why, 0, NULL);
  heap->has_timeline = 1;
  return 0;
}

int mip_raw_heap_peaks_parse(struct mip_raw_heap *heap,
                             const struct mip_raw_payload *s,
                             const char *path, struct mip_error *err) {
  if (!s)
    return 0;
  if (!heap->has_timeline)
    return corrupt(path, err, "of other runs without a timeline", 0, NULL);
  uint64_t n = s->extent.size / mip_rec_heap_peak_size;
  if (n * mip_rec_heap_peak_size != s->extent.size)
    return corrupt(path, err, "of other runs is cut", s->extent.size,
                   "bytes");
  heap->other_peaks = mip_xcalloc(n ? n : 1, sizeof *heap->other_peaks);
  for (uint64_t i = 0; i < n; i++) {
    struct mip_rec_heap_peak r;
    mip_rec_heap_peak_decode(&r, s->data + i * mip_rec_heap_peak_size);
    struct mip_heap_peak *k = &heap->other_peaks[i];
    *k = (struct mip_heap_peak){r.bytes,    r.blocks,   r.event,
                                r.events,   r.interval, r.ms};
    const char *why = mip_heap_peak_check(k);
    if (why)
      return corrupt(path, err, why, 0, NULL);
    if (compare_peaks(k, &heap->peak) > 0)
      return corrupt(path, err, "of another run is above the kept one's", 0,
                     NULL);
  }
  heap->other_peak_count = n;
  return 0;
}

/* ---- merging ---------------------------------------------------------- */

static int highest_first(const void *a, const void *b) {
  return compare_peaks(b, a);
}

void mip_heap_at_peak_clear(struct mip_mib *m) {
  m->v[MIP_MIBI_AtPeakSize] = 0;
  m->v[MIP_MIBI_AtPeakCount] = 0;
}

int mip_heap_peaks_add(struct mip_profile *p, const struct mip_heap_peak *peaks,
                       size_t peak_count, const struct mip_heap_point *points,
                       size_t point_count) {
  if (!peak_count)
    return MIP_HEAP_PEAK_NONE;
  int theirs = !p->heap_peak_count ||
               compare_peaks(&peaks[0], &p->heap_peaks[0]) > 0;
  p->heap_peaks = mip_xrealloc(p->heap_peaks, p->heap_peak_count + peak_count,
                               sizeof *p->heap_peaks);
  memcpy(p->heap_peaks + p->heap_peak_count, peaks,
         peak_count * sizeof *peaks);
  p->heap_peak_count += peak_count;
  qsort(p->heap_peaks, p->heap_peak_count, sizeof *p->heap_peaks,
        highest_first);
  if (!theirs)
    return MIP_HEAP_PEAK_OURS;
  for (size_t i = 0; i < p->heap_context_count; i++)
    mip_heap_at_peak_clear(&p->heap_contexts[i].mib);
  free(p->heap_points);
  p->heap_points = mip_xcalloc(point_count ? point_count : 1,
                               sizeof *p->heap_points);
  if (point_count)
    memcpy(p->heap_points, points, point_count * sizeof *points);
  p->heap_point_count = point_count;
  return MIP_HEAP_PEAK_THEIRS;
}

void mip_heap_peaks_free(struct mip_profile *p) {
  free(p->heap_peaks);
  free(p->heap_points);
  p->heap_peaks = NULL;
  p->heap_points = NULL;
  p->heap_peak_count = p->heap_point_count = 0;
}
