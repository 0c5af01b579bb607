/*
 * Heap contexts of a pooled file. A context is an allocation site and a
 * call stack of return addresses; its MemInfoBlock sums up its blocks.
 * Addresses differ from run to run (ASLR, libraries loaded or not), so
 * the pooled file keeps one address space of its own, made of the
 * executable segments of every object any of its runs loaded (the
 * SEGMENTS payload): an object's segment found in the file keeps its place
 * there, one that is not is placed where the file had it if that is free,
 * else above everything the file has. A run's addresses move with their
 * segment (address - load_bias, which is all `mipdata merge` reads of
 * them, stays as it was); an address in no segment becomes UNKNOWN,
 * which no segment holds (a segment ends before 2^64 - 1), as any such
 * address is to mipdata: "[unknown]". A run's site moves with the image's
 * own segment.
 *
 * Contexts with the same site, flags and translated stack are then one,
 * their MemInfoBlocks combined by lib's rules (merge_mib.c), which are
 * commutative and associative: mipdata, combining what symbolizes alike,
 * gets what it gets from the runs one by one. Nothing is merged that
 * mipdata would keep apart; it may combine further what this keeps apart.
 */
#include "merge.h"
#include "mip/layouts.h"
#include "mip/link.h"

/* What mipcc -fmip-pool names with -u in a heap image: it pulls this file
 * out of libmip_rt.a, which heap_owner.c refers to weakly only, so that
 * heap images without pool mode leave it out (include/mip/link.h). */
MIP_RT_HIDDEN const char mip_rt_pool_heap_anchor
    __asm__(MIP_RT_POOL_HEAP_SYMBOL) = 1;

#define UNKNOWN UINT64_MAX
#define PAGE 4096ULL

static int bad(struct mip_rt_merge *m, const char *what) {
  return mip_rt_why_set(&m->why, "it is not a valid raw profile (", what, ")",
                        NULL);
}

static int no_memory(struct mip_rt_merge *m) {
  return mip_rt_why_set(&m->why, "no memory for the merge", NULL);
}

static uint64_t align8(uint64_t v) { return (v + 7) & ~7ULL; }

/* ---- MemInfoBlock records (mib.inc, every field, in order) ------------- */

#define WIDTH_u32 4
#define WIDTH_u64 8
static const uint8_t mib_width[MIP_MIB_COUNT] = {
#define MIP_MIB_FIELD(id, Name, type) WIDTH_##type,
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};
static const uint32_t mib_id[MIP_MIB_COUNT] = {
#define MIP_MIB_FIELD(id, Name, type) id,
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
};
enum {
  MIB_BYTES = 0
#define MIP_MIB_FIELD(id, Name, type) +WIDTH_##type
#include "mip/layout/mib.inc"
#undef MIP_MIB_FIELD
  ,
  RECORD_SIZE = (mip_rec_raw_heap_context_size + MIB_BYTES + 7) & ~7,
  SCHEMA_SIZE = (4 * MIP_MIB_COUNT + 7) & ~7,
};

static void mib_decode(const uint8_t *p, struct mip_mib *mib) {
  for (int i = 0; i < MIP_MIB_COUNT; p += mib_width[i], i++)
    mib->v[i] = mib_width[i] == 4 ? mip_get_le32(p) : mip_get_le64(p);
}

static void mib_encode(const struct mip_mib *mib, uint8_t *p) {
  for (int i = 0; i < MIP_MIB_COUNT; p += mib_width[i], i++)
    if (mib_width[i] == 4)
      mip_put_le32(p, (uint32_t)mib->v[i]);
    else
      mip_put_le64(p, mib->v[i]);
}

/* ---- segments ---------------------------------------------------------- */

struct segment {
  uint64_t start, end, bias;
  uint64_t delta; /* a run's: what moves its addresses into the file's */
  uint32_t id_size, name_size;
  const uint8_t *build_id;
  const char *name;
  int placed; /* a run's: delta known */
};

struct segments {
  struct segment *list; /* sorted by start, none overlapping */
  uint64_t count;
};

/* Entries of a SEGMENTS payload, each checked; count only when out is
 * NULL. */
static int64_t read_segments(const struct mip_rt_section *s,
                             struct segment *out) {
  uint64_t at = 0, n = 0;
  while (at < s->size) {
    if (s->size - at < mip_rec_raw_heap_segment_size)
      return -1;
    struct mip_rec_raw_heap_segment r;
    mip_rec_raw_heap_segment_decode(&r, s->data + at);
    uint64_t name = at + mip_rec_raw_heap_segment_size;
    if (r.build_id_size > MIP_BUILD_ID_MAX || r.start >= r.end ||
        r.name_size >= s->size - name || s->data[name + r.name_size] ||
        align8(name + r.name_size + 1) > s->size)
      return -1;
    for (uint32_t i = 0; i < r.name_size; i++)
      if (!s->data[name + i])
        return -1;
    if (out)
      out[n] = (struct segment){
          r.start, r.end, r.load_bias, 0, r.build_id_size, r.name_size,
          s->data + at + (mip_rec_raw_heap_segment_size - MIP_BUILD_ID_MAX),
          (const char *)s->data + name, 0};
    n++;
    at = align8(name + r.name_size + 1);
  }
  return (int64_t)n;
}

/* Heapsort by start: no allocation, and no quadratic time on a file
 * that lists many segments out of order. */
static void sift_down(struct segment *list, uint64_t at, uint64_t count) {
  for (uint64_t child; (child = 2 * at + 1) < count; at = child) {
    if (child + 1 < count && list[child + 1].start > list[child].start)
      child++;
    if (list[at].start >= list[child].start)
      return;
    struct segment t = list[at];
    list[at] = list[child];
    list[child] = t;
  }
}

static void sort_segments(struct segments *s) {
  for (uint64_t i = s->count / 2; i-- > 0;)
    sift_down(s->list, i, s->count);
  for (uint64_t n = s->count; n > 1; n--) {
    struct segment t = s->list[0];
    s->list[0] = s->list[n - 1];
    s->list[n - 1] = t;
    sift_down(s->list, 0, n - 1);
  }
}

static int segments_of(struct mip_rt_merge *m, const struct mip_rt_view *v,
                       uint64_t room, struct segments *out) {
  const struct mip_rt_section *s = mip_rt_view_find(v, MIP_RAW_HEAP_SEGMENTS);
  int64_t n = s ? read_segments(s, NULL) : 0;
  if (n < 0)
    return bad(m, "a bad heap segment");
  out->count = (uint64_t)n;
  out->list = mip_rt_arena_alloc(&m->arena, ((uint64_t)n + room + 1) *
                                                sizeof *out->list);
  if (!out->list)
    return no_memory(m);
  if (s)
    read_segments(s, out->list);
  sort_segments(out);
  for (uint64_t i = 1; i < out->count; i++)
    if (out->list[i].start < out->list[i - 1].end)
      return bad(m, "heap segments overlap");
  return 0;
}

/* The segment holding addr, or NULL. */
static const struct segment *segment_at(const struct segments *s,
                                        uint64_t addr) {
  uint64_t lo = 0, hi = s->count;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (s->list[mid].start <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo && addr < s->list[lo - 1].end ? &s->list[lo - 1] : NULL;
}

static uint64_t translate(const struct segments *s, uint64_t addr) {
  const struct segment *seg = segment_at(s, addr);
  return seg ? addr + seg->delta : UNKNOWN;
}

static int same_object(const struct segment *a, const struct segment *b) {
  if (a->id_size != b->id_size || a->name_size != b->name_size)
    return 0;
  for (uint32_t i = 0; i < a->id_size; i++)
    if (a->build_id[i] != b->build_id[i])
      return 0;
  for (uint32_t i = 0; i < a->name_size; i++)
    if (a->name[i] != b->name[i])
      return 0;
  return 1;
}

/* The same segment of the same object: where the file has it. */
static const struct segment *find_segment(const struct segments *file,
                                          const struct segment *r) {
  for (uint64_t i = 0; i < file->count; i++) {
    const struct segment *f = &file->list[i];
    if (f->start - f->bias == r->start - r->bias &&
        f->end - f->bias == r->end - r->bias && same_object(f, r))
      return f;
  }
  return NULL;
}

static int overlaps(const struct segments *file, uint64_t start, uint64_t end) {
  for (uint64_t i = 0; i < file->count; i++)
    if (start < file->list[i].end && file->list[i].start < end)
      return 1;
  return 0;
}

/* Places the run's segments of one object (same object, same load bias
 * as run->list[first]) that the file lacks, all by one delta: where they
 * are if that is free, else above the file's last segment. */
static int place_object(struct segments *file, struct segments *run,
                        uint64_t first) {
  const struct segment *r0 = &run->list[first];
  uint64_t low = UINT64_MAX, high = 0, top = 0;
  int clash = 0;
  for (uint64_t i = first; i < run->count; i++) {
    const struct segment *r = &run->list[i];
    if (r->placed || r->bias != r0->bias || !same_object(r, r0))
      continue;
    low = r->start < low ? r->start : low;
    high = r->end > high ? r->end : high;
    clash |= overlaps(file, r->start, r->end);
  }
  for (uint64_t i = 0; i < file->count; i++)
    top = file->list[i].end > top ? file->list[i].end : top;
  uint64_t delta = 0;
  if (clash) {
    /* A file's segment can end anywhere below 2^64 (the file is input):
     * no rounding, and no room left, may wrap. */
    if (top > UINT64_MAX - 2 * PAGE)
      return -1;
    top = (top + PAGE - 1) & ~(PAGE - 1);
    low &= ~(PAGE - 1);
    if (top < low || high - low > UINT64_MAX - PAGE - top)
      return -1; /* no room above (cannot happen in 64 bits of user space) */
    delta = top - low;
  }
  for (uint64_t i = first; i < run->count; i++) {
    struct segment *r = &run->list[i];
    if (r->placed || r->bias != r0->bias || !same_object(r, r0))
      continue;
    r->delta = delta;
    r->placed = 1;
    struct segment *f = &file->list[file->count++];
    *f = *r;
    f->start += delta, f->end += delta, f->bias += delta, f->delta = 0;
  }
  sort_segments(file);
  return 0;
}

/* Gives each of the run's segments its delta, adding to the file's
 * segments those it lacks (file has room for all of the run's). */
static int place_segments(struct mip_rt_merge *m, struct segments *file,
                          struct segments *run) {
  for (uint64_t i = 0; i < run->count; i++) {
    const struct segment *f = find_segment(file, &run->list[i]);
    if (f) {
      run->list[i].delta = f->start - run->list[i].start;
      run->list[i].placed = 1;
    }
  }
  for (uint64_t i = 0; i < run->count; i++)
    if (!run->list[i].placed && place_object(file, run, i))
      return mip_rt_why_set(&m->why, "no room for this run's segments in "
                                     "the file's address space", NULL);
  return 0;
}

/* ---- stacks ------------------------------------------------------------ */

struct stack {
  uint64_t id;
  uint32_t depth, flags;
  const uint8_t *frames;
};

struct stacks {
  struct stack *list;
  uint64_t count;
  uint32_t *slots; /* index + 1 by id; 0: free */
  uint64_t mask;
};

static int64_t read_stacks(const struct mip_rt_section *s, struct stack *out) {
  uint64_t at = 0, n = 0;
  while (at < s->size) {
    if (s->size - at < mip_rec_raw_heap_stack_size)
      return -1;
    struct mip_rec_raw_heap_stack r;
    mip_rec_raw_heap_stack_decode(&r, s->data + at);
    uint64_t frames = at + mip_rec_raw_heap_stack_size;
    if (r.depth > (s->size - frames) / 8)
      return -1;
    if (out)
      out[n] = (struct stack){r.id, r.depth, r.flags, s->data + frames};
    n++;
    at = frames + 8 * (uint64_t)r.depth;
  }
  return (int64_t)n;
}

static const struct stack *find_stack(const struct stacks *t, uint64_t id) {
  for (uint64_t at = mip_rt_mix(0, id);; at++) {
    uint32_t slot = t->slots[at & t->mask];
    if (!slot || t->list[slot - 1].id == id)
      return slot ? &t->list[slot - 1] : NULL;
  }
}

static int stacks_of(struct mip_rt_merge *m, const struct mip_rt_view *v,
                     struct stacks *t) {
  const struct mip_rt_section *s = mip_rt_view_find(v, MIP_RAW_HEAP_STACKS);
  int64_t n = s ? read_stacks(s, NULL) : 0;
  if (n < 0 || n >= (int64_t)(UINT32_MAX / 2))
    return bad(m, "a bad heap stack");
  t->count = (uint64_t)n;
  for (t->mask = 1; t->mask < 2 * t->count;)
    t->mask <<= 1;
  t->list = mip_rt_arena_alloc(&m->arena, (t->count + 1) * sizeof *t->list);
  t->slots = mip_rt_arena_alloc(&m->arena, 4 * t->mask);
  if (!t->list || !t->slots)
    return no_memory(m);
  t->mask--;
  if (s)
    read_stacks(s, t->list);
  for (uint64_t i = 0; i < t->count; i++) {
    if (find_stack(t, t->list[i].id))
      return bad(m, "a heap stack id twice");
    uint64_t at = mip_rt_mix(0, t->list[i].id);
    while (t->slots[at & t->mask])
      at++;
    t->slots[at & t->mask] = (uint32_t)(i + 1);
  }
  return 0;
}

/* ---- contexts ---------------------------------------------------------- */

struct context {
  uint64_t hash, site;
  uint32_t depth, flags;
  uint64_t *frames; /* translated */
  struct mip_mib mib;
};

struct contexts {
  struct context *list;
  uint64_t count;
  uint32_t *slots; /* index + 1; 0: free */
  uint64_t mask;
  uint64_t frames; /* of all contexts, for the STACKS payload */
};

/* The records of a MIBS payload: their number, or -1. */
static int64_t records(const struct mip_rt_section *s) {
  if (s->elem_size != 8 || s->size < mip_rec_raw_heap_mibs_size + SCHEMA_SIZE)
    return -1;
  struct mip_rec_raw_heap_mibs h;
  mip_rec_raw_heap_mibs_decode(&h, s->data);
  if (h.field_count != MIP_MIB_COUNT || h.record_size != RECORD_SIZE)
    return -1;
  for (uint32_t i = 0; i < MIP_MIB_COUNT; i++)
    if (mip_get_le32(s->data + mip_rec_raw_heap_mibs_size + 4 * i) != mib_id[i])
      return -1;
  uint64_t body = s->size - mip_rec_raw_heap_mibs_size - SCHEMA_SIZE;
  if (h.record_count > body / RECORD_SIZE ||
      h.record_count * RECORD_SIZE != body || h.record_count >= UINT32_MAX / 4)
    return -1;
  return (int64_t)h.record_count;
}

static int same_context(const struct context *a, const struct context *b) {
  if (a->hash != b->hash || a->site != b->site || a->depth != b->depth ||
      a->flags != b->flags)
    return 0;
  for (uint32_t i = 0; i < a->depth; i++)
    if (a->frames[i] != b->frames[i])
      return 0;
  return 1;
}

/* Adds c (its frames in the arena) to the table, or its MemInfoBlock to
 * the context already there. */
static void add_context(struct contexts *t, const struct context *c) {
  for (uint64_t at = c->hash;; at++) {
    uint32_t *slot = &t->slots[at & t->mask];
    if (!*slot) {
      t->list[t->count] = *c;
      *slot = (uint32_t)++t->count;
      t->frames += c->depth;
      return;
    }
    struct context *found = &t->list[*slot - 1];
    if (same_context(found, c)) {
      mip_rt_mib_merge(&found->mib, &c->mib);
      return;
    }
  }
}

/* Adds the contexts of v, their addresses moved by segs (site by
 * site_delta; a site of 0 is none). */
static int add_contexts(struct mip_rt_merge *m, struct contexts *t,
                        const struct mip_rt_view *v, const struct segments *segs,
                        uint64_t site_delta, int clear_at_peak) {
  const struct mip_rt_section *s = mip_rt_view_find(v, MIP_RAW_HEAP_MIBS);
  struct stacks stacks;
  if (!s || stacks_of(m, v, &stacks))
    return s ? -1 : 0;
  int64_t n = records(s);
  const uint8_t *at = s->data + mip_rec_raw_heap_mibs_size + SCHEMA_SIZE;
  for (int64_t i = 0; i < n; i++, at += RECORD_SIZE) {
    struct mip_rec_raw_heap_context head;
    mip_rec_raw_heap_context_decode(&head, at);
    const struct stack *st = find_stack(&stacks, head.stack);
    if (!st)
      return bad(m, "a heap context without its stack");
    struct context c; /* every field set below */
    c.site = head.site ? head.site + site_delta : 0;
    c.depth = st->depth;
    c.flags = st->flags;
    c.frames = mip_rt_arena_alloc(&m->arena, 8 * (uint64_t)st->depth + 8);
    if (!c.frames)
      return no_memory(m);
    c.hash = mip_rt_mix(mip_rt_mix(mip_rt_mix(0, c.site), c.depth), c.flags);
    for (uint32_t d = 0; d < st->depth; d++) {
      c.frames[d] = translate(segs, mip_get_le64(st->frames + 8 * (uint64_t)d));
      c.hash = mip_rt_mix(c.hash, c.frames[d]);
    }
    mib_decode(at + mip_rec_raw_heap_context_size, &c.mib);
    if (clear_at_peak) { /* another run's peak is kept (merge_timeline.c) */
      c.mib.v[MIP_MIBI_AtPeakSize] = 0;
      c.mib.v[MIP_MIBI_AtPeakCount] = 0;
    }
    /* A block that contradicts itself would make a file mipdata refuses. */
    char why[96];
    if (mip_rt_mib_check(&c.mib, why, sizeof why))
      return bad(m, "a heap context whose MemInfoBlock contradicts itself");
    add_context(t, &c);
  }
  return 0;
}

/* ---- the merged payloads ----------------------------------------------- */

static int write_contexts(struct mip_rt_merge *m, const struct contexts *t) {
  uint8_t *mibs = mip_rt_merge_payload(
      m, MIP_RAW_HEAP_MIBS, 8, 0,
      mip_rec_raw_heap_mibs_size + SCHEMA_SIZE + t->count * RECORD_SIZE);
  uint8_t *stacks =
      mibs ? mip_rt_merge_payload(m, MIP_RAW_HEAP_STACKS, 8, 0,
                                  t->count * mip_rec_raw_heap_stack_size +
                                      8 * t->frames)
           : NULL;
  if (!stacks)
    return -1;
  struct mip_rec_raw_heap_mibs h = {MIP_MIB_COUNT, RECORD_SIZE, t->count};
  mip_rec_raw_heap_mibs_encode(&h, mibs);
  for (uint32_t i = 0; i < MIP_MIB_COUNT; i++)
    mip_put_le32(mibs + mip_rec_raw_heap_mibs_size + 4 * i, mib_id[i]);
  uint8_t *record = mibs + mip_rec_raw_heap_mibs_size + SCHEMA_SIZE;
  for (uint64_t i = 0; i < t->count; i++, record += RECORD_SIZE) {
    const struct context *c = &t->list[i];
    struct mip_rec_raw_heap_context head = {i, c->site};
    mip_rec_raw_heap_context_encode(&head, record);
    mib_encode(&c->mib, record + mip_rec_raw_heap_context_size);
    struct mip_rec_raw_heap_stack e = {i, c->depth, c->flags};
    mip_rec_raw_heap_stack_encode(&e, stacks);
    stacks += mip_rec_raw_heap_stack_size;
    for (uint32_t d = 0; d < c->depth; d++, stacks += 8)
      mip_put_le64(stacks, c->frames[d]);
  }
  return 0;
}

static int write_segments(struct mip_rt_merge *m, const struct segments *s) {
  uint64_t size = 0;
  for (uint64_t i = 0; i < s->count; i++)
    size += align8(mip_rec_raw_heap_segment_size + s->list[i].name_size + 1);
  uint8_t *out =
      mip_rt_merge_payload(m, MIP_RAW_HEAP_SEGMENTS, 8, 0, size);
  if (!out)
    return -1;
  for (uint64_t i = 0; i < s->count; i++) {
    const struct segment *g = &s->list[i];
    struct mip_rec_raw_heap_segment r = {g->start, g->end,     g->bias,
                                         g->id_size, g->name_size, {0}};
    mip_copy_bytes(r.build_id, g->build_id, g->id_size);
    mip_rec_raw_heap_segment_encode(&r, out);
    mip_copy_bytes(out + mip_rec_raw_heap_segment_size,
                   (const uint8_t *)g->name, g->name_size);
    out += align8(mip_rec_raw_heap_segment_size + g->name_size + 1);
  }
  return 0;
}

/* Checks the MIBS payload of a view: its record count, or -1. */
static int64_t context_count(struct mip_rt_merge *m, const struct mip_rt_view *v) {
  const struct mip_rt_section *s = mip_rt_view_find(v, MIP_RAW_HEAP_MIBS);
  int64_t n = s ? records(s) : 0;
  return n < 0 ? bad(m, "heap contexts of another layout") : n;
}

static int has_heap(const struct mip_rt_view *v) {
  return mip_rt_view_find(v, MIP_RAW_HEAP_MIBS) ||
         mip_rt_view_find(v, MIP_RAW_HEAP_STACKS) ||
         mip_rt_view_find(v, MIP_RAW_HEAP_SEGMENTS);
}

int mip_rt_merge_heap(struct mip_rt_merge *m) {
  if (!has_heap(&m->old) && !has_heap(&m->run))
    return 0;
  int64_t n_old = context_count(m, &m->old), n_run = context_count(m, &m->run);
  struct segments file, run;
  int clear_old, clear_run;
  if (n_old < 0 || n_run < 0 ||
      mip_rt_merge_timeline(m, &clear_old, &clear_run) ||
      segments_of(m, &m->run, 0, &run) ||
      segments_of(m, &m->old, run.count, &file))
    return -1;
  struct contexts t = {NULL, 0, NULL, 1, 0};
  uint64_t most = (uint64_t)n_old + (uint64_t)n_run;
  while (t.mask < 2 * most)
    t.mask <<= 1;
  t.list = mip_rt_arena_alloc(&m->arena, (most + 1) * sizeof *t.list);
  t.slots = mip_rt_arena_alloc(&m->arena, 4 * t.mask);
  if (!t.list || !t.slots)
    return no_memory(m);
  t.mask--;
  /* The file's addresses stay where they are, before the run's segments
   * join its own: one outside them is UNKNOWN. */
  if (add_contexts(m, &t, &m->old, &file, 0, clear_old) ||
      place_segments(m, &file, &run))
    return -1;
  const struct segment *own = segment_at(&run, m->image->code_start);
  if (!own && n_run)
    return mip_rt_why_set(&m->why, "this run's heap segments lack its image",
                          NULL);
  if (add_contexts(m, &t, &m->run, &run, own ? own->delta : 0, clear_run))
    return -1;
  return write_contexts(m, &t) || write_segments(m, &file) ? -1 : 0;
}
