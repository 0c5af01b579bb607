/*
 * Blocks whose death MIP could not see, said out loud. A block freed
 * where no hook and no interposed free sees it stays in the table: until
 * an allocation returns its address (then it is closed as freed unseen,
 * its lifetime too long) or until the profile is written (then it counts
 * as live at exit). Interposition (an executable's interposed free, or
 * the redirected GOT slots of heap_got.c) leaves only what it cannot
 * reach: a free through a pointer from dlsym(RTLD_DEFAULT) or
 * dlsym(RTLD_NEXT), statically linked code. Without it, every free by
 * code MIP did not instrument is lost, and every block live at the end
 * may have been freed.
 *
 * When the owner writes its profile, the statistics say which it was
 * (MIP_STAT_HEAP_UNINTERPOSED, MIP_STAT_HEAP_LIVE_UNINTERPOSED), and
 * when the blocks concerned are MIP_HEAP_LOSS_PERCENT of all blocks born
 * or more, one line on stderr, once per heap state (and per forked
 * child), which mipdata show --heap repeats from the profile.
 */
#include "heap.h"

struct live {
  uint32_t generation, contexts;
  uint64_t count;
};

/* The blocks the profile will count as live: those of this state (not a
 * parent's, before a fork) with a context. */
static void count_live(const struct mip_rt_heap_block *b, void *arg) {
  struct live *l = arg;
  if (b->context < l->contexts && b->generation == l->generation)
    l->count++;
}

/* "n" into buf. */
static const char *number(char *buf, size_t size, uint64_t n) {
  buf[mip_rt_append_u64(buf, 0, size, n)] = '\0';
  return buf;
}

static void report(uint64_t lost, uint64_t born, int seen, const char *why) {
  char a[24], b[24], c[24];
  number(c, sizeof c, (lost * 100 + born / 2) / born);
  if (seen)
    mip_rt_report(number(a, sizeof a, lost), " of ", number(b, sizeof b, born),
                  " heap blocks (", c,
                  "%) were freed where MIP could not see it: their "
                  "lifetimes are unknown (a free MIP cannot redirect: "
                  "through a pointer from dlsym(RTLD_DEFAULT or RTLD_NEXT) "
                  "or copied before the library was loaded, or in "
                  "statically linked code)");
  else
    mip_rt_report(number(a, sizeof a, lost), " of ", number(b, sizeof b, born),
                  " heap blocks (", c,
                  "%) were freed where MIP could not see it or are still "
                  "live: their lifetimes are unknown (frees by code MIP did "
                  "not instrument went unseen: ",
                  why, ")");
}

void mip_rt_heap_loss_note(struct mip_rt_heap *h) {
  static uint64_t told; /* the state (serial, generation) told, plus 1 */
  uint32_t n = __atomic_load_n(&h->context_count, __ATOMIC_ACQUIRE);
  n = n < h->context_cap ? n : h->context_cap;
  uint64_t born = 0;
  for (uint32_t i = 0; i < n; i++)
    born += __atomic_load_n(&h->contexts[i].mib.AllocCount, __ATOMIC_RELAXED);
  struct live live = {h->generation, h->context_cap, 0};
  mip_rt_heap_table_walk(h, count_live, &live);
  born += live.count;
  const char *why = "";
  int seen = mip_rt_heap_frees_seen(&why);
  h->stats[MIP_RT_HEAP_STAT_UNINTERPOSED] = !seen;
  h->stats[MIP_RT_HEAP_STAT_LIVE_UNINTERPOSED] = seen ? 0 : live.count;
  uint64_t lost = __atomic_load_n(&h->stats[MIP_RT_HEAP_STAT_FREED_UNSEEN],
                                  __ATOMIC_RELAXED) +
                  h->stats[MIP_RT_HEAP_STAT_LIVE_UNINTERPOSED];
  if (lost > born) /* blocks dropped by a full context table */
    born = lost;
  uint64_t state = ((uint64_t)h->serial << 32 | h->generation) + 1;
  if (!lost || lost * 100 < born * MIP_HEAP_LOSS_PERCENT ||
      __atomic_exchange_n(&told, state, __ATOMIC_RELAXED) == state)
    return;
  report(lost, born, seen, why);
}
