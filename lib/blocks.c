/*
 * Block coverage from probes. A probed block ran when its byte is set; the
 * entry block when the function was entered; an inferred block when any
 * block of its dependency list ran, which may itself be inferred: a
 * fixpoint over the (small) block graph of one function.
 */
#include "mipfmt.h"

static int known(const struct mip_block *b, const uint8_t *probes,
                 uint64_t probe_count, int entered) {
  if (b->probe == MIP_PROBE_ENTRY)
    return entered;
  if (b->probe == MIP_PROBE_NONE || b->probe >= probe_count)
    return 0;
  return probes[b->probe] != 0;
}

void mip_blocks_infer(const struct mip_block *blocks, uint32_t block_count,
                      const uint32_t *deps, const uint8_t *probes,
                      uint64_t probe_count, int entered, uint8_t *covered) {
  for (uint32_t i = 0; i < block_count; i++)
    covered[i] = (uint8_t)known(&blocks[i], probes, probe_count, entered);
  for (int changed = 1; changed;) {
    changed = 0;
    for (uint32_t i = 0; i < block_count; i++) {
      const struct mip_block *b = &blocks[i];
      if (covered[i] || b->probe != MIP_PROBE_NONE)
        continue;
      for (uint32_t d = 0; d < b->dep_count && !covered[i]; d++)
        if (covered[deps[b->dep_first + d]])
          covered[i] = 1, changed = 1;
    }
  }
}
