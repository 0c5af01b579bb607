/*
 * The heap timelines of a pooled file (docs/runtime.md, "Pooled
 * profiles"): as `mipdata merge` combines runs (lib/heap_timeline.c), the
 * file keeps the TIMELINE of the run with the highest global peak
 * (mip/peak.h; the file's on a tie, as mipdata keeps the earlier run's),
 * and lists the other runs' peaks in its PEAKS payload. Each context's
 * bytes at the peak (AtPeakSize, AtPeakCount) are a moment of one run:
 * the side whose peak is not kept has them cleared before its contexts
 * join the file's (merge_heap.c).
 */
#include "merge.h"
#include "mip/layouts.h"
#include "mip/peak.h"

struct side {
  const struct mip_rt_section *timeline, *peaks;
  struct mip_rec_heap_peak top; /* the timeline's */
};

static int bad(struct mip_rt_merge *m, const char *what) {
  return mip_rt_why_set(&m->why, "it is not a valid raw profile (", what, ")",
                        NULL);
}

static int side_of(struct mip_rt_merge *m, const struct mip_rt_view *v,
                   struct side *s) {
  s->timeline = mip_rt_view_find(v, MIP_RAW_HEAP_TIMELINE);
  s->peaks = mip_rt_view_find(v, MIP_RAW_HEAP_PEAKS);
  if (!s->timeline)
    return s->peaks ? bad(m, "heap peaks without a timeline") : 0;
  const uint64_t head = mip_rec_heap_peak_size + mip_rec_raw_heap_timeline_size;
  if (s->timeline->size < head)
    return bad(m, "a truncated heap timeline");
  struct mip_rec_raw_heap_timeline t;
  mip_rec_heap_peak_decode(&s->top, s->timeline->data);
  mip_rec_raw_heap_timeline_decode(&t, s->timeline->data +
                                           mip_rec_heap_peak_size);
  if (t.point_size < mip_rec_heap_point_size ||
      (uint64_t)t.point_count * t.point_size != s->timeline->size - head)
    return bad(m, "a heap timeline that does not hold its points");
  if (s->peaks && s->peaks->size % mip_rec_heap_peak_size)
    return bad(m, "heap peaks of another layout");
  return 0;
}

static uint8_t *copy(uint8_t *out, const struct mip_rt_section *s) {
  if (s)
    mip_copy_bytes(out, s->data, s->size);
  return out + (s ? s->size : 0);
}

int mip_rt_merge_timeline(struct mip_rt_merge *m, int *clear_old,
                          int *clear_run) {
  struct side old, run;
  *clear_old = *clear_run = 0;
  if (side_of(m, &m->old, &old) || side_of(m, &m->run, &run))
    return -1;
  if (!old.timeline && !run.timeline)
    return 0;
  /* mipdata's rule: a side without a timeline adds up with the other,
   * except that a first timeline clears what came before it. */
  int keep_old =
      old.timeline && (!run.timeline ||
                       mip_heap_peak_compare(&old.top, &run.top) >= 0);
  *clear_old = !keep_old;
  *clear_run = keep_old && run.timeline;
  const struct side *kept = keep_old ? &old : &run;
  const struct side *other = keep_old ? &run : &old;
  uint8_t *tl = mip_rt_merge_payload(m, MIP_RAW_HEAP_TIMELINE, 8, 0,
                                     kept->timeline->size);
  if (!tl)
    return -1;
  copy(tl, kept->timeline);
  uint64_t others = (old.peaks ? old.peaks->size : 0) +
                    (run.peaks ? run.peaks->size : 0) +
                    (other->timeline ? mip_rec_heap_peak_size : 0);
  if (!others)
    return 0;
  uint8_t *out = mip_rt_merge_payload(m, MIP_RAW_HEAP_PEAKS,
                                      mip_rec_heap_peak_size, 0, others);
  if (!out)
    return -1;
  out = copy(copy(out, old.peaks), run.peaks);
  if (other->timeline)
    mip_rec_heap_peak_encode(&other->top, out);
  return 0;
}
