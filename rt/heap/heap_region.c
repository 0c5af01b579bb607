/*
 * Regions of a program's heap (docs/heap.md, "Regions"): recording turned
 * on and off, the counts reset, and frees of blocks never seen allocated
 * (ghost frees) counted at the free's own call stack.
 *
 * What recording decides is a block's birth: a block born while it is on
 * is followed to its death whenever that comes (its realloc'd successors
 * too), one born while it is off is kept in the table only so that its
 * free is known (no ghost), and is counted nowhere: no context, no
 * timeline. A reset forgets the blocks live at that moment (their deaths
 * change nothing, as a forked child's parent's blocks) and starts every
 * count from zero.
 *
 * The public entry points, declared weak in <mip/mip.h>, are exported by
 * every heap image's runtime (the first in the process's lookup order
 * answers) and act on the owner's state.
 */
#include <errno.h>

#include "heap.h"

uint32_t mip_rt_heap_record_at_start = 1;

int mip_rt_heap_record(struct mip_rt_heap *h, int on) {
  return !__atomic_exchange_n(&h->off, on ? 0u : 1u, __ATOMIC_RELAXED);
}

void mip_rt_heap_ghost(struct mip_rt_heap *h, uint32_t context) {
  if (context >= h->context_cap)
    return;
  struct mip_rt_heap_context *c = &h->contexts[context];
  int solo = mip_rt_heap_solo(&h->timeline);
  mip_rt_heap_lock_unless(solo, &c->lock);
  c->ghost_frees++;
  mip_rt_heap_unlock_unless(solo, &c->lock);
  mip_rt_heap_solo_end(&h->timeline, solo);
}

/* Every context from zero, each under its lock; then the timeline under
 * its own. The shards stay locked meanwhile, so that no block is born or
 * dies in the generation that ends. */
void mip_rt_heap_reset(struct mip_rt_heap *h) {
  mip_rt_heap_lock_all(h);
  if (++h->generation == MIP_RT_HEAP_FOREIGN) {
    mip_rt_heap_table_disown(h);
    h->generation = 0;
  }
  uint32_t n = __atomic_load_n(&h->context_count, __ATOMIC_ACQUIRE);
  n = n < h->context_cap ? n : h->context_cap;
  for (uint32_t i = 0; i < n; i++) {
    struct mip_rt_heap_context *c = &h->contexts[i];
    mip_rt_heap_lock(&c->lock);
    c->live = c->peak = c->live_blocks = 0;
    c->at_bytes = c->at_blocks = c->at_epoch = c->ghost_frees = 0;
    c->mib = (struct mip_rt_mib){0};
    mip_rt_heap_unlock(&c->lock);
  }
  for (int i = 0; i < MIP_RT_HEAP_STAT_COUNT; i++)
    __atomic_store_n(&h->stats[i], 0, __ATOMIC_RELAXED);
  int locked = mip_rt_heap_timeline_enter(&h->timeline);
  mip_rt_heap_timeline_clear(&h->timeline); /* its lock word too: 0 */
  if (!locked)
    __atomic_store_n(&h->timeline.busy, 0, __ATOMIC_RELEASE);
  mip_rt_heap_unlock_all(h);
}

/* ---- <mip/mip.h> ------------------------------------------------------ */

/* Default visibility, and not weak (mip/mip.h declares them weak for
 * callers): any heap image's copy will do, they act on the owner's. */
__attribute__((visibility("default"))) int mip_heap_start(void);
__attribute__((visibility("default"))) int mip_heap_stop(void);
__attribute__((visibility("default"))) int mip_heap_reset(void);

static int record(int on) {
  int saved = errno;
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  int was = o ? o->record(on) : -1;
  errno = saved;
  return was;
}

int mip_heap_start(void) {
  return record(1);
}

int mip_heap_stop(void) {
  return record(0);
}

int mip_heap_reset(void) {
  int saved = errno;
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner();
  if (o)
    o->reset();
  errno = saved;
  return o ? 0 : -1;
}
