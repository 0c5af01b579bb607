/*
 * The checks of heap peaks and timelines are lib's own
 * (lib/heap_peak_check.c), compiled into the runtime under names of its
 * own as merge_mib.c does the MemInfoBlock rules: a pooled file's
 * timeline passes what mipdata checks, or the merge refuses it.
 */
#define mip_heap_peak_check mip_rt_heap_peak_check
#define mip_heap_points_check mip_rt_heap_points_check
#include "../../lib/heap_peak_check.c"
