/*
 * One heap state per process. Every image built with heap mode carries
 * the heap runtime; the first whose runtime starts owns the state, and
 * the others forward every birth and death to it, so a block allocated in
 * one image and freed in another is one block. The rendezvous is the
 * shadow's header (heap.h): it sits at the same address in every image,
 * exists exactly when the shadow does, and holds the owner's ops, claimed
 * with one compare-and-swap, so two images starting at once cannot both
 * own it. The ops are versioned: an image meeting an owner of another
 * version says so once and does not profile.
 *
 * Start-up: an executable's first instrumented code can run before any
 * constructor of its own (shared libraries' constructors run first and
 * may call it), so the shadow is mapped from a .preinit_array entry the
 * instrumentation adds beside main (__mip_heap_preinit), and in every
 * image from a constructor of priority 1; a hook that runs before either
 * starts the runtime itself. In an executable built with heap mode the
 * preinit entry makes the executable the owner.
 *
 * Each heap image's raw profile (write.c, mip_dump included) carries the
 * contexts whose allocation site is in its own code, with their whole
 * stacks: the owner takes the snapshot for it (the payloads op), and
 * also writes, in its own, the contexts without a site and the process's
 * statistics. A shared library that owns the state gives it up
 * when it is unloaded, after its profile is written; the next image to
 * allocate then starts a new state, and blocks of the old one that die
 * later are unseen frees.
 *
 * fork: the child keeps the state's tables but starts with empty contexts
 * and statistics; blocks live at the fork belong to the parent and are
 * forgotten when they die in the child (docs/runtime.md: a child's
 * profile holds what the child did).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/random.h>

#include "heap.h"

uint32_t mip_rt_heap_depth = MIP_RT_HEAP_DEPTH_DEFAULT;
uint64_t mip_rt_heap_unseen_frees;

/* Defined (weak, hidden) by the heap interposer object that mipcc links
 * into every image with heap code (rt/interpose/, docs/heap.md): whether
 * this image is one. */
extern const char __mip_heap_interpose[] __attribute__((weak)) MIP_RT_HIDDEN;

static struct mip_rt_heap state;
static uint32_t phase; /* 0: not started, 1: starting, 2: started */
static pthread_t starter;
/* Started without a shadow (heap_shadow.c said why): no header either,
 * so no owner, and nothing is profiled. */
static uint32_t shadowless;

/* ---- The owner's side ------------------------------------------------- */

/* Starts fetching the first counters of a block at p, which are seldom
 * in the cache: its table lookup (and a birth's walk) run meanwhile. */
static void fetch_counters(struct mip_rt_heap *h, uintptr_t p) {
  if (h->shadow && (uint64_t)p < MIP_RT_HEAP_ADDR_LIMIT)
    __builtin_prefetch((const void *)(h->shadow +
                                      ((p >> MIP_RT_HEAP_GRANULE_SHIFT)
                                       << MIP_RT_HEAP_COUNTER_SHIFT)),
                       1);
}

/* The same and the block's table slot, for a birth: its walk, or the
 * check of a recent one, runs meanwhile. (A death looks its slot up at
 * once: fetching it first would only compute its place twice.) A small
 * block whose record goes beside it has no slot. */
static void fetch(struct mip_rt_heap *h, uintptr_t p, uint64_t size) {
  if (size >= MIP_RT_HEAP_TAIL_MAX ||
      !__atomic_load_n(&h->tail.usable, __ATOMIC_RELAXED))
    mip_rt_heap_table_prefetch(h, p);
  fetch_counters(h, p);
}

/* The context of the allocation whose hook's frame is fp. */
static uint32_t context_at(struct mip_rt_heap *h, const void *fp,
                           uint32_t depth, uintptr_t site) {
  uint32_t context, flags;
  uint64_t hit = mip_rt_heap_recent_again(fp, site, depth, h->serial);
  if (hit) {
    context = mip_rt_heap_recent_context(hit);
    flags = mip_rt_heap_recent_flags(hit);
  } else {
    struct mip_rt_heap_stack s;
    s.site = site;
    mip_rt_heap_unwind(fp, &s, depth);
    context = mip_rt_heap_context_hashed(h, &s, site);
    mip_rt_heap_recent_found(&s, context, h->serial);
    flags = s.flags;
  }
  if (flags & MIP_RT_HEAP_TRUNCATED)
    __atomic_fetch_add(&h->stats[MIP_RT_HEAP_STAT_TRUNCATED], 1,
                       __ATOMIC_RELAXED);
  return context;
}

/* Sampled (heap_sample): most blocks are not recorded, and cost no more
 * than the countdown. */
static void op_alloc(void *p, uint64_t size, uintptr_t site, const void *fp,
                     uint32_t depth, uint32_t block_flags) {
  struct mip_rt_heap *h = &state;
  /* A hook that read the option chose already (one draw per block). */
  if (h->sample && !(block_flags & MIP_RT_HEAP_CHOSEN) &&
      !mip_rt_heap_sampled(h->sample, size))
    return;
  block_flags &= ~MIP_RT_HEAP_CHOSEN;
  fetch(h, (uintptr_t)p, size);
  uint32_t context = __builtin_expect(h->off, 0)
                         ? MIP_RT_HEAP_UNRECORDED
                         : context_at(h, fp, depth, site);
  mip_rt_heap_context_prefetch(h, context);
  mip_rt_heap_born(h, (uintptr_t)p, size, context, block_flags,
                   mip_rt_heap_now(h), mip_rt_heap_cpu());
}

/* Most frees the interposed free sees are of blocks nobody tracks: the
 * table first, the clock and the CPU only for a block found there. */
static int op_take(const void *p, struct mip_rt_heap_taken *t) {
  if (!mip_rt_heap_table_take(&state, (uintptr_t)p, &t->block))
    return 0;
  mip_rt_heap_taken_at(&state, t, mip_rt_heap_now(&state), mip_rt_heap_cpu());
  return 1;
}

static void op_settle(const struct mip_rt_heap_taken *t, int died) {
  mip_rt_heap_settle(&state, t, died);
}

/* A free in instrumented code, of a block nearly always live. */
static int op_free(const void *p) {
  struct mip_rt_heap *h = &state;
  if (h->sample) {
    /* Most blocks were not recorded, and their frees are no ghosts: the
     * table first, as op_take does; never a ghost free. */
    struct mip_rt_heap_taken t;
    if (op_take(p, &t))
      mip_rt_heap_settle(h, &t, 1);
    return 1;
  }
  fetch_counters(h, (uintptr_t)p);
  return mip_rt_heap_free(h, (uintptr_t)p, mip_rt_heap_now(h),
                          mip_rt_heap_cpu());
}

/* The last block a realloc moved on this thread, for the hook that comes
 * right after it in instrumented code (which looks at it first when it
 * samples: heap_hooks.c). */
__thread uintptr_t mip_rt_heap_moved_from;
static __thread uint32_t moved_context;

static void op_settle_moved(const struct mip_rt_heap_taken *t, int died) {
  mip_rt_heap_settle(&state, t, died);
  /* A block of another generation (the parent's, or live at a reset)
   * is not followed: the new block is one of the realloc call's. */
  if (died && t->block.generation == state.generation) {
    mip_rt_heap_moved_from = t->block.addr;
    moved_context = t->block.context;
  } else if (died) {
    mip_rt_heap_moved_from = 0;
  }
}

/* The context the block a realloc of old returns belongs to: old's, if
 * the interposed realloc just moved it or it is still live (then it dies
 * now); 0 when MIP never saw a block at old. */
static int context_moved_from(struct mip_rt_heap *h, uintptr_t old,
                              uint32_t *context) {
  if (old && mip_rt_heap_moved_from == old) {
    mip_rt_heap_moved_from = 0;
    *context = moved_context;
    return 1;
  }
  struct mip_rt_heap_taken t;
  if (!old || !mip_rt_heap_take(h, old, &t, mip_rt_heap_now(h),
                                mip_rt_heap_cpu()))
    return 0;
  mip_rt_heap_settle(h, &t, 1);
  if (t.block.generation != h->generation)
    return 0; /* the parent's, before a fork */
  *context = t.block.context;
  return 1;
}

/* The stack is walked only when the new block does not inherit its
 * context. */
static void op_realloc(void *old, void *p, uint64_t size, uintptr_t site,
                       const void *fp, uint32_t depth) {
  struct mip_rt_heap *h = &state;
  uint32_t context;
  if (!h->sample)
    fetch(h, (uintptr_t)p, size);
  int moved = context_moved_from(h, (uintptr_t)old, &context);
  /* Sampled: the new block is recorded with its own chance, in the
   * context of the block it came from if that one was recorded. */
  if (h->sample && !mip_rt_heap_sampled(h->sample, size))
    return;
  if (!moved)
    context = h->off ? MIP_RT_HEAP_UNRECORDED
                     : context_at(h, fp, depth, site);
  mip_rt_heap_context_prefetch(h, context);
  mip_rt_heap_born(h, (uintptr_t)p, size, context,
                   old ? MIP_RT_HEAP_REALLOC : 0, mip_rt_heap_now(h),
                   mip_rt_heap_cpu());
}

static void op_ghost(uintptr_t site, const void *fp, uint32_t depth) {
  struct mip_rt_heap *h = &state;
  if (!h->off && !h->sample) /* sampled: a miss is no ghost */
    mip_rt_heap_ghost(h, context_at(h, fp, depth, site));
}

static int op_record(int on) { return mip_rt_heap_record(&state, on); }

static void op_reset(void) { mip_rt_heap_reset(&state); }

static size_t op_payloads(uintptr_t site_lo, uintptr_t site_hi,
                          struct mip_rt_payload *all, size_t count,
                          size_t max) {
  return mip_rt_heap_contexts_of(&state, site_lo, site_hi, 0,
                                 mip_rt_heap_now(&state), mip_rt_heap_cpu(),
                                 all, count, max);
}

static const struct mip_rt_heap_ops ops = {
    .version = MIP_RT_HEAP_OPS_VERSION,
    .size = sizeof(struct mip_rt_heap_ops),
    .alloc = op_alloc,
    .take = op_take,
    .settle = op_settle,
    .settle_moved = op_settle_moved,
    .realloc = op_realloc,
    .free = op_free,
    .payloads = op_payloads,
    .release = mip_rt_heap_contexts_release,
    .ghost = op_ghost,
    .record = op_record,
    .reset = op_reset,
};
/* The same, by a name the hooks compare the header's owner with (heap.h,
 * mip_rt_heap_sample_untracked). */
extern const struct mip_rt_heap_ops mip_rt_heap_image_ops
    __attribute__((alias("ops")));

static int owner_here(void) {
  return __atomic_load_n(&phase, __ATOMIC_ACQUIRE) == 2 && !shadowless &&
         __atomic_load_n(&MIP_RT_HEAP_HEADER->owner, __ATOMIC_ACQUIRE) ==
             &ops;
}

/* Takes ownership if nobody has it (the tables made first, under a lock
 * of this image's: two of its threads may find the state without owner
 * at once, when an owning library has been unloaded). 1 when this call
 * took it: the caller then redirects free where the process's free is not
 * an interposed one (heap_got.c), outside the lock. */
static int claim(void) {
  struct mip_rt_heap_header *hd = MIP_RT_HEAP_HEADER;
  static uint32_t failed, lock;
  if (__atomic_load_n(&hd->owner, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&failed, __ATOMIC_RELAXED))
    return 0;
  int saved = errno;
  mip_rt_heap_lock(&lock);
  if (!state.contexts) {
    struct mip_rt_heap_config config = {
        .shadow = MIP_RT_HEAP_SHADOW_OFFSET,
        .depth = mip_rt_heap_depth,
        .contexts = MIP_RT_HEAP_CONTEXTS,
        .depot_slots = MIP_RT_HEAP_DEPOT_SLOTS,
        .arena_words = MIP_RT_HEAP_ARENA_WORDS,
    };
    if (mip_rt_heap_init(&state, &config) != 0) {
      __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
      mip_rt_report("heap profiling off: no memory for its tables");
    } else {
      state.off = !mip_rt_heap_record_at_start;
      state.sample = mip_rt_heap_sample_option;
    }
  }
  const struct mip_rt_heap_ops *none = NULL;
  int took = state.contexts &&
             __atomic_compare_exchange_n(&hd->owner, &none, &ops, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  mip_rt_heap_unlock(&lock);
  errno = saved;
  return took;
}

/* ---- Options ---------------------------------------------------------- */

static const char *options_in(char **envp) {
  if (!envp)
    envp = environ;
  for (; envp && *envp; envp++) {
    const char *e = *envp, *want = "MIP_OPTIONS=";
    while (*want && *e == *want)
      e++, want++;
    if (!*want)
      return e;
  }
  return NULL;
}

/* A decimal number, with units a suffix K, M or G (2^10, 2^20, 2^30);
 * 0 when it is none or does not fit in 2^62. */
static int bytes_of(const char *v, int units, uint64_t *out) {
  uint64_t n = 0;
  size_t i = 0;
  for (; v[i] >= '0' && v[i] <= '9'; i++) {
    n = n * 10 + (uint64_t)(v[i] - '0');
    if (n >> 62)
      return 0;
  }
  uint32_t shift = 0;
  if (units && i && v[i]) {
    shift = v[i] == 'K' ? 10 : v[i] == 'M' ? 20 : v[i] == 'G' ? 30 : 64;
    if (shift == 64 || v[i + 1] || n >> (62 - shift))
      return 0;
    i++;
  }
  *out = n << shift;
  return i && !v[i];
}

/* The heap_* settings of MIP_OPTIONS, "key=value:key=value" (options.c
 * leaves them to us): heap_stack_depth=N, 1 to MIP_RT_HEAP_DEPTH_MAX;
 * heap_patch=0|1 (heap_got.c); heap_record=0|1 (heap_region.c);
 * heap_sample=BYTES and heap_sample_seed=N (heap_sample.c). */
static void read_options(const char *text, int quiet) {
  while (text && *text) {
    char key[64], value[64];
    size_t k = 0, v = 0;
    for (; *text && *text != ':' && *text != '='; text++)
      if (k + 1 < sizeof key)
        key[k++] = *text;
    key[k] = '\0';
    int has_value = *text == '=';
    for (text += has_value; *text && *text != ':'; text++)
      if (v + 1 < sizeof value)
        value[v++] = *text;
    value[v] = '\0';
    if (*text == ':')
      text++;
    if (mip_rt_streq(key, "heap_stack_depth")) {
      uint32_t n = 0;
      size_t i = 0;
      for (; value[i] >= '0' && value[i] <= '9' && n <= MIP_RT_HEAP_DEPTH_MAX;
           i++)
        n = n * 10 + (uint32_t)(value[i] - '0');
      if (has_value && i && !value[i] && n >= 1 &&
          n <= MIP_RT_HEAP_DEPTH_MAX)
        mip_rt_heap_depth = n;
      else if (!quiet)
        mip_rt_report("MIP_OPTIONS: heap_stack_depth wants a number from 1 "
                      "to 128, not '",
                      value, "' (ignored)");
    } else if (mip_rt_streq(key, "heap_record")) {
      if (has_value && (mip_rt_streq(value, "0") || mip_rt_streq(value, "1")))
        mip_rt_heap_record_at_start = value[0] == '1';
      else if (!quiet)
        mip_rt_report("MIP_OPTIONS: heap_record wants 0 or 1, not '", value,
                      "' (ignored)");
    } else if (mip_rt_streq(key, "heap_sample") ||
               mip_rt_streq(key, "heap_sample_seed")) {
      uint64_t n;
      int seed = key[11] == '_';
      if (has_value && bytes_of(value, !seed, &n))
        *(seed ? &mip_rt_heap_sample_seed : &mip_rt_heap_sample_option) = n;
      else if (!quiet)
        mip_rt_report("MIP_OPTIONS: ", key,
                      seed ? " wants a number, not '"
                           : " wants a number of bytes (K, M, G: KiB, MiB, "
                             "GiB), not '",
                      value, "' (ignored)");
    } else if (mip_rt_streq(key, "heap_patch")) {
      if (has_value && (mip_rt_streq(value, "0") || mip_rt_streq(value, "1")))
        mip_rt_heap_patch = value[0] == '1';
      else if (!quiet)
        mip_rt_report("MIP_OPTIONS: heap_patch wants 0 or 1, not '", value,
                      "' (ignored)");
    } else if (!quiet && key[0] == 'h' && key[1] == 'e' && key[2] == 'a' &&
               key[3] == 'p' && key[4] == '_') {
      mip_rt_report("MIP_OPTIONS: unknown option '", key, "' (ignored)");
    }
  }
}

/* ---- Payloads (write.c) ------------------------------------------------ */

/* This image's site bytes: the contexts its profile carries. */
extern const uint8_t __start___mip_site[] __attribute__((weak)) MIP_RT_HIDDEN;
extern const uint8_t __stop___mip_site[] __attribute__((weak)) MIP_RT_HIDDEN;

/* Statistics: the process's when this image owns the state, else its own
 * unseen frees. Contexts: those whose site is this image's (and, for the
 * owner, those without a site), from the owner's state. */
static size_t add_payloads(struct mip_rt_payload *all, size_t count,
                           size_t max) {
  if (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 2)
    return count;
  int owner = owner_here();
  if (owner)
    mip_rt_heap_loss_note(&state);
  size_t n = mip_rt_heap_stats_of(
      owner ? &state : NULL,
      __atomic_load_n(&mip_rt_heap_unseen_frees, __ATOMIC_RELAXED), all, count,
      max);
  uintptr_t lo = (uintptr_t)__start___mip_site;
  uintptr_t hi = (uintptr_t)__stop___mip_site;
  if (owner)
    return mip_rt_heap_timeline_of(
        all,
        mip_rt_heap_contexts_of(&state, lo, hi, 1, mip_rt_heap_now(&state),
                                mip_rt_heap_cpu(), all, n, max),
        max);
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner_if_any();
  return o && lo < hi ? o->payloads(lo, hi, all, n, max) : n;
}

/* The owner's snapshot goes back to the owner that took it: this image's
 * runtime, or the one owning the state now (its release finds nothing of
 * another's). */
static void release_payloads(struct mip_rt_payload *all, size_t count) {
  mip_rt_heap_stats_release(all, count);
  mip_rt_heap_contexts_release(all, count);
  const struct mip_rt_heap_ops *o = mip_rt_heap_owner_if_any();
  if (o && o != &ops)
    o->release(all, count);
}

/* Pool mode's merge of heap data (merge_heap.c), linked only with pool
 * mode (mipcc -fmip-pool): a weak reference, NULL without it. */
extern __typeof__(mip_rt_merge_heap) mip_rt_merge_heap __attribute__((weak));

/* The program's errno kept around both: the core that calls them never
 * touches it itself (sys.h). */
static size_t add_payloads_keeping_errno(struct mip_rt_payload *all,
                                         size_t count, size_t max) {
  int saved = errno;
  size_t n = add_payloads(all, count, max);
  errno = saved;
  return n;
}

static void release_payloads_keeping_errno(struct mip_rt_payload *all,
                                           size_t count) {
  int saved = errno;
  release_payloads(all, count);
  errno = saved;
}

static const struct mip_rt_payload_source payloads = {
    .add = add_payloads_keeping_errno,
    .release = release_payloads_keeping_errno,
    .merge = mip_rt_merge_heap,
};

/* ---- Start-up --------------------------------------------------------- */

void mip_rt_heap_start(char **envp) {
  if (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) == 2)
    return;
  uint32_t idle = 0;
  if (!__atomic_compare_exchange_n(&phase, &idle, 1, 0, __ATOMIC_ACQUIRE,
                                   __ATOMIC_ACQUIRE)) {
    if (pthread_equal(__atomic_load_n(&starter, __ATOMIC_RELAXED),
                      pthread_self()))
      return; /* called back while starting: not yet */
    while (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 2)
      sched_yield();
    return;
  }
  __atomic_store_n(&starter, pthread_self(), __ATOMIC_RELAXED);
  int saved = errno;
  if (!mip_rt_heap_shadow_map()) {
    shadowless = 1;
    errno = saved;
    __atomic_store_n(&phase, 2, __ATOMIC_RELEASE);
    return;
  }
  mip_rt_heap_payloads = &payloads;
  /* Every image reads the same MIP_OPTIONS: only the first to start
   * reports what is wrong with the heap settings. */
  int first = !__atomic_load_n(&MIP_RT_HEAP_HEADER->owner, __ATOMIC_ACQUIRE);
  read_options(options_in(envp), !first);
  int took = claim();
  errno = saved;
  __atomic_store_n(&phase, 2, __ATOMIC_RELEASE);
  __atomic_store_n(&mip_rt_heap_own_ops, &ops, __ATOMIC_RELEASE);
  /* From a constructor or the preinit entry (envp), no other thread can
   * be loading an object. */
  if (took)
    mip_rt_heap_got_start(envp != NULL);
}

/* The last other owner found compatible. */
static const struct mip_rt_heap_ops *checked;

/* Whether another image's owner speaks this image's version. */
static const struct mip_rt_heap_ops *check(const struct mip_rt_heap_ops *o) {
  static uint32_t warned;
  if (o->version != MIP_RT_HEAP_OPS_VERSION ||
      o->size < sizeof(struct mip_rt_heap_ops)) {
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      mip_rt_report("heap profiling off in an image whose MIP runtime "
                    "differs from the one that owns the heap state");
    return NULL;
  }
  __atomic_store_n(&checked, o, __ATOMIC_RELAXED);
  return o;
}

/* An owner this image can talk to, or NULL. */
static inline __attribute__((always_inline)) const struct mip_rt_heap_ops *
usable(const struct mip_rt_heap_ops *o) {
  if (__builtin_expect(!o || o == &ops, 1) ||
      o == __atomic_load_n(&checked, __ATOMIC_RELAXED))
    return o;
  return check(o);
}

const struct mip_rt_heap_ops *mip_rt_heap_own_ops;

const struct mip_rt_heap_ops *mip_rt_heap_owner_slow(void) {
  if (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 2) {
    mip_rt_heap_start(NULL);
    if (__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 2)
      return NULL;
  }
  if (shadowless)
    return NULL;
  struct mip_rt_heap_header *hd = MIP_RT_HEAP_HEADER;
  const struct mip_rt_heap_ops *o = __atomic_load_n(&hd->owner,
                                                    __ATOMIC_ACQUIRE);
  if (!o) {
    if (claim())
      mip_rt_heap_got_start(0);
    o = __atomic_load_n(&hd->owner, __ATOMIC_ACQUIRE);
  }
  return usable(o);
}

const struct mip_rt_heap_ops *mip_rt_heap_owner_if_any(void) {
  if ((__atomic_load_n(&phase, __ATOMIC_ACQUIRE) != 2 || shadowless) &&
      !mip_rt_heap_shadow_present())
    return NULL;
  return usable(__atomic_load_n(&MIP_RT_HEAP_HEADER->owner, __ATOMIC_ACQUIRE));
}

/* fork: the owner's shard locks are taken before the fork, so that no
 * table is caught half changed, and released on both sides. */
static uint32_t locked_for_fork;

static void before_fork(void) {
  locked_for_fork = owner_here();
  if (locked_for_fork)
    mip_rt_heap_lock_all(&state);
}

static void after_fork_in_parent(void) {
  if (locked_for_fork)
    mip_rt_heap_unlock_all(&state);
}

static void after_fork_in_child(void) {
  if (locked_for_fork)
    mip_rt_heap_forget(&state);
  __atomic_store_n(&mip_rt_heap_unseen_frees, 0, __ATOMIC_RELAXED);
}

/* Executables: from the .preinit_array entry the instrumentation puts
 * beside main, before any shared library's constructor. getenv does not
 * work yet there (environ is set later), hence envp. */
MIP_RT_HIDDEN void __mip_heap_preinit(int argc, char **argv, char **envp);

void __mip_heap_preinit(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  mip_rt_heap_start(envp);
}

/* Records beside small blocks (heap_tail.c): where this image owns the
 * state, records every block, and its interposed malloc family is the
 * process's (so it is the executable: only executables define one).
 * Elsewhere its interposed functions add no room. Where the bits cannot
 * be mapped (under valgrind) the table keeps every block, and the room
 * stays: blocks lie as they would with records, and share the shadow's
 * granules alike. */
static void start_tails(void) {
  if (!owner_here() || state.sample) {
    mip_rt_heap_interpose_tail(NULL);
    return;
  }
  mip_rt_heap_usable_fn usable = mip_rt_heap_interpose_tail(&state.tail);
  uint64_t secret = (uint64_t)(uintptr_t)&state * 0x9e3779b97f4a7c15ULL;
  uint64_t drawn;
  if (getrandom(&drawn, sizeof drawn, GRND_NONBLOCK) == sizeof drawn)
    secret ^= drawn;
  if (usable)
    mip_rt_heap_tail_init(&state.tail, usable, secret);
}

static void heap_init(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  /* The runtime objects are linked into the unit tests too, which are no
   * heap image and must not map the shadow. */
  if (!__mip_heap_interpose)
    return;
  mip_rt_heap_start(envp);
  mip_rt_heap_interpose_init();
  start_tails();
  if (pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child))
    mip_rt_report("cannot register a fork handler: a forked child's heap "
                  "profile will repeat its parent's");
}

/* A library that owns the state gives it up when it is unloaded (its
 * profile written by then: this runs after the destructor of priority 101
 * in exit.c), and returns the tables' memory, so that loading and
 * unloading it again and again does not pile them up. The executable
 * keeps it until the process ends. */
static void heap_fini(void) {
  if (!owner_here() || mip_rt_self()->is_main)
    return;
  /* Every redirected GOT slot back first: its code is about to go. */
  mip_rt_heap_got_stop();
  const struct mip_rt_heap_ops *mine = &ops;
  if (__atomic_compare_exchange_n(&MIP_RT_HEAP_HEADER->owner, &mine, NULL, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    mip_rt_heap_destroy(&state);
}

/* Priority 1: before the image's other constructors (C++ static
 * initializers included) can run instrumented code; glibc passes
 * argc, argv and envp to init_array functions. */
__attribute__((section(".init_array.00001"), used)) static void (
    *heap_init_entry)(int, char **, char **) = heap_init;
__attribute__((section(".fini_array.00100"), used)) static void (
    *heap_fini_entry)(void) = heap_fini;
