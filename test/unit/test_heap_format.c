/* Heap profiling data: map sites, raw payloads, merging into profiles,
 * indexed sections; good and bad. */
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

static const struct mip_build_id ID = {4, {1, 2, 3, 4}};
static const struct mip_build_id LIBC_ID = {2, {9, 9}};

#define COV 0x5000
#define SITE 0x6000
#define BIAS 0x555555554000ULL
#define LIBC 0x7f0000000000ULL

/* ---- the map: three functions, three sites and a discarded one -------- */

static void heap_map(struct mip_buf *m) {
  const struct slot_spec sections[] = {{MIP_RAW_COV, 0, COV, COV + 3},
                                       {MIP_RAW_SITE, 0, SITE, SITE + 4}};
  build_unit_sections(m, "a.c", sections, 2);
  build_function(m, "main", "", 0, 1, 0x1000, COV);
  build_function(m, "helper", "", 0, 2, 0x1100, COV + 1);
  build_function(m, "stat", "a.c", MIP_FN_LOCAL, 3, 0x1200, COV + 2);
  build_heap_site(m, SITE + 3, COV, 12, 1, MIP_ALLOC_FREE, "a.c", "main");
  build_heap_site(m, SITE, COV, 10, 3, MIP_ALLOC_MALLOC, "a.c", "main");
  build_heap_site(m, 0, 0, 7, 7, MIP_ALLOC_MALLOC, "gone.c", "gone");
  build_heap_site(m, SITE + 1, COV + 1, 20, 5, MIP_ALLOC_NEW, "b.h",
                  "_Z5innerv");
}

static void heap_profile(struct mip_profile *p) {
  struct mip_buf m = {0};
  heap_map(&m);
  struct mip_map map;
  struct mip_error err;
  ck_assert_msg(mip_map_parse(m.data, m.size, "m", &map, &err) == 0, "%s",
                err.msg);
  map.build_id = ID;
  mip_profile_from_map(&map, p);
  mip_map_free(&map);
  mip_buf_free(&m);
}

/* Functions by key: "a.c;stat", "helper", "main". */
enum { STAT, HELPER, MAIN };

START_TEST(map_reads_heap_sites) {
  struct mip_buf m = {0};
  heap_map(&m);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "m", &map, &err), 0);
  ck_assert_uint_eq(map.heap_site_count, 3);
  ck_assert_uint_eq(map.discarded_heap_sites, 1);
  ck_assert_uint_eq(map.heap_sites[0].site, SITE);
  ck_assert_uint_eq(map.heap_sites[1].site, SITE + 1);
  ck_assert_uint_eq(map.heap_sites[2].site, SITE + 3);
  ck_assert_str_eq(map.heap_sites[1].file, "b.h");
  ck_assert_str_eq(map.heap_sites[1].name, "_Z5innerv");
  ck_assert_uint_eq(map.heap_sites[1].function, COV + 1);
  ck_assert_uint_eq(map.heap_sites[1].allocator, MIP_ALLOC_NEW);
  ck_assert_uint_eq(map.heap_sites[1].line, 20);
  ck_assert_uint_eq(map.heap_sites[1].column, 5);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

static void expect_map_error(struct mip_buf *m, const char *needle) {
  struct mip_map map;
  struct mip_error err;
  ck_assert_msg(mip_map_parse(m->data, m->size, "f.map", &map, &err) == -1,
                "parsed, wanted '%s'", needle);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  ck_assert_msg(strncmp(err.msg, "f.map: ", 7) == 0, "%s", err.msg);
  mip_map_free(&map);
  mip_buf_free(m);
}

START_TEST(map_refuses_bad_heap_sites) {
  struct mip_buf m = {0};
  heap_map(&m);
  build_heap_site(&m, SITE + 2, COV + 7, 1, 1, 1, "x.c", "x");
  expect_map_error(&m, "its function is not in the map");

  heap_map(&m);
  build_heap_site(&m, SITE + 1, COV, 1, 1, 1, "x.c", "x");
  expect_map_error(&m, "share the byte");

  build_unit(&m, "a.c", COV, COV + 1); /* no site section */
  build_function(&m, "main", "", 0, 1, 0x1000, COV);
  build_heap_site(&m, SITE, COV, 1, 1, 1, "x.c", "x");
  expect_map_error(&m, "no unit has a site section");

  heap_map(&m);
  size_t at = m.size;
  build_heap_site(&m, SITE + 2, COV, 1, 1, 1, "x.c", "x");
  m.data[at + 8 + 32] = 200; /* name_size far past the record */
  expect_map_error(&m, "bad file or function name");

  heap_map(&m);
  at = m.size;
  build_heap_site(&m, SITE + 2, COV, 1, 1, 1, "x.c", "x");
  struct mip_rec_map_record short_rec = {MIP_MAP_HEAP_SITE, 1, 16};
  mip_rec_map_record_encode(&short_rec, m.data + at);
  m.size = at + 16;
  expect_map_error(&m, "too short");

  heap_map(&m);
  at = m.size;
  build_heap_site(&m, SITE + 2, COV, 1, 1, 1, "x.c", "x");
  m.data[at + 2] = 9; /* record version */
  expect_map_error(&m, "newer");
}
END_TEST

START_TEST(profile_takes_the_map_sites) {
  struct mip_profile p;
  heap_profile(&p);
  ck_assert_uint_eq(p.heap_site_count, 3);
  const struct mip_heap_site *s = p.heap_sites;
  ck_assert_uint_eq(s[0].site_offset, 0);
  ck_assert_uint_eq(s[0].function, MAIN);
  ck_assert_uint_eq(s[1].site_offset, 1);
  ck_assert_uint_eq(s[1].function, HELPER);
  ck_assert_str_eq(mip_profile_string(&p, s[1].name), "_Z5innerv");
  ck_assert_str_eq(mip_profile_string(&p, s[1].file), "b.h");
  ck_assert_uint_eq(s[2].site_offset, 3);
  ck_assert_uint_eq(s[2].allocator, MIP_ALLOC_FREE);
  ck_assert_int_eq(p.has_heap, 0);
  struct mip_profile back;
  struct mip_error err;
  const char *path = test_path("sites.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  ck_assert_int_eq(mip_profile_read(path, &back, &err), 0);
  ck_assert_uint_eq(back.heap_site_count, 3);
  ck_assert_int_eq(back.has_heap, 0);
  ck_assert_str_eq(mip_profile_string(&back, back.heap_sites[0].file), "a.c");
  ck_assert_uint_eq(back.heap_sites[1].line, 20);
  ck_assert_uint_eq(back.heap_strings_at, p.heap_strings_at);
  mip_profile_free(&back);
  mip_profile_free(&p);
}
END_TEST

/* ---- raw profiles ------------------------------------------------------ */

/* Return addresses of link-time code addresses in the image. */
#define RET(link) (BIAS + (link) + 1)

static const uint64_t S1[] = {RET(0x1010), RET(0x1020), LIBC + 0x100, 0x12345};
static const uint64_t S2[] = {RET(0x1010), RET(0x1030)};
/* Frames as S1's: another spot in libc, another unknown address */
static const uint64_t S3[] = {RET(0x1010), RET(0x1020), LIBC + 0x200, 0x12399};
static const uint64_t S4[] = {RET(0x1040)};

static struct mip_mib make_mib(uint64_t count, uint64_t size, uint64_t alloc_ts,
                               uint64_t dealloc_ts, uint64_t cpu) {
  struct mip_mib m;
  memset(&m, 0, sizeof m);
  m.v[MIP_MIBI_AllocCount] = count;
  m.v[MIP_MIBI_TotalSize] = size;
  m.v[MIP_MIBI_MinSize] = size / count;
  m.v[MIP_MIBI_MaxSize] = size / count + 1;
  m.v[MIP_MIBI_TotalAccessCount] = 10 * count;
  m.v[MIP_MIBI_MinAccessCount] = 1;
  m.v[MIP_MIBI_MaxAccessCount] = 10;
  m.v[MIP_MIBI_AllocTimestamp] = alloc_ts;
  m.v[MIP_MIBI_DeallocTimestamp] = dealloc_ts;
  m.v[MIP_MIBI_TotalLifetime] = (dealloc_ts - alloc_ts) * count;
  m.v[MIP_MIBI_MinLifetime] = dealloc_ts - alloc_ts;
  m.v[MIP_MIBI_MaxLifetime] = dealloc_ts - alloc_ts;
  m.v[MIP_MIBI_AllocCpuId] = cpu;
  m.v[MIP_MIBI_DeallocCpuId] = cpu + 1;
  m.v[MIP_MIBI_NumMigratedCpu] = count;
  m.v[MIP_MIBI_NumLifetimeOverlaps] = count - 1;
  m.v[MIP_MIBI_NumSameAllocCpu] = 1;
  m.v[MIP_MIBI_NumSameDeallocCpu] = 2;
  m.v[MIP_MIBI_TotalAccessDensity] = 100;
  m.v[MIP_MIBI_MinAccessDensity] = 5;
  m.v[MIP_MIBI_MaxAccessDensity] = 50;
  m.v[MIP_MIBI_TotalLifetimeAccessDensity] = 1000;
  m.v[MIP_MIBI_MinLifetimeAccessDensity] = 7;
  m.v[MIP_MIBI_MaxLifetimeAccessDensity] = 70;
  m.v[MIP_MIBI_LiveAtExitCount] = 1;
  m.v[MIP_MIBI_LiveAtExitSize] = size / count;
  m.v[MIP_MIBI_PeakLiveSize] = size / 2;
  m.v[MIP_MIBI_ReallocCount] = 1;
  return m;
}

struct raw_parts {
  struct heap_context_spec contexts[8];
  size_t context_count;
  struct heap_stack_spec stacks[8];
  size_t stack_count;
  struct heap_segment_spec segments[4];
  size_t segment_count;
  struct mip_rec_raw_stat stats[7];
  size_t stat_count;
  const uint32_t *schema; /* NULL: every known field */
  uint32_t field_count;
  const uint8_t *timeline; /* a TIMELINE payload, or NULL */
  size_t timeline_size;
};

/* A TIMELINE payload: the peak, then n points of point_size bytes. */
static void timeline_payload(struct mip_buf *b, const struct mip_heap_peak *k,
                             const struct mip_heap_point *pt, uint32_t n,
                             uint32_t point_size) {
  struct mip_rec_heap_peak r = {k->bytes,    k->blocks, k->event, k->events,
                                k->interval, k->ms,     0};
  mip_rec_heap_peak_encode(&r, mip_buf_extend(b, mip_rec_heap_peak_size));
  struct mip_rec_raw_heap_timeline t = {n, point_size};
  mip_rec_raw_heap_timeline_encode(
      &t, mip_buf_extend(b, mip_rec_raw_heap_timeline_size));
  for (uint32_t i = 0; i < n; i++) {
    struct mip_rec_heap_point q = {pt[i].event, pt[i].ms, 0, pt[i].bytes,
                                   pt[i].blocks};
    uint8_t *at = mip_buf_extend(b, point_size);
    memset(at, 0, point_size);
    mip_rec_heap_point_encode(&q, at);
  }
}

static const struct heap_stack_spec STACKS[] = {
    {1, 0, 4, S1}, {2, 0, 2, S2}, {3, 1, 4, S3}, {4, 0, 1, S4}};

static void default_parts(struct raw_parts *r) {
  memset(r, 0, sizeof *r);
  r->stack_count = 4;
  memcpy(r->stacks, STACKS, sizeof STACKS);
  r->segments[0] =
      (struct heap_segment_spec){BIAS + 0x1000, BIAS + 0x2000, BIAS, &ID, ""};
  r->segments[1] = (struct heap_segment_spec){
      LIBC, LIBC + 0x100000, LIBC - 0x1000, &LIBC_ID, "/lib/libc.so.6"};
  r->segment_count = 2;
  r->stats[0] = (struct mip_rec_raw_stat){MIP_STAT_HEAP_UNSEEN_FREES, 0, 2};
  r->stats[1] = (struct mip_rec_raw_stat){MIP_STAT_HEAP_FREED_UNSEEN, 0, 3};
  r->stats[2] = (struct mip_rec_raw_stat){MIP_STAT_HEAP_TRUNCATED_STACKS, 0, 1};
  r->stats[3] = (struct mip_rec_raw_stat){MIP_STAT_HEAP_DROPPED, 0, 4};
  r->stats[4] = (struct mip_rec_raw_stat){MIP_STAT_HEAP_STACK_DEPTH, 0, 64};
  r->stats[5] = (struct mip_rec_raw_stat){MIP_STAT_HEAP_UNINTERPOSED, 0, 1};
  r->stats[6] =
      (struct mip_rec_raw_stat){MIP_STAT_HEAP_LIVE_UNINTERPOSED, 0, 6};
  r->stat_count = 7;
}

static void add_context(struct raw_parts *r, uint64_t stack, uint64_t site,
                        struct mip_mib mib) {
  r->contexts[r->context_count++] =
      (struct heap_context_spec){stack, site, mib};
}

/* Writes a raw profile with coverage, site counters and the heap parts. */
static const char *write_raw(const char *name, const struct raw_parts *r) {
  uint8_t cov[3] = {1, 1, 0}, sites[4] = {1, 1, 0, 1};
  struct mip_buf mibs = {0}, stacks = {0}, segments = {0}, stats = {0};
  uint32_t schema[MIP_MIB_COUNT];
  uint32_t fields = r->schema ? r->field_count : full_schema(schema);
  build_heap_mibs(&mibs, r->schema ? r->schema : schema, fields, r->contexts,
                  r->context_count);
  build_heap_stacks(&stacks, r->stacks, r->stack_count);
  build_heap_segments(&segments, r->segments, r->segment_count);
  for (size_t i = 0; i < r->stat_count; i++)
    mip_rec_raw_stat_encode(&r->stats[i],
                            mip_buf_extend(&stats, mip_rec_raw_stat_size));
  const struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, COV, cov, 3},
      {MIP_RAW_SITE, 1, SITE, sites, 4},
      {MIP_RAW_STATS, mip_rec_raw_stat_size, 0, stats.data, stats.size},
      {MIP_RAW_HEAP_MIBS, 1, 0, mibs.data, mibs.size},
      {MIP_RAW_HEAP_STACKS, 1, 0, stacks.data, stacks.size},
      {MIP_RAW_HEAP_SEGMENTS, 1, 0, segments.data, segments.size},
      {MIP_RAW_HEAP_TIMELINE, 8, 0, r->timeline, r->timeline_size},
  };
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, r->timeline ? 7 : 6);
  const char *path = test_path(name);
  write_file(path, b.data, b.size);
  mip_buf_free(&b);
  mip_buf_free(&mibs);
  mip_buf_free(&stacks);
  mip_buf_free(&segments);
  mip_buf_free(&stats);
  return path;
}

/* The symbolizer the tests pretend the binary gives. */
static size_t fake_frames(void *ctx, uint64_t addr,
                          const struct mip_frame_info **frames) {
  static const struct mip_frame_info inlined[] = {{"_Z5innerv", "b.h", 3, 5},
                                                  {"helper", "a.c", 20, 5}};
  static const struct mip_frame_info main10[] = {{"main", "a.c", 10, 3}};
  static const struct mip_frame_info main11[] = {{"main", "a.c", 11, 3}};
  (*(int *)ctx)++;
  switch (addr) {
  case 0x1010:
    *frames = inlined;
    return 2;
  case 0x1020:
    *frames = main10;
    return 1;
  case 0x1030:
    *frames = main11;
    return 1;
  }
  return 0;
}

static int lookups;
static const struct mip_symbolizer FAKE = {fake_frames, &lookups, NULL,
                                           NULL};

/* libc's symbolizer, for the tests that give it: it knows LIBC + 0x100,
 * at link-time 0x10ff. */
static size_t libc_frames(void *ctx, uint64_t addr,
                          const struct mip_frame_info **frames) {
  static const struct mip_frame_info start[] = {
      {"__libc_start_main", "libc-start.c", 360, 3}};
  (void)ctx;
  if (addr != 0x10ff)
    return 0;
  *frames = start;
  return 1;
}

static const struct mip_symbolizer LIBC_SYMBOLIZER = {libc_frames, NULL, NULL,
                                                      NULL};

static const struct mip_symbolizer *libc_image(void *images,
                                               const struct mip_build_id *id) {
  (void)images;
  return mip_build_id_equal(id, &LIBC_ID) ? &LIBC_SYMBOLIZER : NULL;
}

static const struct mip_symbolizer WITH_LIBC = {fake_frames, &lookups,
                                                libc_image, NULL};

static int add_heap_run(struct mip_profile *p, const char *path,
                        struct mip_error *err) {
  struct mip_raw raw;
  int rc = mip_raw_read(path, &raw, err) ||
           mip_profile_add_run(p, "p.mip", &raw, path, &FAKE, err);
  mip_raw_free(&raw);
  return rc ? -1 : 0;
}

static const char *frame_function(const struct mip_profile *p,
                                  const struct mip_heap_context *c,
                                  uint32_t k) {
  return mip_profile_string(
      p, p->heap_frames[p->heap_stack[c->first_frame + k]].function);
}

static const struct mip_heap_frame *frame_of(const struct mip_profile *p,
                                             const struct mip_heap_context *c,
                                             uint32_t k) {
  return &p->heap_frames[p->heap_stack[c->first_frame + k]];
}

START_TEST(raw_reads_heap_payloads) {
  struct raw_parts r;
  default_parts(&r);
  add_context(&r, 1, BIAS + SITE, make_mib(2, 64, 5, 9, 1));
  add_context(&r, 2, 0, make_mib(1, 8, 1, 2, 0));
  struct mip_raw raw;
  struct mip_error err;
  const char *path = write_raw("good.mipraw", &r);
  ck_assert_msg(mip_raw_read(path, &raw, &err) == 0, "%s", err.msg);
  const struct mip_raw_heap *h = &raw.heap;
  ck_assert_int_eq(h->present, 1);
  ck_assert_uint_eq(h->context_count, 2);
  ck_assert_uint_eq(h->contexts[0].stack, 1);
  ck_assert_uint_eq(h->contexts[0].site, BIAS + SITE);
  ck_assert_uint_eq(h->contexts[0].mib.v[MIP_MIBI_TotalSize], 64);
  ck_assert_uint_eq(h->contexts[0].mib.v[MIP_MIBI_ReallocCount], 1);
  ck_assert_uint_eq(h->stack_count, 4);
  const struct mip_raw_heap_stack *s = mip_raw_heap_stack_find(h, 3);
  ck_assert_ptr_nonnull(s);
  ck_assert_uint_eq(s->depth, 4);
  ck_assert_uint_eq(s->flags, 1);
  ck_assert_uint_eq(mip_get_le64(s->frames + 16), LIBC + 0x200);
  ck_assert_ptr_null(mip_raw_heap_stack_find(h, 9));
  ck_assert_uint_eq(h->segment_count, 2);
  ck_assert_str_eq(h->segments[0].path, "");
  ck_assert_str_eq(h->segments[1].path, "/lib/libc.so.6");
  ck_assert(mip_build_id_equal(&h->segments[0].build_id, &ID));
  ck_assert_uint_eq(h->stats.unseen_frees, 2);
  ck_assert_uint_eq(h->stats.stack_depth, 64);
  ck_assert_uint_eq(h->stats.uninterposed, 1);
  ck_assert_uint_eq(h->stats.live_uninterposed, 6);
  mip_raw_free(&raw);
}
END_TEST

START_TEST(raw_skips_unknown_fields) {
  /* unknown fields (8 bytes each) around and between known ones; the
   * rest of the known fields are missing, so zero */
  static const uint32_t schema[] = {999, 1, 1000, 5, 103};
  struct raw_parts r;
  default_parts(&r);
  r.schema = schema;
  r.field_count = 5;
  add_context(&r, 1, 0, make_mib(3, 96, 1, 2, 0));
  struct mip_raw raw;
  struct mip_error err;
  const char *path = write_raw("unknown.mipraw", &r);
  ck_assert_msg(mip_raw_read(path, &raw, &err) == 0, "%s", err.msg);
  const struct mip_mib *m = &raw.heap.contexts[0].mib;
  ck_assert_uint_eq(m->v[MIP_MIBI_AllocCount], 3);
  ck_assert_uint_eq(m->v[MIP_MIBI_TotalSize], 96);
  ck_assert_uint_eq(m->v[MIP_MIBI_ReallocCount], 1);
  ck_assert_uint_eq(m->v[MIP_MIBI_MinSize], 0);
  ck_assert_uint_eq(m->v[MIP_MIBI_PeakLiveSize], 0);
  mip_raw_free(&raw);
}
END_TEST

/* A raw profile whose payload kind is replaced by the given bytes. */
static const char *raw_with(const char *name, uint32_t kind, const void *data,
                            size_t size) {
  struct raw_parts r;
  default_parts(&r);
  add_context(&r, 1, 0, make_mib(1, 8, 1, 2, 0));
  uint8_t cov[3] = {0}, sites[4] = {0};
  struct mip_buf mibs = {0}, stacks = {0}, segments = {0};
  uint32_t schema[MIP_MIB_COUNT];
  build_heap_mibs(&mibs, schema, full_schema(schema), r.contexts, 1);
  build_heap_stacks(&stacks, r.stacks, r.stack_count);
  build_heap_segments(&segments, r.segments, r.segment_count);
  struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, COV, cov, 3},
      {MIP_RAW_SITE, 1, SITE, sites, 4},
      {MIP_RAW_HEAP_MIBS, 1, 0, mibs.data, mibs.size},
      {MIP_RAW_HEAP_STACKS, 1, 0, stacks.data, stacks.size},
      {MIP_RAW_HEAP_SEGMENTS, 1, 0, segments.data, segments.size},
      {kind, 8, 0, data, size}, /* a kind not above: added */
  };
  size_t count = 5;
  for (size_t i = 0; i < count; i++)
    if (payloads[i].kind == kind) {
      if (data) {
        payloads[i].data = data;
        payloads[i].size = size;
      } else { /* drop it */
        payloads[i] = payloads[--count];
      }
      kind = 0;
    }
  if (kind && data)
    count++;
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, count);
  const char *path = test_path(name);
  write_file(path, b.data, b.size);
  mip_buf_free(&b);
  mip_buf_free(&mibs);
  mip_buf_free(&stacks);
  mip_buf_free(&segments);
  return path;
}

static void expect_raw_error(const char *path, const char *needle) {
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_msg(mip_raw_read(path, &raw, &err) == -1, "read, wanted '%s'",
                needle);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  ck_assert_msg(strncmp(err.msg, path, strlen(path)) == 0, "%s", err.msg);
  ck_assert_ptr_null(strchr(err.msg, '\n'));
  mip_raw_free(&raw);
}

/* A MIBS payload from a schema and raw records. */
static void mibs_payload(struct mip_buf *b, const uint32_t *schema,
                         uint32_t fields, uint32_t record_size,
                         uint64_t record_count, size_t record_bytes) {
  struct mip_rec_raw_heap_mibs h = {fields, record_size, record_count};
  mip_rec_raw_heap_mibs_encode(&h,
                               mip_buf_extend(b, mip_rec_raw_heap_mibs_size));
  for (uint32_t i = 0; i < fields; i++)
    mip_put_le32(mip_buf_extend(b, 4), schema[i]);
  mip_buf_align(b, 8);
  uint8_t *records = mip_buf_extend(b, record_bytes);
  for (size_t at = 0; at + 16 <= record_bytes;
       at += record_size ? record_size : 16)
    mip_put_le64(records + at, 1); /* stack 1 */
}

START_TEST(raw_refuses_bad_contexts) {
  static const uint32_t two[] = {1, 5}; /* 4 + 8 bytes: records of 32 */
  static const uint32_t zero[] = {1, 0};
  static const uint32_t twice[] = {5, 5};
  struct mip_buf b = {0};

  mip_buf_extend(&b, 8);
  expect_raw_error(raw_with("c1.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "truncated heap contexts payload (8 bytes, its header");
  mip_buf_free(&b);

  mibs_payload(&b, two, 2, 32, 0, 0);
  b.size = 18; /* the schema cut */
  expect_raw_error(raw_with("c2.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "a schema of 2 fields");
  mip_buf_free(&b);

  mibs_payload(&b, zero, 2, 32, 1, 32);
  expect_raw_error(raw_with("c3.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "field id 0");
  mip_buf_free(&b);

  mibs_payload(&b, twice, 2, 32, 1, 32);
  expect_raw_error(raw_with("c4.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "names field 5 twice");
  mip_buf_free(&b);

  mibs_payload(&b, two, 2, 24, 1, 24);
  expect_raw_error(raw_with("c5.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "records of 24 bytes cannot hold their 28 bytes");
  mip_buf_free(&b);

  mibs_payload(&b, two, 2, 36, 1, 36);
  expect_raw_error(raw_with("c6.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "records of 36 bytes cannot hold");
  mip_buf_free(&b);

  mibs_payload(&b, two, 2, 32, 3, 64);
  expect_raw_error(raw_with("c7.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "3 records of 32 bytes, 64 bytes present");
  mip_buf_free(&b);

  mibs_payload(&b, two, 2, 32, 1, 40);
  expect_raw_error(raw_with("c8.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "has 8 bytes after its 1 records");
  mip_buf_free(&b);

  mibs_payload(&b, two, 2, 32, (uint64_t)1 << 62, 32);
  expect_raw_error(raw_with("c9.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "truncated heap contexts payload");
  mip_buf_free(&b);

  mibs_payload(&b, two, 2, 32, 1, 32);
  mip_put_le64(b.data + 24, 77); /* the record's stack */
  expect_raw_error(raw_with("c10.mipraw", MIP_RAW_HEAP_MIBS, b.data, b.size),
                   "heap context 0 uses stack 77, which the stacks payload "
                   "lacks");
  mip_buf_free(&b);

  expect_raw_error(raw_with("c11.mipraw", MIP_RAW_HEAP_STACKS, NULL, 0),
                   "uses stack 1, which the stacks payload lacks");
}
END_TEST

/* A raw context whose MemInfoBlock contradicts itself: merged, it would
 * make a profile that every reader refuses (profile_check.c), so the raw
 * reader refuses it, with the same words. */
static void expect_raw_mib_error(int field, int from, uint64_t add,
                                 const char *needle) {
  struct raw_parts r;
  default_parts(&r);
  add_context(&r, 1, 0, make_mib(1, 8, 1, 2, 0));
  struct mip_mib m = make_mib(2, 64, 5, 9, 1);
  m.v[field] = m.v[from] + add;
  add_context(&r, 2, 0, m);
  expect_raw_error(write_raw("odd.mipraw", &r), needle);
}

START_TEST(raw_refuses_contradicting_mibs) {
  expect_raw_mib_error(MIP_MIBI_LiveAtExitCount, MIP_MIBI_AllocCount, 1,
                       "heap context 1 has 3 blocks live at exit of 2 "
                       "allocated");
  expect_raw_mib_error(MIP_MIBI_MinSize, MIP_MIBI_MaxSize, 1,
                       "heap context 1 has MinSize 34 above MaxSize 33");
  expect_raw_mib_error(MIP_MIBI_LiveAtExitSize, MIP_MIBI_TotalSize, 1,
                       "heap context 1 has 65 bytes live at exit of 64 "
                       "allocated");
  expect_raw_mib_error(MIP_MIBI_AtPeakCount, MIP_MIBI_AllocCount, 1,
                       "heap context 1 has 3 blocks at the peak of 2 "
                       "allocated");
  expect_raw_mib_error(MIP_MIBI_AtPeakSize, MIP_MIBI_TotalSize, 1,
                       "heap context 1 has 65 bytes at the peak of 64 "
                       "allocated");
}
END_TEST

START_TEST(raw_refuses_bad_stacks) {
  struct mip_buf b = {0};
  build_heap_stacks(&b, STACKS, 4);
  b.size -= 8; /* the last frame */
  expect_raw_error(raw_with("s1.mipraw", MIP_RAW_HEAP_STACKS, b.data, b.size),
                   "heap stack 4 claims 1 frames, more than the stacks "
                   "payload holds");
  b.size -= 4; /* into the last stack's head */
  expect_raw_error(raw_with("s2.mipraw", MIP_RAW_HEAP_STACKS, b.data, b.size),
                   "truncated heap stack at offset");
  mip_buf_free(&b);

  struct heap_stack_spec dup[] = {STACKS[0], STACKS[1], STACKS[0]};
  build_heap_stacks(&b, dup, 3);
  expect_raw_error(raw_with("s3.mipraw", MIP_RAW_HEAP_STACKS, b.data, b.size),
                   "heap stack id 1 appears twice");
  mip_buf_free(&b);

  struct heap_stack_spec huge[] = {{1, 0, 4, S1}};
  build_heap_stacks(&b, huge, 1);
  mip_put_le32(b.data + 8, 0x7fffffff); /* depth */
  expect_raw_error(raw_with("s4.mipraw", MIP_RAW_HEAP_STACKS, b.data, b.size),
                   "claims 2147483647 frames");
  mip_buf_free(&b);
}
END_TEST

START_TEST(raw_refuses_bad_segments) {
  struct raw_parts r;
  default_parts(&r);
  struct mip_buf b = {0};
  build_heap_segments(&b, r.segments, 2);
  expect_raw_error(raw_with("g1.mipraw", MIP_RAW_HEAP_SEGMENTS, b.data, 150),
                   "truncated heap segment 1");
  expect_raw_error(raw_with("g0.mipraw", MIP_RAW_HEAP_SEGMENTS, b.data, 100),
                   "truncated heap segment 0");
  b.data[24] = 65; /* first build_id_size */
  expect_raw_error(raw_with("g2.mipraw", MIP_RAW_HEAP_SEGMENTS, b.data, b.size),
                   "heap segment 0 has a build-id of 65 bytes");
  mip_buf_free(&b);

  struct heap_segment_spec bad[] = {r.segments[0], r.segments[1]};
  bad[1].end = bad[1].start;
  build_heap_segments(&b, bad, 2);
  expect_raw_error(raw_with("g3.mipraw", MIP_RAW_HEAP_SEGMENTS, b.data, b.size),
                   "heap segment 1 is empty or ends before it starts");
  mip_buf_free(&b);

  build_heap_segments(&b, r.segments, 2);
  b.data[28] = 100; /* first name_size: past the payload */
  expect_raw_error(raw_with("g4.mipraw", MIP_RAW_HEAP_SEGMENTS, b.data, b.size),
                   "heap segment 0 has a bad path");
  mip_buf_free(&b);

  bad[1] = r.segments[0];
  bad[1].start += 0x800;
  bad[1].end += 0x800;
  build_heap_segments(&b, bad, 2);
  expect_raw_error(raw_with("g5.mipraw", MIP_RAW_HEAP_SEGMENTS, b.data, b.size),
                   "overlap");
  mip_buf_free(&b);
}
END_TEST

START_TEST(raw_without_contexts_is_fine) {
  struct mip_raw raw;
  struct mip_error err;
  const char *path = raw_with("n.mipraw", MIP_RAW_HEAP_MIBS, NULL, 0);
  ck_assert_msg(mip_raw_read(path, &raw, &err) == 0, "%s", err.msg);
  ck_assert_int_eq(raw.heap.present, 1);
  ck_assert_uint_eq(raw.heap.context_count, 0);
  mip_raw_free(&raw);
}
END_TEST

/* ---- MemInfoBlocks -------------------------------------------------- */

START_TEST(mib_fields_follow_mib_inc) {
  ck_assert_int_eq(mip_mib_index(1), MIP_MIBI_AllocCount);
  ck_assert_int_eq(mip_mib_index(103), MIP_MIBI_ReallocCount);
  ck_assert_int_eq(mip_mib_index(19), -1);
  ck_assert_uint_eq(mip_mib_width(2), 8);
  ck_assert_uint_eq(mip_mib_width(6), 4);
  ck_assert_uint_eq(mip_mib_width(999), 8);
  ck_assert_str_eq(mip_mib_defs[MIP_MIBI_TotalLifetimeAccessDensity].name,
                   "TotalLifetimeAccessDensity");
}
END_TEST

START_TEST(mib_merge_rules) {
  struct mip_mib a = make_mib(2, 64, 5, 9, 1), b = make_mib(1, 8, 1, 20, 4);
  b.v[MIP_MIBI_MinAccessCount] = 0;
  b.v[MIP_MIBI_MaxLifetime] = 100;
  b.v[MIP_MIBI_PeakLiveSize] = 1;
  struct mip_mib ab = a, ba = b;
  mip_mib_merge(&ab, &b);
  mip_mib_merge(&ba, &a);
  ck_assert_mem_eq(&ab, &ba, sizeof ab); /* commutative */
  ck_assert_uint_eq(ab.v[MIP_MIBI_AllocCount], 3);
  ck_assert_uint_eq(ab.v[MIP_MIBI_TotalSize], 72);
  ck_assert_uint_eq(ab.v[MIP_MIBI_MinSize], 8);
  ck_assert_uint_eq(ab.v[MIP_MIBI_MaxSize], 33);
  ck_assert_uint_eq(ab.v[MIP_MIBI_MinAccessCount], 0);
  ck_assert_uint_eq(ab.v[MIP_MIBI_MaxLifetime], 100);
  ck_assert_uint_eq(ab.v[MIP_MIBI_PeakLiveSize], 32); /* max */
  ck_assert_uint_eq(ab.v[MIP_MIBI_NumLifetimeOverlaps], 1);
  ck_assert_uint_eq(ab.v[MIP_MIBI_NumSameAllocCpu], 2);
  ck_assert_uint_eq(ab.v[MIP_MIBI_LiveAtExitCount], 2);
  ck_assert_uint_eq(ab.v[MIP_MIBI_ReallocCount], 2);
  /* the last block: b's, dealloc 20 > 9 */
  ck_assert_uint_eq(ab.v[MIP_MIBI_DeallocTimestamp], 20);
  ck_assert_uint_eq(ab.v[MIP_MIBI_AllocTimestamp], 1);
  ck_assert_uint_eq(ab.v[MIP_MIBI_AllocCpuId], 4);
  ck_assert_uint_eq(ab.v[MIP_MIBI_DeallocCpuId], 5);
  /* same dealloc time: the later allocation wins, then the CPUs */
  struct mip_mib c = make_mib(1, 8, 7, 20, 0), d = b;
  mip_mib_merge(&d, &c);
  ck_assert_uint_eq(d.v[MIP_MIBI_AllocTimestamp], 7);
  ck_assert_uint_eq(d.v[MIP_MIBI_AllocCpuId], 0);
  /* sums saturate at the field's width */
  struct mip_mib e = a, f = a;
  e.v[MIP_MIBI_AllocCount] = UINT32_MAX - 1;
  e.v[MIP_MIBI_TotalSize] = UINT64_MAX - 1;
  mip_mib_merge(&e, &f);
  ck_assert_uint_eq(e.v[MIP_MIBI_AllocCount], UINT32_MAX);
  ck_assert_uint_eq(e.v[MIP_MIBI_TotalSize], UINT64_MAX);
  /* associative: (a b) c == a (b c) */
  struct mip_mib x = a, y = b;
  mip_mib_merge(&x, &b);
  mip_mib_merge(&x, &c);
  mip_mib_merge(&y, &c);
  struct mip_mib z = a;
  mip_mib_merge(&z, &y);
  ck_assert_mem_eq(&x, &z, sizeof x);
}
END_TEST

/* ---- merging -------------------------------------------------------- */

/* Run A: S1 and S3 (same frames) at site 0, S2 at site 1. */
static const char *run_a(void) {
  struct raw_parts r;
  default_parts(&r);
  add_context(&r, 1, BIAS + SITE, make_mib(2, 64, 5, 9, 1));
  add_context(&r, 2, BIAS + SITE + 1, make_mib(1, 8, 1, 2, 0));
  add_context(&r, 3, BIAS + SITE, make_mib(1, 16, 3, 30, 2));
  return write_raw("a.mipraw", &r);
}

/* Run B: S2 again, and S4 (no frames known) from uninstrumented code. */
static const char *run_b(void) {
  struct raw_parts r;
  default_parts(&r);
  add_context(&r, 2, BIAS + SITE + 1, make_mib(4, 40, 2, 3, 1));
  add_context(&r, 4, 0, make_mib(1, 1, 1, 1, 1));
  return write_raw("b.mipraw", &r);
}

/* Run C: S1 at site 0 with another load bias (addresses move with it). */
static const char *run_c(void) {
  static const uint64_t moved[] = {RET(0x1010) + 0x10000, RET(0x1020) + 0x10000,
                                   LIBC + 0x300, 1};
  struct raw_parts r;
  default_parts(&r);
  r.stacks[0].frames = moved;
  r.segments[0].start += 0x10000;
  r.segments[0].end += 0x10000;
  r.segments[0].load_bias += 0x10000;
  add_context(&r, 1, BIAS + 0x10000 + SITE, make_mib(1, 32, 9, 9, 3));
  return write_raw("c.mipraw", &r);
}

/* Stacks of depth 0 (a hook running on another stack records frame 0
 * alone, but a raw profile may hold none): contexts with no frames merge,
 * one per site. */
START_TEST(merge_takes_stacks_of_depth_0) {
  static const struct heap_stack_spec empty[] = {{1, 0, 0, NULL},
                                                 {2, 0, 0, NULL}};
  struct raw_parts r;
  default_parts(&r);
  memcpy(r.stacks, empty, sizeof empty);
  r.stack_count = 2;
  add_context(&r, 1, BIAS + SITE, make_mib(2, 64, 5, 9, 1));
  add_context(&r, 2, BIAS + SITE, make_mib(1, 8, 1, 2, 0));
  add_context(&r, 2, BIAS + SITE + 1, make_mib(1, 8, 1, 2, 0));
  struct mip_profile p;
  struct mip_error err;
  heap_profile(&p);
  ck_assert_msg(add_heap_run(&p, write_raw("empty.mipraw", &r), &err) == 0,
                "%s", err.msg);
  ck_assert_uint_eq(p.heap_context_count, 2);
  ck_assert_uint_eq(p.heap_stack_count, 0);
  ck_assert_uint_eq(p.heap_contexts[0].frame_count, 0);
  ck_assert_uint_eq(p.heap_contexts[0].mib.v[MIP_MIBI_AllocCount], 3);
  mip_profile_free(&p);
}
END_TEST

START_TEST(merge_symbolizes_and_combines_contexts) {
  struct mip_profile p;
  struct mip_error err;
  heap_profile(&p);
  lookups = 0;
  ck_assert_msg(add_heap_run(&p, run_a(), &err) == 0, "%s", err.msg);
  ck_assert_int_eq(lookups, 3); /* 0x1010, 0x1020, 0x1030: once each */
  ck_assert_int_eq(p.has_heap, 1);
  ck_assert_uint_eq(p.runs, 1);
  ck_assert_uint_eq(p.heap_context_count, 2);
  /* _Z5innerv@b.h (inlined), helper@a.c:20, main@a.c:10, main@a.c:11,
   * /lib/libc.so.6, [unknown] */
  ck_assert_uint_eq(p.heap_frame_count, 6);

  const struct mip_heap_context *c = &p.heap_contexts[0];
  ck_assert_uint_eq(c->site, 0);
  ck_assert_uint_eq(c->frame_count, 5);
  ck_assert_uint_eq(c->flags, MIP_CONTEXT_TRUNCATED); /* S3's */
  ck_assert_str_eq(frame_function(&p, c, 0), "_Z5innerv");
  ck_assert_uint_eq(frame_of(&p, c, 0)->flags, MIP_FRAME_INLINED);
  ck_assert_uint_eq(frame_of(&p, c, 0)->line, 3);
  ck_assert_str_eq(mip_profile_string(&p, frame_of(&p, c, 0)->file), "b.h");
  ck_assert_str_eq(frame_function(&p, c, 1), "helper");
  ck_assert_uint_eq(frame_of(&p, c, 1)->flags, 0);
  ck_assert_uint_eq(frame_of(&p, c, 1)->column, 5);
  ck_assert_str_eq(frame_function(&p, c, 2), "main");
  ck_assert_uint_eq(frame_of(&p, c, 2)->line, 10);
  ck_assert_str_eq(frame_function(&p, c, 3), "/lib/libc.so.6");
  ck_assert_uint_eq(frame_of(&p, c, 3)->flags, MIP_FRAME_OUTSIDE);
  ck_assert_uint_eq(frame_of(&p, c, 3)->file, 0);
  ck_assert_str_eq(frame_function(&p, c, 4), "[unknown]");
  /* S1 and S3 combined */
  ck_assert_uint_eq(c->mib.v[MIP_MIBI_AllocCount], 3);
  ck_assert_uint_eq(c->mib.v[MIP_MIBI_TotalSize], 80);
  ck_assert_uint_eq(c->mib.v[MIP_MIBI_DeallocTimestamp], 30);
  ck_assert_uint_eq(c->mib.v[MIP_MIBI_AllocCpuId], 2);

  c = &p.heap_contexts[1];
  ck_assert_uint_eq(c->site, 1);
  ck_assert_uint_eq(c->frame_count, 3);
  ck_assert_str_eq(frame_function(&p, c, 2), "main");
  ck_assert_uint_eq(frame_of(&p, c, 2)->line, 11);
  ck_assert_uint_eq(c->mib.v[MIP_MIBI_TotalSize], 8);

  ck_assert_uint_eq(p.heap_stats.unseen_frees, 2);
  ck_assert_uint_eq(p.heap_stats.dropped, 4);
  ck_assert_uint_eq(p.heap_stats.stack_depth, 64);

  ck_assert_msg(add_heap_run(&p, run_b(), &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(p.heap_context_count, 3);
  ck_assert_uint_eq(p.heap_stats.unseen_frees, 4);
  ck_assert_uint_eq(p.heap_stats.stack_depth, 64);
  ck_assert_uint_eq(p.heap_stats.uninterposed, 2); /* runs, summed */
  ck_assert_uint_eq(p.heap_stats.live_uninterposed, 12);
  /* sorted by site: 0, 1, none */
  c = &p.heap_contexts[1];
  ck_assert_uint_eq(c->mib.v[MIP_MIBI_AllocCount], 5);
  ck_assert_uint_eq(c->mib.v[MIP_MIBI_TotalSize], 48);
  c = &p.heap_contexts[2];
  ck_assert_uint_eq(c->site, MIP_NO_SITE);
  ck_assert_uint_eq(c->frame_count, 1);
  ck_assert_str_eq(frame_function(&p, c, 0), "");
  ck_assert_uint_eq(frame_of(&p, c, 0)->flags, 0);

  ck_assert_msg(add_heap_run(&p, run_c(), &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(p.heap_context_count, 3);
  ck_assert_uint_eq(p.heap_contexts[0].mib.v[MIP_MIBI_AllocCount], 4);
  ck_assert_uint_eq(p.runs, 3);
  mip_profile_free(&p);
}
END_TEST

static void write_profile(const struct mip_profile *p, const char *name,
                          struct mip_file *out) {
  struct mip_error err;
  const char *path = test_path(name);
  ck_assert_int_eq(mip_profile_write(path, p, &err), 0);
  ck_assert_int_eq(mip_file_read(path, out, &err), 0);
}

static void merged(const char *const *runs, size_t n, struct mip_file *out,
                   const char *name) {
  struct mip_profile p;
  struct mip_error err;
  heap_profile(&p);
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(add_heap_run(&p, runs[i], &err) == 0, "%s", err.msg);
  write_profile(&p, name, out);
  mip_profile_free(&p);
}

static void assert_same_file(const struct mip_file *a,
                             const struct mip_file *b) {
  ck_assert_uint_eq(a->size, b->size);
  ck_assert_mem_eq(a->data, b->data, a->size);
}

/* Frames in another image whose symbolizer is given are symbolized and
 * name their object; an address of that image it does not know is a
 * frame of that object with nothing known; the profile keeps the object
 * through a write and a read. */
START_TEST(merge_symbolizes_other_images) {
  struct mip_profile p, back;
  struct mip_error err;
  struct mip_raw raw;
  heap_profile(&p);
  const char *path = run_a();
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_msg(mip_profile_add_run(&p, "p.mip", &raw, path, &WITH_LIBC,
                                    &err) == 0,
                "%s", err.msg);
  mip_raw_free(&raw);
  /* S1 and S3 differ now in libc: two contexts at site 0, S3's first
   * (its libc frame has no function) */
  ck_assert_uint_eq(p.heap_context_count, 3);
  const struct mip_heap_context *c = &p.heap_contexts[1];
  ck_assert_uint_eq(c->site, 0);
  ck_assert_uint_eq(c->frame_count, 5);
  const struct mip_heap_frame *f = frame_of(&p, c, 3);
  ck_assert_str_eq(frame_function(&p, c, 3), "__libc_start_main");
  ck_assert_str_eq(mip_profile_string(&p, f->file), "libc-start.c");
  ck_assert_uint_eq(f->line, 360);
  ck_assert_uint_eq(f->flags, 0);
  ck_assert_str_eq(mip_profile_string(&p, f->object), "/lib/libc.so.6");
  ck_assert_uint_eq(frame_of(&p, c, 2)->object, 0); /* main: the image's */
  ck_assert_str_eq(frame_function(&p, c, 4), "[unknown]");
  ck_assert_uint_eq(frame_of(&p, c, 4)->flags, MIP_FRAME_OUTSIDE);
  ck_assert_uint_eq(frame_of(&p, c, 4)->object, 0);
  c = &p.heap_contexts[0]; /* S3: LIBC + 0x200, which it does not know */
  f = frame_of(&p, c, 3);
  ck_assert_uint_eq(f->function, 0);
  ck_assert_uint_eq(f->flags, 0);
  ck_assert_str_eq(mip_profile_string(&p, f->object), "/lib/libc.so.6");

  const char *file = test_path("objects.mip");
  ck_assert_int_eq(mip_profile_write(file, &p, &err), 0);
  ck_assert_msg(mip_profile_read(file, &back, &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(back.heap_context_count, 3);
  ck_assert_str_eq(mip_profile_string(&back,
                                      frame_of(&back, &back.heap_contexts[1], 3)
                                          ->object),
                   "/lib/libc.so.6");
  /* Merged as a profile into an empty one: the same bytes. */
  struct mip_profile empty;
  struct mip_file f1, f2;
  heap_profile(&empty);
  ck_assert_msg(mip_profile_add_profile(&empty, "e", &back, "o", &err) == 0,
                "%s", err.msg);
  ck_assert_int_eq(mip_file_read(file, &f1, &err), 0);
  write_profile(&empty, "objects2.mip", &f2);
  ck_assert_uint_eq(f1.size, f2.size);
  ck_assert_mem_eq(f1.data, f2.data, f1.size);
  mip_file_free(&f1);
  mip_file_free(&f2);
  mip_profile_free(&empty);
  mip_profile_free(&back);
  mip_profile_free(&p);
}
END_TEST

START_TEST(merge_order_does_not_matter) {
  char *a = mip_xstrdup(run_a()), *b = mip_xstrdup(run_b()),
       *c = mip_xstrdup(run_c());
  const char *abc[] = {a, b, c}, *cba[] = {c, b, a}, *bac[] = {b, a, c};
  struct mip_file f1, f2, f3, f4, f5;
  merged(abc, 3, &f1, "abc.mip");
  merged(cba, 3, &f2, "cba.mip");
  merged(bac, 3, &f3, "bac.mip");
  assert_same_file(&f1, &f2);
  assert_same_file(&f1, &f3);

  /* a merge tree: (c + a) and b as profiles, merged both ways */
  struct mip_profile ca, pb, pb2;
  struct mip_error err;
  heap_profile(&ca);
  heap_profile(&pb);
  ck_assert_int_eq(add_heap_run(&ca, c, &err), 0);
  ck_assert_int_eq(add_heap_run(&ca, a, &err), 0);
  ck_assert_int_eq(add_heap_run(&pb, b, &err), 0);
  write_profile(&ca, "ca.mip", &f4);
  mip_file_free(&f4);
  struct mip_profile back;
  ck_assert_int_eq(mip_profile_read(test_path("ca.mip"), &back, &err), 0);
  ck_assert_msg(mip_profile_add_profile(&pb, "b", &back, "ca", &err) == 0, "%s",
                err.msg);
  write_profile(&pb, "tree.mip", &f4);
  assert_same_file(&f1, &f4);
  heap_profile(&pb2);
  ck_assert_int_eq(add_heap_run(&pb2, b, &err), 0);
  ck_assert_int_eq(mip_profile_add_profile(&back, "ca", &pb2, "b", &err), 0);
  write_profile(&back, "tree2.mip", &f5);
  assert_same_file(&f1, &f5);

  /* reading and writing again changes nothing */
  struct mip_profile again;
  ck_assert_int_eq(mip_profile_read(test_path("abc.mip"), &again, &err), 0);
  mip_file_free(&f5);
  write_profile(&again, "again.mip", &f5);
  assert_same_file(&f1, &f5);

  mip_profile_free(&again);
  mip_profile_free(&back);
  mip_profile_free(&ca);
  mip_profile_free(&pb);
  mip_profile_free(&pb2);
  mip_file_free(&f1);
  mip_file_free(&f2);
  mip_file_free(&f3);
  mip_file_free(&f4);
  mip_file_free(&f5);
  free(a);
  free(b);
  free(c);
}
END_TEST

START_TEST(heap_survives_write_and_read) {
  struct mip_profile p, back;
  struct mip_error err;
  heap_profile(&p);
  ck_assert_int_eq(add_heap_run(&p, run_a(), &err), 0);
  const char *path = test_path("heap.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  ck_assert_msg(mip_profile_read(path, &back, &err) == 0, "%s", err.msg);
  ck_assert_int_eq(back.has_heap, 1);
  ck_assert_uint_eq(back.heap_context_count, 2);
  ck_assert_uint_eq(back.heap_frame_count, 6);
  ck_assert_uint_eq(back.heap_stack_count, p.heap_stack_count);
  ck_assert_mem_eq(back.heap_contexts, p.heap_contexts,
                   2 * sizeof *p.heap_contexts);
  ck_assert_str_eq(frame_function(&back, &back.heap_contexts[0], 3),
                   "/lib/libc.so.6");
  ck_assert_uint_eq(back.heap_stats.freed_unseen, 3);
  ck_assert_uint_eq(back.heap_stats.truncated_stacks, 1);
  ck_assert_uint_eq(back.heap_stats.uninterposed, 1);
  ck_assert_uint_eq(back.heap_stats.live_uninterposed, 6);
  mip_profile_free(&back);
  mip_profile_free(&p);
}
END_TEST

START_TEST(heap_needs_a_symbolizer) {
  struct mip_profile p;
  struct mip_error err;
  struct mip_raw raw;
  heap_profile(&p);
  const char *path = run_a();
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_int_eq(mip_profile_add_raw(&p, "p.mip", &raw, path, &err), -1);
  ck_assert_msg(strstr(err.msg, "--debug"), "%s", err.msg);
  ck_assert_uint_eq(p.runs, 0);
  ck_assert_int_eq(p.has_heap, 0);
  ck_assert_uint_eq(p.functions[MAIN].covered_runs, 0);
  mip_raw_free(&raw);
  mip_profile_free(&p);
}
END_TEST

START_TEST(heap_refuses_a_site_the_map_lacks) {
  struct raw_parts r;
  default_parts(&r);
  add_context(&r, 1, BIAS + SITE + 2, make_mib(1, 8, 1, 2, 0));
  struct mip_profile p;
  struct mip_error err;
  heap_profile(&p);
  const char *path = write_raw("site.mipraw", &r);
  ck_assert_int_eq(add_heap_run(&p, path, &err), -1);
  ck_assert_msg(strstr(err.msg, "site byte at 0x6002 of the image, which its "
                                "map does not list"),
                "%s", err.msg);
  ck_assert_uint_eq(p.runs, 0);
  ck_assert_uint_eq(p.heap_context_count, 0);
  mip_profile_free(&p);
}
END_TEST

START_TEST(heap_stats_alone_count) {
  /* an image whose heap state lives elsewhere writes its stats only */
  struct mip_rec_raw_stat stat = {MIP_STAT_HEAP_UNSEEN_FREES, 0, 5};
  uint8_t bytes[mip_rec_raw_stat_size], cov[3] = {0}, sites[4] = {0};
  mip_rec_raw_stat_encode(&stat, bytes);
  const struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, COV, cov, 3},
      {MIP_RAW_SITE, 1, SITE, sites, 4},
      {MIP_RAW_STATS, mip_rec_raw_stat_size, 0, bytes, sizeof bytes}};
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, 3);
  const char *path = test_path("stats.mipraw");
  write_file(path, b.data, b.size);
  mip_buf_free(&b);
  struct mip_profile p;
  struct mip_raw raw;
  struct mip_error err;
  heap_profile(&p);
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_int_eq(raw.heap.present, 0);
  ck_assert_int_eq(mip_profile_add_raw(&p, "p.mip", &raw, path, &err), 0);
  ck_assert_int_eq(p.has_heap, 1);
  ck_assert_uint_eq(p.heap_stats.unseen_frees, 5);
  ck_assert_uint_eq(p.heap_context_count, 0);
  struct mip_profile back;
  const char *out = test_path("stats.mip");
  ck_assert_int_eq(mip_profile_write(out, &p, &err), 0);
  ck_assert_msg(mip_profile_read(out, &back, &err) == 0, "%s", err.msg);
  ck_assert_int_eq(back.has_heap, 1);
  ck_assert_uint_eq(back.heap_stats.unseen_frees, 5);
  ck_assert_uint_eq(back.heap_context_count, 0);
  mip_profile_free(&back);
  mip_raw_free(&raw);
  mip_profile_free(&p);
}
END_TEST

START_TEST(coverage_profiles_have_no_heap_sections) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  build_function(&m, "main", "", 0, 1, 0x1000, COV);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "m", &map, &err), 0);
  struct mip_profile p;
  mip_profile_from_map(&map, &p);
  struct mip_file f;
  write_profile(&p, "cov.mip", &f);
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, f.data);
  ck_assert_uint_eq(h.section_count, 3); /* strings, extents, functions */
  mip_file_free(&f);
  mip_profile_free(&p);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

/* ---- indexed profiles, broken ------------------------------------------- */

/* The bytes of a section of kind in f (entry_size too), or NULL. */
static uint8_t *section(struct mip_file *f, uint32_t kind, uint64_t *size,
                        uint32_t *entry_size) {
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, f->data);
  for (uint32_t i = 0; i < h.section_count; i++) {
    struct mip_rec_profile_section s;
    mip_rec_profile_section_decode(&s, f->data + h.header_size +
                                           i * mip_rec_profile_section_size);
    if (s.kind == kind) {
      *size = s.size;
      if (entry_size)
        *entry_size = s.entry_size;
      return f->data + s.offset;
    }
  }
  return NULL;
}

/* Rebuilds the file with section kind's bytes and entry size replaced
 * (drop: the section left out). */
static void replace_section(struct mip_file *f, uint32_t kind,
                            const uint8_t *data, uint64_t size,
                            uint32_t entry_size, int drop) {
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, f->data);
  struct mip_rec_profile_section s[MIP_PROF_KIND_COUNT];
  uint32_t n = 0;
  for (uint32_t i = 0; i < h.section_count; i++) {
    mip_rec_profile_section_decode(&s[n], f->data + h.header_size +
                                              i * mip_rec_profile_section_size);
    if (!(drop && s[n].kind == kind))
      n++;
  }
  struct mip_buf out = {0};
  h.section_count = n;
  mip_rec_profile_header_encode(
      &h, mip_buf_extend(&out, mip_rec_profile_header_size));
  mip_buf_extend(&out, n * mip_rec_profile_section_size);
  for (uint32_t i = 0; i < n; i++) {
    mip_buf_align(&out, 8);
    const uint8_t *bytes = f->data + s[i].offset;
    if (s[i].kind == kind) {
      bytes = data;
      s[i].size = size;
      s[i].entry_size = entry_size;
    }
    s[i].offset = out.size;
    mip_buf_append(&out, bytes, s[i].size);
    mip_rec_profile_section_encode(&s[i], out.data + h.header_size +
                                              i * mip_rec_profile_section_size);
  }
  mip_buf_align(&out, 8);
  mip_file_free(f);
  f->data = out.data;
  f->size = out.size;
}

static void good_heap_file(struct mip_file *f) {
  struct mip_profile p;
  struct mip_error err;
  heap_profile(&p);
  ck_assert_int_eq(add_heap_run(&p, run_a(), &err), 0);
  write_profile(&p, "good.mip", f);
  mip_profile_free(&p);
}

static void expect_profile_error(struct mip_file *f, const char *needle) {
  const char *path = test_path("bad.mip");
  write_file(path, f->data, f->size);
  struct mip_profile p;
  struct mip_error err;
  ck_assert_msg(mip_profile_read(path, &p, &err) == -1, "read, wanted '%s'",
                needle);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  ck_assert_msg(strncmp(err.msg, path, strlen(path)) == 0, "%s", err.msg);
  mip_profile_free(&p);
  mip_file_free(f);
}

/* ---- timeline and peaks ------------------------------------------------- */

/* A run whose peak is `bytes` (3 points), with AtPeakSize at its contexts
 * (S1 at site 0, S2 at site 1) as given. */
static const char *run_with_peak(const char *name, uint64_t bytes,
                                 uint64_t at1, uint64_t at2,
                                 struct mip_buf *payload) {
  struct raw_parts r;
  default_parts(&r);
  struct mip_mib m1 = make_mib(2, 64, 5, 9, 1), m2 = make_mib(1, 80, 1, 2, 0);
  m1.v[MIP_MIBI_AtPeakSize] = at1;
  m1.v[MIP_MIBI_AtPeakCount] = 1;
  m2.v[MIP_MIBI_AtPeakSize] = at2;
  m2.v[MIP_MIBI_AtPeakCount] = 1;
  add_context(&r, 1, BIAS + SITE, m1);
  add_context(&r, 2, BIAS + SITE + 1, m2);
  const struct mip_heap_peak k = {bytes, 2, 2, 3, 1, 7};
  const struct mip_heap_point pt[3] = {
      {1, 5, bytes / 2, 1}, {2, 7, bytes, 2}, {3, 9, 0, 0}};
  payload->size = 0;
  timeline_payload(payload, &k, pt, 3, mip_rec_heap_point_size);
  r.timeline = payload->data;
  r.timeline_size = payload->size;
  return write_raw(name, &r);
}

static uint64_t at_peak_of(const struct mip_profile *p, uint32_t site) {
  for (size_t i = 0; i < p->heap_context_count; i++)
    if (p->heap_contexts[i].site == site)
      return p->heap_contexts[i].mib.v[MIP_MIBI_AtPeakSize];
  ck_abort_msg("no context at site %u", site);
  return 0;
}

/* Two runs: the one with the higher peak gives the timeline and the
 * at-peak values, whichever comes first; both peaks are listed, highest
 * first; the result survives writing and reading. */
START_TEST(merge_keeps_the_highest_peak) {
  struct mip_buf t1 = {0}, t2 = {0};
  char *low = mip_xstrdup(run_with_peak("low.mipraw", 60, 40, 20, &t1));
  char *high = mip_xstrdup(run_with_peak("high.mipraw", 90, 30, 60, &t2));
  const char *lh[] = {low, high}, *hl[] = {high, low};
  struct mip_file f1, f2;
  merged(lh, 2, &f1, "lh.mip");
  merged(hl, 2, &f2, "hl.mip");
  assert_same_file(&f1, &f2);
  struct mip_profile p;
  struct mip_error err;
  ck_assert_msg(mip_profile_read(test_path("lh.mip"), &p, &err) == 0, "%s",
                err.msg);
  ck_assert_uint_eq(p.heap_peak_count, 2);
  ck_assert_uint_eq(p.heap_peaks[0].bytes, 90);
  ck_assert_uint_eq(p.heap_peaks[1].bytes, 60);
  ck_assert_uint_eq(p.heap_point_count, 3);
  ck_assert_uint_eq(p.heap_points[1].bytes, 90);
  ck_assert_uint_eq(at_peak_of(&p, 0), 30);
  ck_assert_uint_eq(at_peak_of(&p, 1), 60);
  mip_profile_free(&p);

  /* One run alone: its own values; a profile merged into it compares
   * its highest peak the same way. */
  struct mip_profile one, two;
  heap_profile(&one);
  heap_profile(&two);
  ck_assert_int_eq(add_heap_run(&one, low, &err), 0);
  ck_assert_uint_eq(at_peak_of(&one, 0), 40);
  ck_assert_int_eq(add_heap_run(&two, high, &err), 0);
  ck_assert_int_eq(mip_profile_add_profile(&one, "one", &two, "two", &err), 0);
  struct mip_file f3;
  write_profile(&one, "tree.mip", &f3);
  assert_same_file(&f1, &f3);
  mip_profile_free(&one);
  mip_profile_free(&two);
  mip_file_free(&f1);
  mip_file_free(&f2);
  mip_file_free(&f3);
  mip_buf_free(&t1);
  mip_buf_free(&t2);
  free(low);
  free(high);
}
END_TEST

/* A raw profile without a timeline (an older runtime's, or another
 * image's) merges as before: its at-peak values add up. */
START_TEST(runs_without_timeline_add_up) {
  struct mip_profile p;
  struct mip_error err;
  heap_profile(&p);
  ck_assert_int_eq(add_heap_run(&p, run_a(), &err), 0);
  ck_assert_uint_eq(p.heap_peak_count, 0);
  const char *path = test_path("nopeak.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  struct mip_file f;
  ck_assert_int_eq(mip_file_read(path, &f, &err), 0);
  uint64_t size;
  ck_assert_ptr_null(section(&f, MIP_PROF_HEAP_PEAKS, &size, NULL));
  ck_assert_ptr_null(section(&f, MIP_PROF_HEAP_TIMELINE, &size, NULL));
  mip_file_free(&f);
  mip_profile_free(&p);
}
END_TEST

static const char *raw_timeline(const struct mip_heap_peak *k,
                                const struct mip_heap_point *pt, uint32_t n,
                                uint32_t point_size, struct mip_buf *b) {
  b->size = 0;
  timeline_payload(b, k, pt, n, point_size);
  return raw_with("t.mipraw", MIP_RAW_HEAP_TIMELINE, b->data, b->size);
}

START_TEST(raw_refuses_bad_timelines) {
  const struct mip_heap_peak good = {100, 2, 2, 3, 1, 7};
  const struct mip_heap_point pt[3] = {
      {1, 5, 50, 1}, {2, 7, 100, 2}, {3, 9, 0, 0}};
  struct mip_buf b = {0};
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_msg(mip_raw_read(raw_timeline(&good, pt, 3, 32, &b), &raw, &err) ==
                    0,
                "%s", err.msg);
  ck_assert_int_eq(raw.heap.has_timeline, 1);
  ck_assert_uint_eq(raw.heap.point_count, 3);
  ck_assert_uint_eq(raw.heap.points[1].bytes, 100);
  mip_raw_free(&raw);
  /* Points of a later version, longer: their head is read. */
  ck_assert_int_eq(mip_raw_read(raw_timeline(&good, pt, 3, 40, &b), &raw, &err),
                   0);
  ck_assert_uint_eq(raw.heap.points[2].event, 3);
  mip_raw_free(&raw);

  b.size = 0;
  timeline_payload(&b, &good, pt, 3, 32);
  expect_raw_error(raw_with("t.mipraw", MIP_RAW_HEAP_TIMELINE, b.data, 40),
                   "heap timeline is truncated");
  expect_raw_error(raw_with("t.mipraw", MIP_RAW_HEAP_TIMELINE, b.data, 96),
                   "heap timeline does not hold its points");
  expect_raw_error(raw_timeline(&good, pt, 3, 24, &b),
                   "heap timeline has points of a bad size");
  struct mip_heap_peak k = good;
  k.interval = 3;
  expect_raw_error(raw_timeline(&k, pt, 3, 32, &b),
                   "interval that is not a power of two");
  k = good;
  k.event = 4;
  expect_raw_error(raw_timeline(&k, pt, 3, 32, &b),
                   "has its peak after its last event");
  k = good;
  k.blocks = 3;
  expect_raw_error(raw_timeline(&k, pt, 3, 32, &b),
                   "more blocks at its peak than births before it");
  struct mip_heap_point bad[3];
  memcpy(bad, pt, sizeof bad);
  bad[2].event = 2;
  expect_raw_error(raw_timeline(&good, bad, 3, 32, &b),
                   "has points out of order");
  memcpy(bad, pt, sizeof bad);
  bad[2].event = 4;
  expect_raw_error(raw_timeline(&good, bad, 3, 32, &b),
                   "has a point after its last event");
  memcpy(bad, pt, sizeof bad);
  bad[0].bytes = 101;
  expect_raw_error(raw_timeline(&good, bad, 3, 32, &b),
                   "has a point above its peak");
  memcpy(bad, pt, sizeof bad);
  bad[0].blocks = 2;
  expect_raw_error(raw_timeline(&good, bad, 3, 32, &b),
                   "has a point with more blocks than events");
  mip_buf_free(&b);
}
END_TEST

static void peak_file(struct mip_file *f) {
  struct mip_buf t1 = {0}, t2 = {0};
  char *low = mip_xstrdup(run_with_peak("low.mipraw", 60, 40, 20, &t1));
  char *high = mip_xstrdup(run_with_peak("high.mipraw", 90, 30, 60, &t2));
  const char *both[] = {low, high};
  merged(both, 2, f, "peaks.mip");
  mip_buf_free(&t1);
  mip_buf_free(&t2);
  free(low);
  free(high);
}

START_TEST(profile_refuses_bad_timelines) {
  struct mip_file f;
  uint64_t size;
  uint8_t *at;

  peak_file(&f);
  replace_section(&f, MIP_PROF_HEAP_PEAKS, NULL, 0, mip_rec_heap_peak_size, 1);
  expect_profile_error(&f, "a heap timeline without a peak");

  peak_file(&f);
  at = section(&f, MIP_PROF_HEAP_PEAKS, &size, NULL);
  mip_put_le64(at, 10); /* the first peak below the second */
  expect_profile_error(&f, "heap peaks not highest first");

  peak_file(&f);
  at = section(&f, MIP_PROF_HEAP_PEAKS, &size, NULL);
  mip_put_le64(at + mip_rec_heap_peak_size + 32, 0); /* second's interval */
  expect_profile_error(&f, "heap peak 1 has an interval that is not");

  peak_file(&f);
  at = section(&f, MIP_PROF_HEAP_TIMELINE, &size, NULL);
  mip_put_le64(at + 2 * mip_rec_heap_point_size, 1); /* third's event */
  expect_profile_error(&f, "heap timeline has points out of order");

  peak_file(&f);
  at = section(&f, MIP_PROF_HEAP_TIMELINE, &size, NULL);
  mip_put_le64(at + 16, 1000); /* first point's bytes */
  expect_profile_error(&f, "heap timeline has a point above its peak");
}
END_TEST

START_TEST(profile_refuses_bad_heap_sections) {
  struct mip_file f;
  uint64_t size;
  uint32_t entry;
  uint8_t *at;

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_FRAMES, &size, NULL);
  mip_put_le32(at + 4, 1u << 30); /* first frame's file */
  expect_profile_error(&f, "heap frame 0 names a string out of range");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_FRAMES, &size, NULL);
  mip_put_le32(at + 20, 1u << 30); /* first frame's object */
  expect_profile_error(&f, "heap frame 0 names a string out of range");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_FRAMES, &size, &entry);
  for (uint64_t i = 0; i < size / entry; i++) /* libc's: outside */
    if (mip_get_le32(at + i * entry + 16) & MIP_FRAME_OUTSIDE) {
      mip_put_le32(at + i * entry + 20, mip_get_le32(at + i * entry));
      break;
    }
  expect_profile_error(&f, "is outside the image and names an object");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_STACKS, &size, NULL);
  mip_put_le32(at + 8, 6);
  expect_profile_error(&f, "heap stack entry 2 names frame 6 of 6");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_CONTEXTS, &size, NULL);
  mip_put_le32(at + 4, 100); /* frame_count */
  expect_profile_error(&f, "heap context 0 has frames out of range");

  /* ranges that overlap (each in bounds, their sum past the stacks
   * table), or leave entries unused */
  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_CONTEXTS, &size, &entry);
  mip_put_le32(at + entry, 0); /* second context's first frame */
  expect_profile_error(&f, "heap context 1's frames start at 0, not right "
                           "after the previous context's");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_CONTEXTS, &size, &entry);
  mip_put_le32(at + size - entry + 4,
               mip_get_le32(at + size - entry + 4) - 1); /* last's count */
  expect_profile_error(&f, "stack entries, the stacks table has");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_CONTEXTS, &size, &entry);
  mip_put_le32(at + entry + 8, 3); /* second context's site */
  expect_profile_error(&f, "heap context 1 names site 3 of 3");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_SCHEMA, &size, NULL);
  mip_put_le32(at + 4, 1);
  expect_profile_error(&f, "heap schema names field 1 twice");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_SCHEMA, &size, NULL);
  mip_put_le32(at, 0);
  expect_profile_error(&f, "heap schema has field id 0");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_SCHEMA, &size, NULL);
  mip_put_le32(at, 999);      /* AllocCount and MinSize (4 bytes each) become */
  mip_put_le32(at + 20, 998); /* 8 unknown bytes each */
  expect_profile_error(&f, "heap contexts of 208 bytes cannot hold their "
                           "212 bytes");

  good_heap_file(&f);
  replace_section(&f, MIP_PROF_HEAP_SCHEMA, NULL, 0, 4, 1);
  expect_profile_error(&f, "heap contexts without a heap schema");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_CONTEXTS, &size, &entry);
  replace_section(&f, MIP_PROF_HEAP_CONTEXTS, at, size, 8, 0);
  expect_profile_error(&f, "has entries too small");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_SITES, &size, &entry);
  mip_put_le64(at + entry + 24, 0); /* second site's offset */
  expect_profile_error(&f, "heap sites out of order");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_SITES, &size, &entry);
  mip_put_le32(at, 3); /* function */
  expect_profile_error(&f, "heap site 0 names function 3 of 3");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_SITES, &size, &entry);
  mip_put_le64(at + 2 * entry + 24, 4);
  expect_profile_error(&f, "heap site 2 lies outside the site counters");

  good_heap_file(&f);
  at = section(&f, MIP_PROF_HEAP_SITES, &size, &entry);
  mip_put_le32(at + 8, 1u << 30); /* name */
  expect_profile_error(&f, "heap site 0 names a string out of range");
}
END_TEST

/* A heap profile whose first context's MemInfoBlock field is set to the
 * value of another field plus add. */
static void heap_file_with(struct mip_file *f, int field, int from,
                           uint64_t add) {
  struct mip_profile p;
  struct mip_error err;
  heap_profile(&p);
  ck_assert_int_eq(add_heap_run(&p, run_a(), &err), 0);
  struct mip_mib *m = &p.heap_contexts[0].mib;
  m->v[field] = m->v[from] + add;
  write_profile(&p, "odd.mip", f);
  mip_profile_free(&p);
}

/* Numbers no run or merge can give are refused like broken structure. */
START_TEST(profile_refuses_contradicting_mibs) {
  struct mip_file f;
  heap_file_with(&f, MIP_MIBI_LiveAtExitCount, MIP_MIBI_AllocCount, 1);
  expect_profile_error(&f, "blocks live at exit of");
  heap_file_with(&f, MIP_MIBI_MinSize, MIP_MIBI_MaxSize, 1);
  expect_profile_error(&f, "heap context 0 has MinSize");
  heap_file_with(&f, MIP_MIBI_LiveAtExitSize, MIP_MIBI_TotalSize, 1);
  expect_profile_error(&f, "bytes live at exit of");
}
END_TEST

/* Version 1 had a reserved u32 where version 2 has a frame's object:
 * read as none, whatever it holds. */
START_TEST(profile_reads_version_1_frames) {
  struct mip_file f;
  uint64_t size;
  uint32_t entry;
  good_heap_file(&f);
  ck_assert_uint_eq(mip_get_le32(f.data + 8), MIP_PROFILE_VERSION);
  mip_put_le32(f.data + 8, 1);
  uint8_t *at = section(&f, MIP_PROF_HEAP_FRAMES, &size, &entry);
  mip_put_le32(at + 20, 1u << 30);
  const char *path = test_path("v1.mip");
  write_file(path, f.data, f.size);
  struct mip_profile p;
  struct mip_error err;
  ck_assert_msg(mip_profile_read(path, &p, &err) == 0, "%s", err.msg);
  for (size_t i = 0; i < p.heap_frame_count; i++)
    ck_assert_uint_eq(p.heap_frames[i].object, 0);
  ck_assert_uint_eq(p.heap_context_count, 2);
  mip_profile_free(&p);
  mip_file_free(&f);
}
END_TEST

/* A later version's schema: an unknown field first, contexts wider. */
START_TEST(profile_skips_unknown_heap_fields) {
  struct mip_file f;
  uint64_t size, csize;
  uint32_t entry;
  good_heap_file(&f);
  uint8_t *schema = section(&f, MIP_PROF_HEAP_SCHEMA, &size, NULL);
  struct mip_buf s2 = {0}, c2 = {0};
  mip_put_le32(mip_buf_extend(&s2, 4), 4242);
  mip_buf_append(&s2, schema, size);
  const uint8_t *ctx = section(&f, MIP_PROF_HEAP_CONTEXTS, &csize, &entry);
  for (uint64_t at = 0; at < csize; at += entry) {
    mip_buf_append(&c2, ctx + at, 16);                /* head */
    mip_put_le64(mip_buf_extend(&c2, 8), 0xdeadbeef); /* the new field */
    mip_buf_append(&c2, ctx + at + 16, entry - 16);   /* the rest */
  }
  replace_section(&f, MIP_PROF_HEAP_SCHEMA, s2.data, s2.size, 4, 0);
  ctx = NULL;
  replace_section(&f, MIP_PROF_HEAP_CONTEXTS, c2.data, c2.size, entry + 8, 0);
  const char *path = test_path("newer.mip");
  write_file(path, f.data, f.size);
  struct mip_profile p;
  struct mip_error err;
  ck_assert_msg(mip_profile_read(path, &p, &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(p.heap_context_count, 2);
  ck_assert_uint_eq(p.heap_contexts[0].mib.v[MIP_MIBI_AllocCount], 3);
  ck_assert_uint_eq(p.heap_contexts[0].mib.v[MIP_MIBI_TotalSize], 80);
  ck_assert_uint_eq(p.heap_contexts[0].mib.v[MIP_MIBI_ReallocCount], 2);
  mip_profile_free(&p);
  mip_buf_free(&s2);
  mip_buf_free(&c2);
  mip_file_free(&f);
}
END_TEST

START_TEST(profiles_with_other_sites_do_not_merge) {
  struct mip_profile a, b;
  struct mip_error err;
  heap_profile(&a);
  heap_profile(&b);
  b.heap_sites[1].line = 21;
  ck_assert_int_eq(mip_profile_add_profile(&a, "a", &b, "b", &err), -1);
  ck_assert_msg(strstr(err.msg, "b: from another build: its heap sites "
                                "differ from a"),
                "%s", err.msg);
  mip_profile_free(&a);
  mip_profile_free(&b);
}
END_TEST

Suite *heap_suite(void) {
  Suite *s = suite_create("heap");
  TCase *tc = tcase_create("heap");
  tcase_add_test(tc, map_reads_heap_sites);
  tcase_add_test(tc, map_refuses_bad_heap_sites);
  tcase_add_test(tc, profile_takes_the_map_sites);
  tcase_add_test(tc, raw_reads_heap_payloads);
  tcase_add_test(tc, raw_skips_unknown_fields);
  tcase_add_test(tc, raw_refuses_bad_contexts);
  tcase_add_test(tc, raw_refuses_contradicting_mibs);
  tcase_add_test(tc, raw_refuses_bad_stacks);
  tcase_add_test(tc, raw_refuses_bad_segments);
  tcase_add_test(tc, raw_without_contexts_is_fine);
  tcase_add_test(tc, mib_fields_follow_mib_inc);
  tcase_add_test(tc, mib_merge_rules);
  tcase_add_test(tc, merge_symbolizes_and_combines_contexts);
  tcase_add_test(tc, merge_takes_stacks_of_depth_0);
  tcase_add_test(tc, merge_symbolizes_other_images);
  tcase_add_test(tc, merge_order_does_not_matter);
  tcase_add_test(tc, heap_survives_write_and_read);
  tcase_add_test(tc, heap_needs_a_symbolizer);
  tcase_add_test(tc, heap_refuses_a_site_the_map_lacks);
  tcase_add_test(tc, heap_stats_alone_count);
  tcase_add_test(tc, coverage_profiles_have_no_heap_sections);
  tcase_add_test(tc, profile_refuses_bad_heap_sections);
  tcase_add_test(tc, merge_keeps_the_highest_peak);
  tcase_add_test(tc, runs_without_timeline_add_up);
  tcase_add_test(tc, raw_refuses_bad_timelines);
  tcase_add_test(tc, profile_refuses_bad_timelines);
  tcase_add_test(tc, profile_refuses_contradicting_mibs);
  tcase_add_test(tc, profile_reads_version_1_frames);
  tcase_add_test(tc, profile_skips_unknown_heap_fields);
  tcase_add_test(tc, profiles_with_other_sites_do_not_merge);
  suite_add_tcase(s, tc);
  return s;
}
