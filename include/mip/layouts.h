/* Every on-disk record layout, generated from mip/layout/\*.inc. */
#ifndef MIP_LAYOUTS_H
#define MIP_LAYOUTS_H

#include <stdint.h>

#include "mip/format.h"

#define MIP_LAYOUT_NAME raw_header
#define MIP_LAYOUT_FILE "mip/layout/raw_header.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_extent
#define MIP_LAYOUT_FILE "mip/layout/raw_extent.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_section
#define MIP_LAYOUT_FILE "mip/layout/raw_section.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_record
#define MIP_LAYOUT_FILE "mip/layout/map_record.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_unit
#define MIP_LAYOUT_FILE "mip/layout/map_unit.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_unit_section
#define MIP_LAYOUT_FILE "mip/layout/map_unit_section.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_function
#define MIP_LAYOUT_FILE "mip/layout/map_function.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_slot
#define MIP_LAYOUT_FILE "mip/layout/map_slot.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME mapfile_header
#define MIP_LAYOUT_FILE "mip/layout/mapfile_header.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_header
#define MIP_LAYOUT_FILE "mip/layout/profile_header.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_section
#define MIP_LAYOUT_FILE "mip/layout/profile_section.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_function
#define MIP_LAYOUT_FILE "mip/layout/profile_function.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_edge
#define MIP_LAYOUT_FILE "mip/layout/raw_edge.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_stat
#define MIP_LAYOUT_FILE "mip/layout/raw_stat.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_blocks
#define MIP_LAYOUT_FILE "mip/layout/map_blocks.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_block
#define MIP_LAYOUT_FILE "mip/layout/map_block.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME symbol
#define MIP_LAYOUT_FILE "mip/layout/symbol.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_calls
#define MIP_LAYOUT_FILE "mip/layout/profile_calls.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_order
#define MIP_LAYOUT_FILE "mip/layout/profile_order.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_blocks
#define MIP_LAYOUT_FILE "mip/layout/profile_blocks.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_block
#define MIP_LAYOUT_FILE "mip/layout/profile_block.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_edge
#define MIP_LAYOUT_FILE "mip/layout/profile_edge.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_stat
#define MIP_LAYOUT_FILE "mip/layout/profile_stat.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_heap_context
#define MIP_LAYOUT_FILE "mip/layout/raw_heap_context.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_heap_mibs
#define MIP_LAYOUT_FILE "mip/layout/raw_heap_mibs.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_heap_stack
#define MIP_LAYOUT_FILE "mip/layout/raw_heap_stack.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_heap_segment
#define MIP_LAYOUT_FILE "mip/layout/raw_heap_segment.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_pool_rank
#define MIP_LAYOUT_FILE "mip/layout/raw_pool_rank.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_pool_blocks
#define MIP_LAYOUT_FILE "mip/layout/raw_pool_blocks.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_pool_pattern
#define MIP_LAYOUT_FILE "mip/layout/raw_pool_pattern.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_heap_site
#define MIP_LAYOUT_FILE "mip/layout/map_heap_site.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_data
#define MIP_LAYOUT_FILE "mip/layout/map_data.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_data
#define MIP_LAYOUT_FILE "mip/layout/profile_data.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME map_edge_counts
#define MIP_LAYOUT_FILE "mip/layout/map_edge_counts.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_edge_counts
#define MIP_LAYOUT_FILE "mip/layout/profile_edge_counts.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_heap_site
#define MIP_LAYOUT_FILE "mip/layout/profile_heap_site.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_heap_frame
#define MIP_LAYOUT_FILE "mip/layout/profile_heap_frame.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME profile_heap_context
#define MIP_LAYOUT_FILE "mip/layout/profile_heap_context.inc"
#include "mip/layout.h"

/* Bytes per element of a raw counter kind's counters (raw_kinds.inc), 0
 * for another kind; and of their totals in a pooled raw profile. Shared by
 * the runtime, which pools runs, and the format library, which reads them. */
static inline uint32_t mip_raw_counter_size(uint32_t kind) {
  switch (kind) {
#define MIP_RAW_KIND(id, NAME, section, elem_size)                             \
  case id:                                                                     \
    return elem_size;
#include "mip/layout/raw_kinds.inc"
#undef MIP_RAW_KIND
  }
  return 0;
}

static inline uint32_t mip_raw_pool_total_size(uint32_t kind) {
  return kind == MIP_RAW_ORD ? mip_rec_raw_pool_rank_size : 8;
}

#define MIP_LAYOUT_NAME heap_point
#define MIP_LAYOUT_FILE "mip/layout/heap_point.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME heap_peak
#define MIP_LAYOUT_FILE "mip/layout/heap_peak.inc"
#include "mip/layout.h"

#define MIP_LAYOUT_NAME raw_heap_timeline
#define MIP_LAYOUT_FILE "mip/layout/raw_heap_timeline.inc"
#include "mip/layout.h"

#endif
