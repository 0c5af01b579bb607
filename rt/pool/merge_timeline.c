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

static struct mip_heap_peak peak_of(const struct mip_rec_heap_peak *r) {
  return (struct mip_heap_peak){r->bytes,  r->blocks,   r->event,
                                r->events, r->interval, r->ms};
}

static struct mip_heap_point point_at(const uint8_t *p) {
  struct mip_rec_heap_point r;
  mip_rec_heap_point_decode(&r, p);
  return (struct mip_heap_point){r.event, r.ms, r.bytes, r.blocks};
}

/* What mipdata checks of a timeline and the other runs' peaks
 * (lib/heap_timeline.c), so that the file stays one it reads. */
static int check(struct mip_rt_merge *m, const struct side *s,
                 const struct mip_rec_raw_heap_timeline *t) {
  struct mip_heap_peak top = peak_of(&s->top);
  if (mip_rt_heap_peak_check(&top))
    return bad(m, "a heap timeline whose peak contradicts itself");
  const uint8_t *points =
      s->timeline->data + mip_rec_heap_peak_size + mip_rec_raw_heap_timeline_size;
  for (uint32_t i = 0; i < t->point_count; i++) {
    struct mip_heap_point pt[2];
    pt[1] = point_at(points + (uint64_t)i * t->point_size);
    if (i)
      pt[0] = point_at(points + (uint64_t)(i - 1) * t->point_size);
    if (i ? mip_rt_heap_points_check(&top, pt, 2)
          : mip_rt_heap_points_check(&top, pt + 1, 1))
      return bad(m, "a heap timeline whose points contradict it");
  }
  uint64_t n = s->peaks ? s->peaks->size / mip_rec_heap_peak_size : 0;
  for (uint64_t i = 0; i < n; i++) {
    struct mip_rec_heap_peak r;
    mip_rec_heap_peak_decode(&r, s->peaks->data + i * mip_rec_heap_peak_size);
    struct mip_heap_peak k = peak_of(&r);
    if (mip_rt_heap_peak_check(&k) || mip_heap_peak_compare(&r, &s->top) > 0)
      return bad(m, "heap peaks that contradict their timeline");
  }
  return 0;
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
  return check(m, s, &t);
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
