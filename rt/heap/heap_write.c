/*
 * The heap payloads of a raw profile (formats: include/mip/layout/
 * raw_heap_*.inc):
 *
 *   MIBS      header, schema (every field id of mib.inc, in order), one
 *             record per context with blocks: its stack id and site, then
 *             its MemInfoBlock
 *   STACKS    each of those contexts' call stack (id = context index)
 *   SEGMENTS  every executable segment of every object loaded now, with
 *             its build-id and path, to turn addresses into images
 *   STATS     the MIP_STAT_HEAP_* statistics, after any the image already
 *             had (call edges), since a profile has one STATS payload
 *
 * MIBS, STACKS and SEGMENTS have entries of varying size, each padded to
 * 8 bytes: their elem_size is 8.
 *
 * Each heap image's profile carries the contexts whose site lies in its
 * own __mip_site section, and the owner's also those without a site: the
 * owner's runtime takes the snapshot for every image (heap_owner.c, its
 * payloads op), since only it knows the state's layout. Statistics are the
 * calling image's: the process's (the owner's) or its own unseen frees.
 *
 * The raw writer needs every payload's size before it writes, while other
 * threads keep allocating, so the payloads come from a snapshot taken
 * first: a copy of the wanted contexts' MemInfoBlocks with each live block
 * merged in as if it died now (MemProf's view at exit: the blocks are not
 * closed, and LiveAtExitCount/Size say how many were still live), the
 * segments, in one mmap'd region, and the statistics in another, that the
 * writer releases afterwards (mip_rt_heap_contexts_release,
 * mip_rt_heap_stats_release). Stacks and records
 * are then streamed from the snapshot and the depot, whose entries never
 * change once written. No malloc anywhere, so a dump may come from a
 * signal handler.
 */
#include <elf.h>
#include <link.h>
#include <sys/mman.h>

#include "heap.h"
#include "sys.h"
#include "mip/layouts.h"

#define MAX_STATS 16
#define SEGMENT_SLACK 8192 /* for objects loaded between the two passes */

/* The contexts part: MIBS, STACKS, SEGMENTS. */
struct snapshot {
  uint64_t bytes; /* of the mapping */
  struct mip_rt_heap *h;
  uint32_t n; /* contexts [0, n) were looked at */
  uint32_t siteless; /* contexts without a site are wanted */
  uintptr_t site_lo, site_hi; /* so are those whose site is in here */
  uint64_t records;
  uint64_t stack_bytes;
  uint8_t *segments;
  uint64_t segments_cap, segments_size;
  uint8_t *wanted; /* n: the context's site is one of the above */
  struct mip_rt_mib mibs[]; /* n */
};

/* The statistics part: one STATS payload, and the owner's TIMELINE. */
struct stats {
  uint64_t bytes;
  uint64_t size;
  uint8_t data[MAX_STATS * mip_rec_raw_stat_size];
  struct mip_rt_heap_timeline timeline;
  struct mip_rt_heap_point points[MIP_RT_HEAP_POINTS];
};

static uint64_t align8(uint64_t v) { return (v + 7) & ~(uint64_t)7; }

enum {
  RECORD_SIZE = (mip_rec_raw_heap_context_size + MIP_RT_HEAP_MIB_BYTES + 7) &
                ~7,
  SCHEMA_SIZE = (4 * MIP_RT_HEAP_MIB_FIELDS + 7) & ~7,
  SEGMENT_SIZE = mip_rec_raw_heap_segment_size,
};

/* ---- Segments --------------------------------------------------------- */

struct segments {
  uint8_t *out; /* NULL: only measure */
  uint64_t cap, used;
};

static int build_id_note(const struct dl_phdr_info *info, uint32_t type,
                         const char *name, uint32_t name_size,
                         const uint8_t *desc, uint32_t desc_size, void *arg) {
  (void)info;
  struct mip_rec_raw_heap_segment *s = arg;
  if (type != NT_GNU_BUILD_ID || name_size != 4 || !mip_rt_streq(name, "GNU") ||
      desc_size > MIP_BUILD_ID_MAX)
    return 0;
  s->build_id_size = desc_size;
  mip_copy_bytes(s->build_id, desc, desc_size);
  return 1;
}

static int each_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct segments *sg = arg;
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  uint32_t name_size = (uint32_t)mip_rt_strlen(name);
  uint64_t entry = align8(SEGMENT_SIZE + name_size + 1);
  struct mip_rec_raw_heap_segment s = {0};
  int noted = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
      continue;
    if (sg->out) {
      if (sg->used + entry > sg->cap)
        return 1; /* loaded since the first pass: no room left */
      if (!noted++)
        mip_rt_each_note(info, build_id_note, &s);
      s.start = info->dlpi_addr + ph->p_vaddr;
      s.end = s.start + ph->p_memsz;
      s.load_bias = info->dlpi_addr;
      s.name_size = name_size;
      uint8_t *at = sg->out + sg->used;
      mip_rec_raw_heap_segment_encode(&s, at);
      mip_copy_bytes(at + SEGMENT_SIZE, (const uint8_t *)name, name_size);
      for (uint64_t j = SEGMENT_SIZE + name_size; j < entry; j++)
        at[j] = 0;
    }
    sg->used += entry;
  }
  return 0;
}

/* ---- Contexts --------------------------------------------------------- */

struct live_walk {
  struct snapshot *s;
  uint32_t now, cpu;
};

static void add_live(const struct mip_rt_heap_block *b, void *arg) {
  struct live_walk *w = arg;
  struct snapshot *s = w->s;
  const struct mip_rt_heap *h = s->h;
  if (b->context >= s->n || !s->wanted[b->context] ||
      b->generation != h->generation)
    return;
  struct mip_rt_mib m;
  mip_rt_heap_block_mib(&m, b, mip_rt_heap_shadow_sum(h->shadow, b->addr,
                                                      b->size),
                        w->now, w->cpu);
  m.LiveAtExitCount = 1;
  m.LiveAtExitSize = b->size;
  if (h->sample)
    mip_rt_heap_mib_weigh(&m, h->sample, b->size);
  struct mip_rt_mib *into = &s->mibs[b->context];
  if (!into->AllocCount) { /* the merge takes m whole: keep the context's */
    m.AtPeakSize = into->AtPeakSize;
    m.AtPeakCount = into->AtPeakCount;
    m.GhostFreeCount = into->GhostFreeCount;
  }
  mip_rt_heap_mib_merge(into, &m);
}

/* Whether context i goes into this profile. Its site is written before
 * its stack is published (heap_depot.c): a context without a stack yet
 * has no block either. */
static int wanted(const struct snapshot *s, uint32_t i) {
  uint32_t depth, flags;
  if (!mip_rt_heap_stack_of(s->h, i, &depth, &flags))
    return 0;
  uintptr_t site = s->h->contexts[i].site;
  return site ? site >= s->site_lo && site < s->site_hi : s->siteless != 0;
}

/* The epoch of the peak that stands now (heap_timeline.c). */
static uint64_t peak_epoch(struct mip_rt_heap *h) {
  int locked = mip_rt_heap_try_lock(&h->timeline.lock);
  uint64_t epoch = mip_rt_heap_timeline_epoch(&h->timeline);
  if (locked)
    mip_rt_heap_unlock(&h->timeline.lock);
  return epoch;
}

/* Whether a context is written: it had blocks, or frees of pointers never
 * seen allocated happened at its stack. */
static int has_record(const struct mip_rt_mib *m) {
  return m->AllocCount || m->GhostFreeCount;
}

static void take_contexts(struct snapshot *s, uint32_t now, uint32_t cpu) {
  struct mip_rt_heap *h = s->h;
  /* The contexts' locks keep the owner out once the state is shared
   * (heap.h, mip_rt_heap_share); a dump that finds the switch to multi
   * under way reads them as it reads a context whose lock it could not
   * get. */
  mip_rt_heap_share(&h->timeline, 200);
  uint64_t epoch = peak_epoch(h);
  for (uint32_t i = 0; i < s->n; i++) {
    struct mip_rt_heap_context *c = &h->contexts[i];
    if (!(s->wanted[i] = (uint8_t)wanted(s, i)))
      continue;
    int locked = mip_rt_heap_try_lock(&c->lock);
    s->mibs[i] = c->mib;
    uint64_t at_bytes, at_blocks;
    mip_rt_heap_at_peak(c, epoch, &at_bytes, &at_blocks);
    uint64_t ghosts = c->ghost_frees;
    if (locked)
      mip_rt_heap_unlock(&c->lock);
    /* The live blocks merged in below have 0 in these (add_live). */
    s->mibs[i].AtPeakSize = at_bytes;
    s->mibs[i].AtPeakCount = at_blocks;
    s->mibs[i].GhostFreeCount = ghosts;
  }
  struct live_walk w = {s, now, cpu};
  mip_rt_heap_table_walk(h, add_live, &w);
  for (uint32_t i = 0; i < s->n; i++) {
    struct mip_rt_mib *m = &s->mibs[i];
    uint32_t depth, flags;
    if (!s->wanted[i] || !has_record(m))
      continue;
    if (!mip_rt_heap_stack_of(h, i, &depth, &flags)) {
      m->AllocCount = 0; /* cannot happen: a block has a published stack */
      m->GhostFreeCount = 0;
      continue;
    }
    uint64_t peak = __atomic_load_n(&h->contexts[i].peak, __ATOMIC_RELAXED);
    if (peak > m->PeakLiveSize)
      m->PeakLiveSize = peak;
    s->records++;
    s->stack_bytes += mip_rec_raw_heap_stack_size + 8 * (uint64_t)depth;
  }
}

/* ---- Writers ---------------------------------------------------------- */

struct out {
  int fd;
  size_t n;
  uint8_t buf[4096];
};

/* Room for size more bytes in the buffer (flushing it); -1 on error. */
/* Room for size more bytes in o's buffer, which is written out when full:
 * 0, or -errno (the payload writers' contract, mip_rt.h). */
static int need(struct out *o, size_t size) {
  if (o->n + size <= sizeof o->buf)
    return 0;
  int rc = mip_rt_write_all(o->fd, o->buf, o->n);
  o->n = 0;
  return rc;
}

static int write_mibs(int fd, const struct mip_rt_payload *p) {
  const struct snapshot *s = (const void *)p->data;
  struct out o;
  o.fd = fd;
  o.n = 0;
  struct mip_rec_raw_heap_mibs head = {
      .field_count = MIP_RT_HEAP_MIB_FIELDS,
      .record_size = RECORD_SIZE,
      .record_count = s->records,
  };
  mip_rec_raw_heap_mibs_encode(&head, o.buf);
  o.n = mip_rec_raw_heap_mibs_size;
  for (int i = 0; i < SCHEMA_SIZE / 4; i++, o.n += 4)
    mip_put_le32(o.buf + o.n,
                 i < MIP_RT_HEAP_MIB_FIELDS ? mip_rt_heap_mib_ids[i] : 0);
  for (uint32_t i = 0; i < s->n; i++) {
    if (!s->wanted[i] || !has_record(&s->mibs[i]))
      continue;
    int rc = need(&o, RECORD_SIZE);
    if (rc)
      return rc;
    struct mip_rec_raw_heap_context c = {i, s->h->contexts[i].site};
    uint8_t *at = o.buf + o.n;
    mip_rec_raw_heap_context_encode(&c, at);
    mip_rt_heap_mib_encode(&s->mibs[i], at + mip_rec_raw_heap_context_size);
    for (int j = mip_rec_raw_heap_context_size + MIP_RT_HEAP_MIB_BYTES;
         j < RECORD_SIZE; j++)
      at[j] = 0;
    o.n += RECORD_SIZE;
  }
  return mip_rt_write_all(fd, o.buf, o.n);
}

static int write_stacks(int fd, const struct mip_rt_payload *p) {
  const struct snapshot *s = (const void *)p->data;
  struct out o;
  o.fd = fd;
  o.n = 0;
  for (uint32_t i = 0; i < s->n; i++) {
    uint32_t depth, flags;
    const uint64_t *frames;
    if (!s->wanted[i] || !has_record(&s->mibs[i]) ||
        !(frames = mip_rt_heap_stack_of(s->h, i, &depth, &flags)))
      continue;
    int rc = need(&o, mip_rec_raw_heap_stack_size + 8 * (size_t)depth);
    if (rc)
      return rc;
    struct mip_rec_raw_heap_stack e = {i, depth, flags};
    mip_rec_raw_heap_stack_encode(&e, o.buf + o.n);
    o.n += mip_rec_raw_heap_stack_size;
    for (uint32_t j = 0; j < depth; j++, o.n += 8)
      mip_put_le64(o.buf + o.n, frames[j]);
  }
  return mip_rt_write_all(fd, o.buf, o.n);
}

static int write_segments(int fd, const struct mip_rt_payload *p) {
  const struct snapshot *s = (const void *)p->data;
  return mip_rt_write_all(fd, s->segments, s->segments_size);
}

static int write_stats(int fd, const struct mip_rt_payload *p) {
  const struct stats *s = (const void *)p->data;
  return mip_rt_write_all(fd, s->data, s->size);
}

static uint64_t timeline_size(const struct stats *s) {
  return mip_rec_heap_peak_size + mip_rec_raw_heap_timeline_size +
         (uint64_t)s->timeline.count * mip_rec_heap_point_size;
}

static int write_timeline(int fd, const struct mip_rt_payload *p) {
  const struct stats *s = (const void *)p->data;
  const struct mip_rt_heap_timeline *t = &s->timeline;
  struct out o;
  o.fd = fd;
  struct mip_rec_heap_peak peak = {
      .bytes = t->peak_bytes,
      .blocks = t->peak_blocks,
      .event = t->peak_event,
      .events = mip_rt_heap_timeline_events(t),
      .interval = t->interval,
      .ms = t->peak_ms,
  };
  struct mip_rec_raw_heap_timeline head = {t->count, mip_rec_heap_point_size};
  mip_rec_heap_peak_encode(&peak, o.buf);
  mip_rec_raw_heap_timeline_encode(&head, o.buf + mip_rec_heap_peak_size);
  o.n = mip_rec_heap_peak_size + mip_rec_raw_heap_timeline_size;
  for (uint32_t i = 0; i < t->count; i++) {
    int rc = need(&o, mip_rec_heap_point_size);
    if (rc)
      return rc;
    const struct mip_rt_heap_point *q = &s->points[i];
    struct mip_rec_heap_point r = {q->event, q->ms, 0, q->bytes, q->blocks};
    mip_rec_heap_point_encode(&r, o.buf + o.n);
    o.n += mip_rec_heap_point_size;
  }
  return mip_rt_write_all(fd, o.buf, o.n);
}

/* A copy of h's timeline into s, under its lock when it can be had. */
static void take_timeline(struct stats *s, struct mip_rt_heap *h) {
  struct mip_rt_heap_timeline *t = &h->timeline;
  mip_rt_heap_share(t, 200); /* as take_contexts */
  int locked = mip_rt_heap_try_lock(&t->lock);
  s->timeline = *t;
  if (s->timeline.count > MIP_RT_HEAP_POINTS)
    s->timeline.count = MIP_RT_HEAP_POINTS; /* read while it halved */
  if (t->points)
    mip_copy_bytes((uint8_t *)s->points, (const uint8_t *)t->points,
                   s->timeline.count * sizeof *s->points);
  else
    s->timeline.count = 0;
  mip_rt_heap_timeline_settle(&s->timeline, s->points);
  if (locked)
    mip_rt_heap_unlock(&t->lock);
}

/* ---- Payloads --------------------------------------------------------- */

static void add_stat(struct stats *s, uint32_t key, uint64_t value) {
  if (s->size + mip_rec_raw_stat_size > sizeof s->data)
    return;
  struct mip_rec_raw_stat e = {key, 0, value};
  mip_rec_raw_stat_encode(&e, s->data + s->size);
  s->size += mip_rec_raw_stat_size;
}

static size_t add(struct mip_rt_payload *all, size_t count, size_t max,
                  uint32_t kind, uint32_t elem_size, uint64_t size,
                  const void *data,
                  int (*write)(int, const struct mip_rt_payload *)) {
  if (count == max)
    return count;
  all[count] = (struct mip_rt_payload){
      .kind = kind,
      .elem_size = elem_size,
      .size = size,
      .data = data,
      .write = write,
  };
  return count + 1;
}

size_t mip_rt_heap_stats_of(struct mip_rt_heap *h, uint64_t unseen_frees,
                            struct mip_rt_payload *all, size_t count,
                            size_t max) {
  uint64_t bytes = (sizeof(struct stats) + 4095) & ~(uint64_t)4095;
  struct stats *s = mip_rt_heap_map(bytes);
  if (!s) {
    mip_rt_report("heap profile left out: no memory for its snapshot");
    return count;
  }
  s->bytes = bytes;
  /* One STATS payload: the one already there (edges) goes first. */
  size_t stats_at = count;
  for (size_t i = 0; i < count; i++) {
    if (all[i].kind != MIP_RAW_STATS || all[i].write || !all[i].data)
      continue;
    uint64_t size = all[i].size < sizeof s->data / 2 ? all[i].size : 0;
    mip_copy_bytes(s->data, all[i].data, size);
    s->size = size;
    stats_at = i;
    break;
  }
  add_stat(s, MIP_STAT_HEAP_UNSEEN_FREES, unseen_frees);
  /* Every image's: its contexts' weights are the owner's rate, which
   * read the same MIP_OPTIONS. */
  if (mip_rt_heap_sample_option)
    add_stat(s, MIP_STAT_HEAP_SAMPLE_BYTES, mip_rt_heap_sample_option);
  if (h) {
    add_stat(s, MIP_STAT_HEAP_FREED_UNSEEN,
             h->stats[MIP_RT_HEAP_STAT_FREED_UNSEEN]);
    add_stat(s, MIP_STAT_HEAP_TRUNCATED_STACKS,
             h->stats[MIP_RT_HEAP_STAT_TRUNCATED]);
    add_stat(s, MIP_STAT_HEAP_DROPPED, h->stats[MIP_RT_HEAP_STAT_DROPPED]);
    add_stat(s, MIP_STAT_HEAP_STACK_DEPTH, h->depth);
    add_stat(s, MIP_STAT_HEAP_UNINTERPOSED,
             h->stats[MIP_RT_HEAP_STAT_UNINTERPOSED]);
    add_stat(s, MIP_STAT_HEAP_LIVE_UNINTERPOSED,
             h->stats[MIP_RT_HEAP_STAT_LIVE_UNINTERPOSED]);
  }
  size_t n = count;
  if (stats_at < count) {
    all[stats_at].elem_size = mip_rec_raw_stat_size;
    all[stats_at].size = s->size;
    all[stats_at].data = (const uint8_t *)s;
    all[stats_at].write = write_stats;
  } else if ((n = add(all, count, max, MIP_RAW_STATS, mip_rec_raw_stat_size,
                      s->size, s, write_stats)) == count) {
    munmap(s, bytes); /* no room even for that */
    return n;
  }
  if (h) /* the process's timeline, kept with its statistics */
    take_timeline(s, h);
  return n;
}

size_t mip_rt_heap_timeline_of(struct mip_rt_payload *all, size_t count,
                               size_t max) {
  for (size_t i = 0; i < count; i++)
    if (all[i].write == write_stats) {
      const struct stats *s = (const void *)all[i].data;
      return add(all, count, max, MIP_RAW_HEAP_TIMELINE, 8, timeline_size(s),
                 s, write_timeline);
    }
  return count;
}

size_t mip_rt_heap_contexts_of(struct mip_rt_heap *h, uintptr_t site_lo,
                               uintptr_t site_hi, int siteless, uint32_t now,
                               uint32_t cpu, struct mip_rt_payload *all,
                               size_t count, size_t max) {
  if (max - count < 3)
    return count;
  struct segments sg = {NULL, 0, 0};
  mip_rt_each_object(each_object, &sg);
  uint32_t n = __atomic_load_n(&h->context_count, __ATOMIC_ACQUIRE);
  n = n < h->context_cap ? n : h->context_cap;
  uint64_t cap = sg.used + SEGMENT_SLACK;
  uint64_t bytes = sizeof(struct snapshot) +
                   n * (sizeof(struct mip_rt_mib) + 1) + cap;
  bytes = (bytes + 4095) & ~(uint64_t)4095;
  struct snapshot *s = mip_rt_heap_map(bytes);
  if (!s) {
    mip_rt_report("heap profile left out: no memory for its snapshot");
    return count;
  }
  s->bytes = bytes;
  s->h = h;
  s->n = n;
  s->siteless = siteless != 0;
  s->site_lo = site_lo;
  s->site_hi = site_hi;
  s->wanted = (uint8_t *)&s->mibs[n];
  take_contexts(s, now, cpu);
  s->segments = s->wanted + n;
  s->segments_cap = cap;
  sg = (struct segments){s->segments, cap, 0};
  mip_rt_each_object(each_object, &sg);
  s->segments_size = sg.used;

  count = add(all, count, max, MIP_RAW_HEAP_MIBS, 8,
              mip_rec_raw_heap_mibs_size + SCHEMA_SIZE +
                  s->records * RECORD_SIZE,
              s, write_mibs);
  count = add(all, count, max, MIP_RAW_HEAP_STACKS, 8, s->stack_bytes, s,
              write_stacks);
  return add(all, count, max, MIP_RAW_HEAP_SEGMENTS, 8, s->segments_size, s,
             write_segments);
}

size_t mip_rt_heap_payloads_of(struct mip_rt_heap *h, uint64_t unseen_frees,
                               uint32_t now, uint32_t cpu,
                               struct mip_rt_payload *all, size_t count,
                               size_t max) {
  size_t n = mip_rt_heap_stats_of(h, unseen_frees, all, count, max);
  if (!h)
    return n;
  n = mip_rt_heap_contexts_of(h, 0, UINTPTR_MAX, 1, now, cpu, all, n, max);
  return mip_rt_heap_timeline_of(all, n, max);
}

/* Unmaps the region that the payload written by write holds, if any. */
static void release(struct mip_rt_payload *all, size_t count,
                    int (*write)(int, const struct mip_rt_payload *)) {
  for (size_t i = 0; i < count; i++) {
    if (all[i].write == write) {
      const uint64_t *bytes = (const void *)all[i].data; /* first field */
      munmap((void *)bytes, *bytes);
      return;
    }
  }
}

void mip_rt_heap_stats_release(struct mip_rt_payload *all, size_t count) {
  release(all, count, write_stats);
}

void mip_rt_heap_contexts_release(struct mip_rt_payload *all, size_t count) {
  release(all, count, write_mibs);
}

void mip_rt_heap_payloads_release(struct mip_rt_payload *all, size_t count) {
  mip_rt_heap_stats_release(all, count);
  mip_rt_heap_contexts_release(all, count);
}
