/*
 * How MemInfoBlocks of one context combine across runs is defined once,
 * in lib/heap_mib.c, which `mipdata merge` uses: pool mode compiles that
 * very file into the runtime under names of its own (the unit tests link
 * the runtime and the library together), so that a pooled file combines
 * its runs exactly as merging them one by one would. The file uses no
 * library call.
 */
#define mip_mib_defs mip_rt_mib_defs
#define mip_mib_index mip_rt_mib_index
#define mip_mib_width mip_rt_mib_width
#define mip_mib_merge mip_rt_mib_merge
#define mip_mib_check mip_rt_mib_check
#include "../../lib/heap_mib.c"
