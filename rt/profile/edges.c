/*
 * Sampled call edges. Instrumented code (edges mode) calls
 * __mip_edge_sample on a function's first call and every MIP_EDGE_PERIOD-th
 * after, with its coverage byte (which names the callee) and its return
 * address (which names the call site). Samples go into a fixed table,
 * lock-free: a slot is claimed with one compare-and-swap of its key. The
 * table holds MIP_RT_EDGE_SLOTS distinct (call site, callee) pairs; a
 * sample that finds no slot within MIP_RT_EDGE_PROBES tries is dropped
 * and counted, and the count goes into the profile. At exit the filled
 * entries are written; in continuous mode the whole table is mapped onto
 * the profile (continuous.c).
 */
#include "mip/layouts.h"
#include "sys.h"

#define MIP_RT_EDGE_SLOTS 4096 /* a power of two */
#define MIP_RT_EDGE_PROBES 32
/* A key packs the call site (link-time address, below 2^40) and the
 * callee's index in the coverage section (below 2^24 - 1). */
#define SITE_BITS 40
#define CALLEE_BITS 24

/* Slot i is claimed by a compare-and-swap of keys[i], in private memory;
 * its entry, raw_edge.inc in memory (little-endian hosts, as the counter
 * sections), is what continuous mode maps onto the profile. The claiming
 * thread fills in site, then callee; samples are added by every thread
 * whose key it is, perhaps before callee is there: a reader skips entries
 * without a callee or without samples (a free slot, or one being
 * claimed). The statistics follow in the same whole pages, the count of
 * dropped samples kept in place. */
struct edge_entry {
  uint64_t site, callee, samples;
};
struct edge_stat {
  uint32_t key, reserved;
  uint64_t value;
};
struct __attribute__((aligned(4096))) edge_region {
  struct edge_entry entries[MIP_RT_EDGE_SLOTS];
  struct edge_stat stats[2]; /* period, dropped */
};
_Static_assert(sizeof(struct edge_entry) == mip_rec_raw_edge_size,
               "edge entries are raw_edge.inc");
_Static_assert(sizeof(struct edge_stat) == mip_rec_raw_stat_size,
               "statistics are raw_stat.inc");
_Static_assert(sizeof(struct edge_region) % 4096 == 0,
               "the edge table fills whole pages");

static uint64_t keys[MIP_RT_EDGE_SLOTS]; /* 0: free */
static struct edge_region region;
#define DROPPED (region.stats[1].value)

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

static void claim(struct edge_entry *e, uint64_t key, uint64_t site) {
  uint64_t cov_link = (uintptr_t)__start___mip_cov - mip_rt_self()->load_bias;
  __atomic_store_n(&e->site, site, __ATOMIC_RELAXED);
  __atomic_store_n(&e->callee,
                   cov_link + (key & ((1ULL << CALLEE_BITS) - 1)) - 1,
                   __ATOMIC_RELEASE);
}

static void add_sample(uint64_t key, uint64_t site) {
  for (uint64_t i = 0, at = hash(key); i < MIP_RT_EDGE_PROBES; i++, at++) {
    size_t slot = at & (MIP_RT_EDGE_SLOTS - 1);
    uint64_t found = __atomic_load_n(&keys[slot], __ATOMIC_RELAXED);
    if (found == 0) {
      uint64_t expected = 0;
      if (__atomic_compare_exchange_n(&keys[slot], &expected, key, 0,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        claim(&region.entries[slot], key, site);
        found = key;
      } else {
        found = expected;
      }
    }
    if (found == key) {
      __atomic_fetch_add(&region.entries[slot].samples, 1, __ATOMIC_RELEASE);
      return;
    }
  }
  __atomic_fetch_add(&DROPPED, 1, __ATOMIC_RELAXED);
}

MIP_RT_HIDDEN void __mip_edge_sample(const uint8_t *callee_cov,
                                     const void *return_address) {
  uint64_t callee = (uint64_t)(callee_cov - __start___mip_cov);
  if (!__start___mip_cov || callee >= (1ULL << CALLEE_BITS) - 1) {
    __atomic_fetch_add(&DROPPED, 1, __ATOMIC_RELAXED);
    return;
  }
  uint64_t site = site_of(return_address);
  add_sample(site << CALLEE_BITS | (callee + 1), site);
}

void mip_rt_edges_reset(void) {
  for (size_t i = 0; i < MIP_RT_EDGE_SLOTS; i++) {
    struct edge_entry *e = &region.entries[i];
    __atomic_store_n(&keys[i], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->site, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->callee, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->samples, 0, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&DROPPED, 0, __ATOMIC_RELAXED);
}

/* An entry to write: claimed, filled in, sampled. */
static int filled(const struct edge_entry *e) {
  return __atomic_load_n(&e->samples, __ATOMIC_ACQUIRE) &&
         __atomic_load_n(&e->callee, __ATOMIC_ACQUIRE);
}

static size_t filled_entries(void) {
  size_t n = 0;
  for (size_t i = 0; i < MIP_RT_EDGE_SLOTS; i++)
    n += filled(&region.entries[i]);
  return n;
}

/* Writes the filled entries, in table order. Entries filled while writing
 * (another thread) are left for a later dump. */
static int write_edges(int fd, const struct mip_rt_payload *p) {
  uint8_t buf[64 * mip_rec_raw_edge_size];
  size_t n = 0, written = 0;
  for (size_t i = 0; i < MIP_RT_EDGE_SLOTS && written < p->size; i++) {
    const struct edge_entry *e = &region.entries[i];
    if (!filled(e))
      continue;
    struct mip_rec_raw_edge out = {
        .site = __atomic_load_n(&e->site, __ATOMIC_RELAXED),
        .callee = __atomic_load_n(&e->callee, __ATOMIC_RELAXED),
        .samples = __atomic_load_n(&e->samples, __ATOMIC_RELAXED),
    };
    mip_rec_raw_edge_encode(&out, buf + n * mip_rec_raw_edge_size);
    written += mip_rec_raw_edge_size;
    if (++n == 64) {
      if (mip_rt_write_all(fd, buf, n * mip_rec_raw_edge_size))
        return -1;
      n = 0;
    }
  }
  return n ? mip_rt_write_all(fd, buf, n * mip_rec_raw_edge_size) : 0;
}

/* The statistics' keys and the period; the dropped count is kept live. */
static struct mip_rt_payload stats_payload(void) {
  region.stats[0] = (struct edge_stat){MIP_STAT_EDGE_PERIOD, 0,
                                       MIP_EDGE_PERIOD};
  region.stats[1].key = MIP_STAT_EDGE_SAMPLES_DROPPED;
  return (struct mip_rt_payload){
      .kind = MIP_RAW_STATS,
      .elem_size = mip_rec_raw_stat_size,
      .size = sizeof region.stats,
      .data = (const uint8_t *)region.stats,
  };
}

size_t mip_rt_edge_payloads(struct mip_rt_payload *out, size_t max) {
  size_t used = filled_entries();
  uint64_t lost = __atomic_load_n(&DROPPED, __ATOMIC_RELAXED);
  if ((!used && !lost) || max < 2)
    return 0;
  out[0] = (struct mip_rt_payload){
      .kind = MIP_RAW_EDGES,
      .elem_size = mip_rec_raw_edge_size,
      .size = used * mip_rec_raw_edge_size,
      .write = write_edges,
  };
  out[1] = stats_payload();
  return 2;
}

size_t mip_rt_edge_mapped_payloads(struct mip_rt_payload *out, size_t max) {
  if (max < 2)
    return 0;
  out[0] = (struct mip_rt_payload){
      .kind = MIP_RAW_EDGES,
      .elem_size = mip_rec_raw_edge_size,
      .size = sizeof region.entries,
      .data = (const uint8_t *)region.entries,
  };
  out[1] = stats_payload();
  return 2;
}
