/*
 * The heap over time as text (show --heap): the global peak in one line
 * and the timeline as a chart of '#' columns on '.', each the most bytes
 * live during the births and deaths it covers, so that no peak falls
 * between two columns.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "heap_chart.h"

#define MAX_OTHERS 8 /* other runs' peaks named on the peak line */

void heap_peak_text(FILE *out, const struct mip_profile *p) {
  if (!p->heap_peak_count)
    return;
  const struct mip_heap_peak *k = &p->heap_peaks[0];
  fprintf(out,
          "Peak: %" PRIu64 " bytes in %" PRIu64 " blocks at %" PRIu32
          " ms (event %" PRIu64 " of %" PRIu64 " births and deaths)",
          k->bytes, k->blocks, k->ms, k->event, k->events);
  if (p->heap_peak_count > 1) {
    fprintf(out, ", the highest of %zu runs' (the others':",
            p->heap_peak_count);
    size_t n = p->heap_peak_count;
    for (size_t i = 1; i < n && i <= MAX_OTHERS; i++)
      fprintf(out, " %" PRIu64, p->heap_peaks[i].bytes);
    fprintf(out, "%s bytes)", n - 1 > MAX_OTHERS ? " ..." : "");
  }
  fputc('\n', out);
}

/* The most bytes of the points in each of n columns, over events. */
static void columns(const struct mip_profile *p, uint64_t *most, size_t n) {
  uint64_t events = p->heap_points[p->heap_point_count - 1].event;
  memset(most, 0, n * sizeof *most);
  for (size_t i = 0; i < p->heap_point_count; i++) {
    const struct mip_heap_point *q = &p->heap_points[i];
    size_t c = (size_t)((q->event - 1) * n / events);
    if (q->bytes > most[c])
      most[c] = q->bytes;
  }
  /* A column with no point of its own (fewer points than columns) shows
   * the point that covers it: the next one's value. */
  for (size_t c = n - 1; c-- > 0;)
    if (!most[c])
      most[c] = most[c + 1];
}

void heap_chart_text(FILE *out, const struct mip_profile *p, int width,
                     int height) {
  if (!p->heap_point_count || !p->heap_peak_count || width < 1 || height < 1)
    return;
  size_t n = p->heap_point_count < (size_t)width ? p->heap_point_count
                                                 : (size_t)width;
  uint64_t *most = mip_xcalloc(n, sizeof *most);
  columns(p, most, n);
  uint64_t top = p->heap_peaks[0].bytes ? p->heap_peaks[0].bytes : 1;
  const struct mip_heap_point *last = &p->heap_points[p->heap_point_count - 1];
  fprintf(out, "Heap over time (bytes live; %" PRIu64
               " births and deaths, %" PRIu32 " ms):\n",
          last->event, last->ms);
  for (int row = height; row >= 1; row--) {
    /* A column reaches this row when it holds more than the rows below. */
    uint64_t floor = top * (uint64_t)(row - 1) / (uint64_t)height;
    if (row == height)
      fprintf(out, "%12" PRIu64 " |", top);
    else
      fprintf(out, "%12s |", "");
    for (size_t c = 0; c < n; c++)
      fputc(most[c] > floor ? '#' : '.', out);
    fputc('\n', out);
  }
  fprintf(out, "%12d +", 0);
  for (size_t c = 0; c < n; c++)
    fputc('-', out);
  fputc('\n', out);
  free(most);
}
