/*
 * Sampled call edges. Instrumented code (edges mode) calls
 * __mip_edge_sample on a function's first call and every MIP_EDGE_PERIOD-th
 * after, with its coverage byte (which names the callee) and its return
 * address (which names the call site). Samples go into a fixed table,
 * lock-free: a slot is claimed with one compare-and-swap of its key. The
 * table holds MIP_RT_EDGE_SLOTS distinct (call site, callee) pairs; a
 * sample that finds no slot within MIP_RT_EDGE_PROBES tries is dropped
 * and counted, and the count goes into the profile.
 */
#include "mip/io.h"
#include "mip/layouts.h"
#include "mip_rt.h"

#define MIP_RT_EDGE_SLOTS 4096 /* a power of two */
#define MIP_RT_EDGE_PROBES 32
/* A key packs the call site (link-time address, below 2^40) and the
 * callee's index in the coverage section (below 2^24 - 1). */
#define SITE_BITS 40
#define CALLEE_BITS 24

struct edge_slot {
  uint64_t key; /* 0: free */
  uint64_t samples;
};

static struct edge_slot table[MIP_RT_EDGE_SLOTS];
static uint64_t dropped;

extern const uint8_t __start___mip_cov[] __attribute__((weak)) MIP_RT_HIDDEN;

static uint64_t hash(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return key;
}

static uint64_t site_of(const void *return_address) {
  const struct mip_rt_image *image = mip_rt_self();
  uintptr_t ra = (uintptr_t)return_address;
  if (ra < image->code_start || ra >= image->code_end)
    return 0; /* called from another image */
  uint64_t site = ra - image->load_bias;
  return site >> SITE_BITS ? 0 : site;
}

static void add_sample(uint64_t key) {
  for (uint64_t i = 0, at = hash(key); i < MIP_RT_EDGE_PROBES; i++, at++) {
    struct edge_slot *slot = &table[at & (MIP_RT_EDGE_SLOTS - 1)];
    uint64_t found = __atomic_load_n(&slot->key, __ATOMIC_RELAXED);
    if (found == 0) {
      uint64_t expected = 0;
      if (__atomic_compare_exchange_n(&slot->key, &expected, key, 0,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        found = key;
      else
        found = expected;
    }
    if (found == key) {
      __atomic_fetch_add(&slot->samples, 1, __ATOMIC_RELAXED);
      return;
    }
  }
  __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
}

MIP_RT_HIDDEN void __mip_edge_sample(const uint8_t *callee_cov,
                                     const void *return_address) {
  uint64_t callee = (uint64_t)(callee_cov - __start___mip_cov);
  if (!__start___mip_cov || callee >= (1ULL << CALLEE_BITS) - 1) {
    __atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
    return;
  }
  add_sample(site_of(return_address) << CALLEE_BITS | (callee + 1));
}

void mip_rt_edges_reset(void) {
  for (size_t i = 0; i < MIP_RT_EDGE_SLOTS; i++) {
    __atomic_store_n(&table[i].key, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&table[i].samples, 0, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&dropped, 0, __ATOMIC_RELAXED);
}

static size_t used_slots(void) {
  size_t n = 0;
  for (size_t i = 0; i < MIP_RT_EDGE_SLOTS; i++)
    n += __atomic_load_n(&table[i].key, __ATOMIC_RELAXED) != 0;
  return n;
}

/* Writes the used slots as raw_edge entries, in table order. Entries that
 * appear while writing (another thread) are left for a later dump. */
static int write_edges(int fd, const struct mip_rt_payload *p) {
  const struct mip_rt_image *image = mip_rt_self();
  uint64_t cov_link = (uintptr_t)__start___mip_cov - image->load_bias;
  uint8_t buf[64 * mip_rec_raw_edge_size];
  size_t n = 0, written = 0;
  for (size_t i = 0; i < MIP_RT_EDGE_SLOTS && written < p->size; i++) {
    uint64_t key = __atomic_load_n(&table[i].key, __ATOMIC_RELAXED);
    if (!key)
      continue;
    struct mip_rec_raw_edge e = {
        .site = key >> CALLEE_BITS,
        .callee = cov_link + (key & ((1ULL << CALLEE_BITS) - 1)) - 1,
        .samples = __atomic_load_n(&table[i].samples, __ATOMIC_RELAXED),
    };
    mip_rec_raw_edge_encode(&e, buf + n * mip_rec_raw_edge_size);
    written += mip_rec_raw_edge_size;
    if (++n == 64) {
      if (mip_write_all(fd, buf, n * mip_rec_raw_edge_size))
        return -1;
      n = 0;
    }
  }
  return n ? mip_write_all(fd, buf, n * mip_rec_raw_edge_size) : 0;
}

static uint8_t stats[2 * mip_rec_raw_stat_size];

size_t mip_rt_edge_payloads(struct mip_rt_payload *out, size_t max) {
  size_t used = used_slots();
  uint64_t lost = __atomic_load_n(&dropped, __ATOMIC_RELAXED);
  if ((!used && !lost) || max < 2)
    return 0;
  struct mip_rec_raw_stat period = {MIP_STAT_EDGE_PERIOD, 0, MIP_EDGE_PERIOD};
  struct mip_rec_raw_stat drops = {MIP_STAT_EDGE_SAMPLES_DROPPED, 0, lost};
  mip_rec_raw_stat_encode(&period, stats);
  mip_rec_raw_stat_encode(&drops, stats + mip_rec_raw_stat_size);
  out[0] = (struct mip_rt_payload){
      .kind = MIP_RAW_EDGES,
      .elem_size = mip_rec_raw_edge_size,
      .size = used * mip_rec_raw_edge_size,
      .write = write_edges,
  };
  out[1] = (struct mip_rt_payload){
      .kind = MIP_RAW_STATS,
      .elem_size = mip_rec_raw_stat_size,
      .size = sizeof stats,
      .data = stats,
  };
  return 2;
}
