/*
 * Sampled heap profiling (MIP_OPTIONS heap_sample=BYTES; docs/heap.md,
 * "Sampled heap profiling"). Allocated bytes are a line on which sample
 * points fall as a Poisson process of one point per BYTES bytes on
 * average: a block is recorded when at least one point falls within it,
 * with probability p = 1 - exp(-size / BYTES), which is how tcmalloc's
 * and jemalloc's heap profilers sample. Each thread keeps the distance to
 * its next point, drawn from an exponential distribution of mean BYTES,
 * and counts it down by each block's size: a block that does not reach it
 * costs one subtraction and is never seen again (no walk, no context, no
 * table entry). The distance is memoryless, so a point drawn afresh from
 * the end of a recorded block keeps every block's chance p, whatever came
 * before.
 *
 * A recorded block stands for 1/p blocks and size/p bytes: those weights,
 * summed per context (SampleWeight, SampleBytes of mib.inc), are unbiased
 * estimates of its blocks and bytes. The runtime has no libm: the
 * logarithm and the exponential are computed here, to about 1e-13.
 *
 * The free of a block not recorded must cost next to nothing too: the
 * state marks where its recorded blocks start (mip_rt_heap_sample_mark,
 * heap.h), and a free whose pointer has no mark goes no further than the
 * hook or the interposed free.
 */
#include "heap.h"

uint64_t mip_rt_heap_sample_option;
uint64_t mip_rt_heap_sample_seed;

__thread uint64_t mip_rt_heap_sample_left;
static __thread uint64_t sample_rng;  /* 0: not seeded yet */

/* ln(x) for x > 0 (normal): x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
 * ln(m) = 2 atanh((m - 1) / (m + 1)) by its series, |t| < 0.172. */
static double ln(double x) {
  union {
    double d;
    uint64_t u;
  } v = {x};
  int e = (int)((v.u >> 52) & 0x7ff) - 1023;
  v.u = (v.u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
  double m = v.d;
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e++;
  }
  double t = (m - 1) / (m + 1), t2 = t * t, s = 0;
  for (int k = 17; k >= 1; k -= 2)
    s = s * t2 + 1.0 / k;
  return 2 * t * s + e * 0.6931471805599453;
}

/* exp(-x) for 0 <= x < 64: e^-n by squaring, e^-r by its series. */
static double exp_neg(double x) {
  uint32_t n = (uint32_t)x;
  double r = x - n, er = 1, term = 1, en = 1, base = 0.36787944117144233;
  for (int k = 1; k <= 20; k++) {
    term *= -r / k;
    er += term;
  }
  for (; n; n >>= 1, base *= base)
    if (n & 1)
      en *= base;
  return en * er;
}

double mip_rt_heap_sample_chance(uint64_t rate, uint64_t size) {
  if (!size || !rate)
    return size ? 1 : 0;
  double x = (double)size / (double)rate;
  if (x >= 64)
    return 1;
  if (x >= 0.5)
    return 1 - exp_neg(x);
  /* 1 - e^-x = x - x^2/2 + x^3/6 - ..., without the cancellation */
  double term = x, sum = x;
  for (int k = 2; k <= 18; k++) {
    term *= -x / k;
    sum += term;
  }
  return sum;
}

void mip_rt_heap_sample_weigh(uint64_t rate, uint64_t size,
                              uint64_t *weight, uint64_t *bytes) {
  double p = mip_rt_heap_sample_chance(rate, size);
  if (p <= 0) {
    *weight = *bytes = 0;
    return;
  }
  *weight = (uint64_t)(MIP_RT_HEAP_SAMPLE_ONE / p + 0.5);
  *bytes = (uint64_t)((double)size / p + 0.5);
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* The thread's generator: from heap_sample_seed and the thread's number
 * in order of first sampling (the same runs with a seed), else from the
 * clock and the thread pointer. Never 0. */
static uint64_t seeded(void) {
  static uint64_t threads;
  uint64_t s = mip_rt_heap_sample_seed;
  if (s) {
    s = mix(s + mix(__atomic_add_fetch(&threads, 1, __ATOMIC_RELAXED)));
  } else {
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_MONOTONIC, &ts); /* cannot fail with errno here */
    s = mix(((uint64_t)ts.tv_sec << 30 ^ (uint64_t)ts.tv_nsec) +
            mix(mip_rt_thread_pointer()));
  }
  return s ? s : 1;
}

/* The distance to the next point: -rate * ln(u), u uniform in (0, 1]
 * (xorshift64*'s top 53 bits), at least 1. */
static uint64_t draw(uint64_t rate) {
  uint64_t x = sample_rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  sample_rng = x;
  double u = (double)(((x * 0x2545f4914f6cdd1dULL) >> 11) + 1) *
             (1.0 / 9007199254740992.0);
  double d = -(double)rate * ln(u);
  return d < 1 ? 1 : d > 1e18 ? (uint64_t)1e18 : (uint64_t)d;
}

int mip_rt_heap_sample_slow(uint64_t rate, uint64_t size) {
  if (!sample_rng) { /* the thread's first block: where its line starts */
    sample_rng = seeded();
    mip_rt_heap_sample_left = draw(rate);
    if (size < mip_rt_heap_sample_left) {
      mip_rt_heap_sample_left -= size;
      return 0;
    }
  }
  mip_rt_heap_sample_left = draw(rate); /* from the end of this block */
  return 1;
}

/* Only a state counting in the process's shadow marks (a unit test's
 * state has a shadow of its own), and only below what the shadow covers:
 * a free above it asks the table (heap.h). */
void mip_rt_heap_sample_mark(const struct mip_rt_heap *h, uintptr_t p,
                             int born) {
  if (h->shadow != MIP_RT_HEAP_SHADOW_OFFSET ||
      (uint64_t)p >= mip_rt_heap_shadow_covered)
    return;
  mip_rt_heap_counter *mark = mip_rt_heap_sample_mark_of(p);
  if (born)
    __atomic_add_fetch(mark, 1, __ATOMIC_RELAXED);
  else
    __atomic_sub_fetch(mark, 1, __ATOMIC_RELAXED);
}
