/*
 * The order of two global heap peaks (mip/layout/heap_peak.inc), one for
 * mipdata's merges (lib/heap_timeline.c) and pool mode's
 * (rt/pool/merge_timeline.c), so that both keep the same run's timeline:
 * the most bytes, then the most blocks, then the later event, time and
 * the longer run. Include mip/layouts.h first.
 */
#ifndef MIP_PEAK_H
#define MIP_PEAK_H

static inline int mip_heap_peak_compare(const struct mip_rec_heap_peak *a,
                                        const struct mip_rec_heap_peak *b) {
  const uint64_t x[] = {a->bytes, a->blocks, a->event, a->ms, a->events};
  const uint64_t y[] = {b->bytes, b->blocks, b->event, b->ms, b->events};
  for (unsigned i = 0; i < sizeof x / sizeof x[0]; i++)
    if (x[i] != y[i])
      return x[i] > y[i] ? 1 : -1;
  return 0;
}

#endif
