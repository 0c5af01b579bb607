/* The report model (tools/mipdata/report/report.h): keys that match the entities
 * of two builds of one program, iteration orders. The profiles are made
 * as merge makes them, from a map and a raw profile whose call stacks a
 * fake debug binary symbolizes; the second build has every line two
 * further down, its code at other addresses and its sites in another
 * order, as after an edit that only adds lines above. */
#include <stdlib.h>
#include <string.h>

#include "flame_tree.h"
#include "folded.h"
#include "report.h"
#include "report_match.h"
#include "report_metric.h"
#include "report_text.h"
#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

#define COV 0x5000
#define SITE 0x6000
#define BIAS 0x555555554000ULL
#define LIBC 0x7f0000000000ULL

/* One build: its lines moved down by shift, its code 0x100 bytes up when
 * moved, the two allocation sites' bytes swapped when swap. */
struct build {
  uint32_t shift, moved, swap;
  struct mip_build_id id;
};

static const struct build BUILD_A = {0, 0, 0, {4, {1, 2, 3, 4}}};
/* A itself, built again another way: other addresses, sites in another
 * order. */
static const struct build BUILD_A2 = {0, 1, 1, {4, {1, 1, 1, 1}}};
/* A after two lines were added at the top of each file. */
static const struct build BUILD_B = {2, 1, 1, {4, {5, 6, 7, 8}}};

static uint64_t code(const struct build *b, uint64_t link) {
  return link + 0x100 * b->moved;
}

/* main, helper and a static stat in a.c; helper calls inner (b.h, inlined
 * into it), which calls malloc; main calls new and free. */
static void build_map(struct mip_buf *m, const struct build *b, int extra) {
  const struct slot_spec sections[] = {{MIP_RAW_COV, 0, COV, COV + 3},
                                       {MIP_RAW_SITE, 0, SITE, SITE + 6}};
  uint32_t s = b->shift, swap = b->swap;
  build_unit_sections(m, "a.c", sections, 2);
  build_function(m, "main", "", 0, 1, code(b, 0x1000), COV);
  build_function(m, "helper", "", 0, 2, code(b, 0x1100), COV + 1);
  build_function(m, "stat", "a.c", MIP_FN_LOCAL, 3, code(b, 0x1200), COV + 2);
  build_heap_site(m, SITE + swap, COV + 1, 3 + s, 5, MIP_ALLOC_MALLOC, "b.h",
                  "_Z5innerv");
  build_heap_site(m, SITE + !swap, COV, 10 + s, 3, MIP_ALLOC_NEW, "a.c",
                  "main");
  build_heap_site(m, SITE + 2, COV, 12 + s, 3, MIP_ALLOC_FREE, "a.c", "main");
  if (!extra)
    return;
  /* Code built without -g names no file or function: two such calls of
   * one function would share a key. */
  build_heap_site(m, SITE + 3, COV + 2, 0, 0, MIP_ALLOC_MALLOC, "", "");
  build_heap_site(m, SITE + 4, COV + 2, 0, 0, MIP_ALLOC_MALLOC, "", "");
  build_heap_site(m, SITE + 5, COV, 7, 1, 99, "x:y@z|w%#\t\177.c", "main");
}

/* What the fake binary's DWARF says of each return address minus one. */
static size_t fake_frames(void *ctx, uint64_t addr,
                          const struct mip_frame_info **frames) {
  const struct build *b = ctx;
  static struct mip_frame_info f[2];
  uint32_t s = b->shift;
  if (addr == code(b, 0x1110)) {
    f[0] = (struct mip_frame_info){"_Z5innerv", "b.h", 3 + s, 5};
    f[1] = (struct mip_frame_info){"helper", "a.c", 20 + s, 5};
    *frames = f;
    return 2;
  }
  if (addr == code(b, 0x1020) || addr == code(b, 0x1030) ||
      addr == code(b, 0x1010)) {
    uint32_t line = addr == code(b, 0x1020)   ? 30
                    : addr == code(b, 0x1030) ? 31
                                              : 10;
    f[0] = (struct mip_frame_info){"main", "a.c", line + s, 3};
    *frames = f;
    return 1;
  }
  return 0;
}

static struct mip_mib mib(uint64_t count, uint64_t size) {
  struct mip_mib m;
  memset(&m, 0, sizeof m);
  m.v[MIP_MIBI_AllocCount] = count;
  m.v[MIP_MIBI_TotalSize] = size;
  m.v[MIP_MIBI_MinSize] = size / count;
  m.v[MIP_MIBI_MaxSize] = size / count;
  return m;
}

/* Three contexts: malloc under main's calls of helper at lines 30 and 31
 * (2 blocks, 100 bytes; 5 blocks, 50 bytes), new in main (1 block, 100
 * bytes); each under libc, which is not symbolized. */
static const char *write_raw(const struct build *b, const char *name) {
  uint64_t ret = BIAS + 1, libc = LIBC + 0x100;
  const uint64_t s1[] = {ret + code(b, 0x1110), ret + code(b, 0x1020), libc};
  const uint64_t s2[] = {ret + code(b, 0x1110), ret + code(b, 0x1030), libc};
  const uint64_t s3[] = {ret + code(b, 0x1010), libc};
  const struct heap_stack_spec stacks[] = {
      {1, 0, 3, s1}, {2, 0, 3, s2}, {3, 0, 2, s3}};
  uint64_t malloc_site = SITE + b->swap, new_site = SITE + !b->swap;
  const struct heap_context_spec contexts[] = {
      {1, BIAS + malloc_site, mib(2, 100)},
      {2, BIAS + malloc_site, mib(5, 50)},
      {3, BIAS + new_site, mib(1, 100)}};
  const struct heap_segment_spec segments[] = {
      {BIAS + 0x1000, BIAS + 0x7000, BIAS, &b->id, ""},
      {LIBC, LIBC + 0x100000, LIBC, NULL, "/lib/libc.so.6"}};
  uint32_t schema[MIP_MIB_COUNT];
  struct mip_buf mibs = {0}, stk = {0}, seg = {0}, raw = {0};
  build_heap_mibs(&mibs, schema, full_schema(schema), contexts, 3);
  build_heap_stacks(&stk, stacks, 3);
  build_heap_segments(&seg, segments, 2);
  uint8_t cov[3] = {1, 1, 0}, sites[6] = {1, 1, 1};
  const struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, COV, cov, 3},
      {MIP_RAW_SITE, 1, SITE, sites, 6},
      {MIP_RAW_HEAP_MIBS, 1, 0, mibs.data, mibs.size},
      {MIP_RAW_HEAP_STACKS, 1, 0, stk.data, stk.size},
      {MIP_RAW_HEAP_SEGMENTS, 1, 0, seg.data, seg.size}};
  build_raw_payloads(&raw, &b->id, payloads, 5);
  const char *path = test_path(name);
  write_file(path, raw.data, raw.size);
  mip_buf_free(&mibs);
  mip_buf_free(&stk);
  mip_buf_free(&seg);
  mip_buf_free(&raw);
  return path;
}

/* The profile of one run of build b, as merge writes it. */
static const char *write_profile(const struct build *b, int extra,
                                 const char *name) {
  struct mip_buf m = {0};
  struct mip_map map;
  struct mip_profile p;
  struct mip_raw raw;
  struct mip_error err;
  build_map(&m, b, extra);
  ck_assert_msg(mip_map_parse(m.data, m.size, "m", &map, &err) == 0, "%s",
                err.msg);
  map.build_id = b->id;
  mip_profile_from_map(&map, &p);
  const char *raw_path = write_raw(b, "run.mipraw");
  const struct mip_symbolizer sym = {fake_frames, (void *)b, NULL, NULL};
  ck_assert_msg(mip_raw_read(raw_path, &raw, &err) == 0 &&
                    mip_profile_add_run(&p, name, &raw, raw_path, &sym,
                                        &err) == 0,
                "%s", err.msg);
  const char *path = test_path(name);
  ck_assert_msg(mip_profile_write(path, &p, &err) == 0, "%s", err.msg);
  mip_raw_free(&raw);
  mip_profile_free(&p);
  mip_map_free(&map);
  mip_buf_free(&m);
  return path;
}

/* Declarations, as the fake binary's DWARF has them: stat has none. */
static int fake_lookup(void *ctx, uint64_t entry, const char **file,
                       uint32_t *line) {
  const struct build *b = ctx;
  *file = "a.c";
  *line = (entry == code(b, 0x1000) ? 8 : 18) + b->shift;
  return entry == code(b, 0x1200) ? -1 : 0;
}

static void open_build(const struct build *b, int extra, const char *name,
                       struct report *r) {
  struct mip_error err;
  const char *path = write_profile(b, extra, name);
  ck_assert_msg(report_open(path, r, &err) == 0, "%s", err.msg);
  report_locate(r, &(struct report_locator){fake_lookup, (void *)b});
}

/* ---- keys ------------------------------------------------------------- */

enum entity { FUNCTIONS, SITES, CONTEXTS };

static int by_string(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The keys of one kind of r's entities of one kind, sorted, in a string
 * ("k1\nk2\n..."), so that two builds' compare whatever their order. */
static char *keys(const struct report *r, enum entity what,
                  enum report_key kind) {
  size_t n = what == FUNCTIONS ? r->function_count
             : what == SITES   ? r->site_count
                               : r->context_count;
  char **k = mip_xcalloc(n + 1, sizeof *k);
  for (size_t i = 0; i < n; i++)
    k[i] = what == FUNCTIONS ? r->functions[i].key[kind]
           : what == SITES   ? r->sites[i].key[kind]
                             : r->contexts[i].key[kind];
  qsort(k, n, sizeof *k, by_string);
  struct mip_buf b = {0};
  for (size_t i = 0; i < n; i++) {
    mip_buf_append(&b, k[i], strlen(k[i]));
    mip_buf_append(&b, "\n", 1);
  }
  mip_buf_append(&b, "", 1);
  free(k);
  return (char *)b.data;
}

/* Whether some fine key of a is one of b's. */
static int fine_keys_meet(const struct report *a, const struct report *b,
                          enum entity what) {
  char *x = keys(a, what, REPORT_FINE), *y = keys(b, what, REPORT_FINE);
  int meet = 0;
  for (char *line = strtok(x, "\n"); line; line = strtok(NULL, "\n")) {
    char *at = strstr(y, line);
    meet |= at && (at == y || at[-1] == '\n') && at[strlen(line)] == '\n';
  }
  free(x);
  free(y);
  return meet;
}

static void expect_same_keys(const struct report *a, const struct report *b,
                             enum entity what, enum report_key kind) {
  char *x = keys(a, what, kind), *y = keys(b, what, kind);
  ck_assert_str_eq(x, y);
  free(x);
  free(y);
}

START_TEST(keys_ignore_indices_and_addresses) {
  struct report a, a2;
  open_build(&BUILD_A, 0, "a.mip", &a);
  open_build(&BUILD_A2, 0, "a2.mip", &a2);
  /* The sites, and so the contexts, come in another order. */
  ck_assert_str_eq(a.sites[0].function, "_Z5innerv");
  ck_assert_str_eq(a2.sites[1].function, "_Z5innerv");
  ck_assert_str_eq(a.contexts[0].site->function, "_Z5innerv");
  ck_assert_str_eq(a2.contexts[0].site->function, "main");
  for (int what = FUNCTIONS; what <= CONTEXTS; what++) {
    expect_same_keys(&a, &a2, (enum entity)what, REPORT_FINE);
    expect_same_keys(&a, &a2, (enum entity)what, REPORT_COARSE);
  }
  report_free(&a);
  report_free(&a2);
}
END_TEST

START_TEST(keys_match_builds_whose_lines_moved) {
  struct report a, b;
  open_build(&BUILD_A, 0, "a.mip", &a);
  open_build(&BUILD_B, 0, "b.mip", &b);
  ck_assert_str_eq(a.functions[2].key[REPORT_FINE], "main@a.c:8");
  ck_assert_str_eq(a.functions[2].key[REPORT_COARSE], "main@a.c");
  ck_assert_str_eq(b.functions[2].key[REPORT_FINE], "main@a.c:10");
  ck_assert_str_eq(a.sites[0].key[REPORT_FINE], "malloc:_Z5innerv@b.h:3:5");
  ck_assert_str_eq(a.sites[0].key[REPORT_COARSE], "malloc:_Z5innerv@b.h");
  ck_assert_str_eq(a.contexts[0].key[REPORT_FINE],
                   "malloc:_Z5innerv@b.h:3:5|_Z5innerv@b.h:3:5|"
                   "helper@a.c:20:5|main@a.c:30:3|/lib/libc.so.6@:0:0");
  ck_assert_str_eq(a.contexts[0].key[REPORT_COARSE],
                   "malloc|_Z5innerv@b.h|helper@a.c|main@a.c|"
                   "/lib/libc.so.6@");
  /* Coarse keys: the same; fine keys: none the same but the static
   * function's, of which DWARF knows no line. */
  for (int what = FUNCTIONS; what <= CONTEXTS; what++)
    expect_same_keys(&a, &b, (enum entity)what, REPORT_COARSE);
  ck_assert_str_eq(a.functions[0].key[REPORT_FINE], "a.c;stat@:0");
  ck_assert_str_eq(b.functions[0].key[REPORT_FINE], "a.c;stat@:0");
  free(a.functions[0].key[REPORT_FINE]);
  a.functions[0].key[REPORT_FINE] = mip_xstrdup("(set aside)");
  ck_assert(!fine_keys_meet(&a, &b, FUNCTIONS));
  ck_assert(!fine_keys_meet(&a, &b, SITES));
  ck_assert(!fine_keys_meet(&a, &b, CONTEXTS));
  report_free(&a);
  report_free(&b);
}
END_TEST

START_TEST(contexts_that_differ_in_lines_share_a_coarse_key) {
  struct report r;
  open_build(&BUILD_A, 0, "a.mip", &r);
  /* Contexts 0 and 1: malloc under main's two calls of helper. */
  ck_assert_str_ne(r.contexts[0].key[REPORT_FINE],
                   r.contexts[1].key[REPORT_FINE]);
  ck_assert_str_eq(r.contexts[0].key[REPORT_COARSE],
                   r.contexts[1].key[REPORT_COARSE]);
  ck_assert_str_ne(r.contexts[0].key[REPORT_COARSE],
                   r.contexts[2].key[REPORT_COARSE]);
  ck_assert_str_eq(r.contexts[2].key[REPORT_COARSE],
                   "operator new|main@a.c|/lib/libc.so.6@");
  report_free(&r);
}
END_TEST

START_TEST(fine_keys_are_unique_and_escaped) {
  struct report r;
  open_build(&BUILD_A, 1, "extra.mip", &r);
  ck_assert_uint_eq(r.site_count, 6);
  /* Without -g: the function the call was compiled into names it. */
  ck_assert_str_eq(r.sites[3].key[REPORT_FINE], "malloc:a.c;stat@:0:0");
  ck_assert_str_eq(r.sites[4].key[REPORT_FINE], "malloc:a.c;stat@:0:0#2");
  ck_assert_str_eq(r.sites[4].key[REPORT_COARSE], "malloc:a.c;stat@");
  ck_assert_str_eq(r.sites[5].key[REPORT_FINE],
                   "allocator 99:main@x%3Ay%40z%7Cw%25%23%09%7F.c:7:1");
  for (size_t i = 0; i < r.site_count; i++)
    for (size_t j = i + 1; j < r.site_count; j++)
      ck_assert_str_ne(r.sites[i].key[REPORT_FINE],
                       r.sites[j].key[REPORT_FINE]);
  report_free(&r);
}
END_TEST

/* ---- iteration ----------------------------------------------------------- */

START_TEST(frames_go_leaf_first_or_root_first) {
  static const char *const leaf_first[] = {"_Z5innerv", "helper", "main",
                                           "/lib/libc.so.6"};
  struct report r;
  open_build(&BUILD_A, 0, "a.mip", &r);
  for (int d = REPORT_LEAF_FIRST; d <= REPORT_ROOT_FIRST; d++) {
    struct report_frame_iter it;
    report_frames_begin(&it, &r, &r.contexts[0], (enum report_direction)d);
    for (int k = 0; k < 4; k++) {
      const struct report_frame *f = report_frames_next(&it);
      ck_assert_ptr_nonnull(f);
      ck_assert_str_eq(f->function, leaf_first[d ? 3 - k : k]);
    }
    ck_assert_ptr_null(report_frames_next(&it));
  }
  const struct report_frame *f = &r.frames[r.contexts[0].stack[0]];
  ck_assert(f->inlined && !f->outside && f->line == 3);
  report_free(&r);
}
END_TEST

/* The contexts in order, by their blocks (2, 5 and 1 make them out). */
static void expect_order(const struct report *r, const struct report_site *s,
                         enum report_order order, const char *want) {
  char got[8] = "";
  struct report_context_iter it;
  report_contexts_begin(&it, r, s, order);
  for (const struct report_context *c; (c = report_contexts_next(&it));)
    got[strlen(got)] = (char)('0' + c->mib.v[MIP_MIBI_AllocCount]);
  report_contexts_end(&it);
  ck_assert_str_eq(got, want);
}

START_TEST(contexts_go_in_each_order) {
  struct report r;
  open_build(&BUILD_A, 0, "a.mip", &r);
  /* Profile order: by site (malloc's is first), then frames (line 30
   * before 31). Bytes: 100, 100 (a tie, in profile order), 50. */
  expect_order(&r, NULL, REPORT_BY_PROFILE, "251");
  expect_order(&r, NULL, REPORT_BY_BYTES, "215");
  expect_order(&r, NULL, REPORT_BY_COUNT, "521");
  expect_order(&r, NULL, REPORT_BY_KEY, "251"); /* "malloc:" < "operator" */
  expect_order(&r, &r.sites[0], REPORT_BY_BYTES, "25");
  expect_order(&r, &r.sites[0], REPORT_BY_COUNT, "52");
  expect_order(&r, &r.sites[1], REPORT_BY_PROFILE, "1");
  expect_order(&r, &r.sites[2], REPORT_BY_PROFILE, "");
  report_free(&r);
}
END_TEST

/* ---- metrics ---------------------------------------------------------- */

START_TEST(metrics_sum_and_average_contexts) {
  struct report r;
  open_build(&BUILD_A, 0, "a.mip", &r);
  struct report_amount bytes = report_total(&r, REPORT_BYTES);
  ck_assert_uint_eq(bytes.sum, 250); /* 100 + 100 + 50 */
  ck_assert(report_amount_value(REPORT_BYTES, &bytes) == 250.0);
  /* A mean divides by the allocations; none gives 0, never NaN. */
  struct report_amount lifetime = {3000, 2};
  ck_assert(report_amount_value(REPORT_LIFETIME, &lifetime) == 1.5);
  struct report_amount empty = {0, 0};
  ck_assert(report_amount_value(REPORT_DENSITY, &empty) == 0.0);
  enum report_metric m;
  ck_assert_int_eq(report_metric_parse("live-bytes", &m), 0);
  ck_assert_int_eq(m, REPORT_LIVE_BYTES);
  ck_assert_int_eq(report_metric_parse("LiveAtExitSize", &m), -1);
  for (int i = 0; i < REPORT_METRICS; i++)
    ck_assert_str_eq(report_metric_keys[i], report_metrics[i].key);
  report_free(&r);
}
END_TEST

START_TEST(normalization_scales_by_runs_or_totals) {
  struct report a, b;
  open_build(&BUILD_A, 0, "a.mip", &a);
  open_build(&BUILD_A, 0, "a2.mip", &b);
  ck_assert(report_scale(&a, &b, REPORT_NORMALIZE_TOTAL, REPORT_BYTES) == 1.0);
  b.runs = 3 * a.runs;
  ck_assert(report_scale(&a, &b, REPORT_NORMALIZE_RUNS, REPORT_BYTES) == 3.0);
  ck_assert(report_scale(&a, &b, REPORT_NORMALIZE_NONE, REPORT_BYTES) == 1.0);
  /* Means are per allocation already. */
  ck_assert(report_scale(&a, &b, REPORT_NORMALIZE_RUNS, REPORT_LIFETIME) ==
            1.0);
  b.contexts[0].mib.v[MIP_MIBI_TotalSize] += 250;
  ck_assert(report_scale(&a, &b, REPORT_NORMALIZE_TOTAL, REPORT_BYTES) == 2.0);
  /* No run on one side: nothing to scale by. */
  a.runs = 0;
  ck_assert(report_scale(&a, &b, REPORT_NORMALIZE_RUNS, REPORT_BYTES) == 1.0);
  /* Any other count (diff's calls) the same way. */
  ck_assert(report_scale_counts(REPORT_NORMALIZE_RUNS, 2, 4, 0, 0) == 2.0);
  ck_assert(report_scale_counts(REPORT_NORMALIZE_TOTAL, 2, 4, 10, 15) == 1.5);
  ck_assert(report_scale_counts(REPORT_NORMALIZE_TOTAL, 2, 4, 0, 15) == 1.0);
  ck_assert(report_scale_counts(REPORT_NORMALIZE_NONE, 2, 4, 10, 15) == 1.0);
  report_free(&a);
  report_free(&b);
}
END_TEST

/* ---- a profile without heap data -------------------------------------- */

/* Build A's profile as merge writes it from runs raw profiles with its
 * coverage and site bytes but no heap payload; sites: its map has A's
 * allocation sites, else none (built without heap, or its code calls no
 * allocator). */
static void open_heapless(int sites, int runs, const char *name,
                          struct report *r) {
  struct mip_buf m = {0}, raw = {0};
  struct mip_map map;
  struct mip_profile p;
  struct mip_error err;
  if (sites) {
    build_map(&m, &BUILD_A, 0);
  } else {
    build_unit(&m, "a.c", COV, COV + 1);
    build_function(&m, "main", "", 0, 1, 0x1000, COV);
  }
  ck_assert_msg(mip_map_parse(m.data, m.size, "m", &map, &err) == 0, "%s",
                err.msg);
  map.build_id = BUILD_A.id;
  mip_profile_from_map(&map, &p);
  uint8_t cov[3] = {1, 1, 0}, site[6] = {1};
  const struct payload_spec payloads[] = {{MIP_RAW_COV, 1, COV, cov,
                                           sites ? 3 : 1},
                                          {MIP_RAW_SITE, 1, SITE, site, 6}};
  build_raw_payloads(&raw, &BUILD_A.id, payloads, sites ? 2 : 1);
  const char *raw_path = test_path("heapless.mipraw");
  write_file(raw_path, raw.data, raw.size);
  for (int i = 0; i < runs; i++) {
    struct mip_raw run;
    ck_assert_msg(mip_raw_read(raw_path, &run, &err) == 0 &&
                      mip_profile_add_run(&p, name, &run, raw_path, NULL,
                                          &err) == 0,
                  "%s", err.msg);
    mip_raw_free(&run);
  }
  const char *path = test_path(name);
  ck_assert_msg(mip_profile_write(path, &p, &err) == 0 &&
                    report_open(path, r, &err) == 0,
                "%s", err.msg);
  mip_profile_free(&p);
  mip_map_free(&map);
  mip_buf_free(&raw);
  mip_buf_free(&m);
}

/* Why a profile has no heap data is what its map and runs say, whether
 * it has runs or not. */
START_TEST(no_heap_data_says_why) {
  struct report r;
  for (int runs = 0; runs < 2; runs++) {
    open_heapless(0, runs, "no-site.mip", &r);
    ck_assert(!r.has_heap);
    ck_assert_str_eq(report_no_heap_reason(&r),
                     "this image has no allocation site (built without "
                     "-fmip-generate=heap, or its code calls no allocator)");
    report_free(&r);
  }
  open_heapless(1, 0, "no-run.mip", &r);
  ck_assert(!r.has_heap && r.site_count == 3);
  ck_assert_str_eq(report_no_heap_reason(&r),
                   "no run merged yet (merge its raw profiles with --debug "
                   "BINARY)");
  report_free(&r);
  open_heapless(1, 2, "no-payload.mip", &r);
  ck_assert(!r.has_heap && r.runs == 2);
  ck_assert_str_eq(report_no_heap_reason(&r),
                   "none of its runs recorded any, although this image has "
                   "allocation sites");
  report_free(&r);
}
END_TEST

/* ---- flame graphs and folded stacks of a report ------------------------ */

/* The child of node n whose frame is named name, or FLAME_NONE. */
static uint32_t child_named(const struct flame_tree *t, uint32_t n,
                            const char *name) {
  for (uint32_t c = t->nodes[n].first_child; c != FLAME_NONE;
       c = t->nodes[c].next_sibling)
    if (t->nodes[c].label != FLAME_NONE &&
        !strcmp(t->labels->v[t->nodes[c].label].name, name))
      return c;
  return FLAME_NONE;
}

/* A's two malloc contexts differ only in main's line (30, 31): by coarse
 * key they are one path, inner's self their sum once (150 bytes, not
 * each line's); by fine key two. */
START_TEST(flame_folds_contexts_that_differ_in_lines_once) {
  struct report r;
  open_build(&BUILD_A, 0, "a.mip", &r);
  struct flame_labels l;
  flame_labels_init(&l);
  struct flame_tree coarse, fine;
  flame_tree_init(&coarse, &l);
  flame_tree_fold(&coarse, &r, REPORT_COARSE, REPORT_ROOT_FIRST);
  ck_assert(flame_total(&coarse.nodes[0], REPORT_BYTES) == 250);
  ck_assert(flame_total(&coarse.nodes[0], REPORT_ALLOCS) == 8);
  uint32_t libc = child_named(&coarse, 0, "/lib/libc.so.6");
  uint32_t main_ = child_named(&coarse, libc, "main");
  uint32_t helper = child_named(&coarse, main_, "helper");
  uint32_t inner = child_named(&coarse, helper, "inner()");
  ck_assert_uint_ne(inner, FLAME_NONE);
  ck_assert_uint_eq(coarse.count, 5);
  ck_assert(flame_self(&coarse.nodes[inner], REPORT_BYTES) == 150);
  ck_assert(flame_total(&coarse.nodes[main_], REPORT_BYTES) == 250);
  ck_assert(flame_self(&coarse.nodes[main_], REPORT_BYTES) == 100); /* new */
  ck_assert(coarse.nodes[main_].flags & FLAME_LINES);
  ck_assert(!(coarse.nodes[helper].flags & FLAME_LINES));
  flame_tree_init(&fine, &l);
  flame_tree_fold(&fine, &r, REPORT_FINE, REPORT_ROOT_FIRST);
  ck_assert_uint_eq(fine.count, 9); /* main at 10, 30 and 31 */
  ck_assert(flame_total(&fine.nodes[0], REPORT_BYTES) == 250);
  /* Inverted: the allocating functions under the root. */
  struct flame_tree inverted;
  flame_tree_init(&inverted, &l);
  flame_tree_fold(&inverted, &r, REPORT_COARSE, REPORT_LEAF_FIRST);
  inner = child_named(&inverted, 0, "inner()");
  ck_assert(flame_total(&inverted.nodes[inner], REPORT_BYTES) == 150);
  ck_assert(flame_total(&inverted.nodes[child_named(&inverted, 0, "main")],
                        REPORT_BYTES) == 100);
  flame_tree_free(&inverted);
  flame_tree_free(&fine);
  flame_tree_free(&coarse);
  flame_labels_free(&l);
  report_free(&r);
}
END_TEST

/* B is A with every line moved: by coarse key nothing is new and nothing
 * vanished; by fine key every frame under the root is new. */
START_TEST(flame_matches_builds_whose_lines_moved) {
  struct report a, b;
  open_build(&BUILD_A, 0, "a.mip", &a);
  open_build(&BUILD_B, 0, "b.mip", &b);
  for (int kind = 0; kind < REPORT_KEYS; kind++) {
    struct flame_labels l;
    flame_labels_init(&l);
    struct flame_tree ta, tb, elided;
    flame_tree_init(&ta, &l);
    flame_tree_init(&tb, &l);
    flame_tree_init(&elided, &l);
    flame_tree_fold(&ta, &a, (enum report_key)kind, REPORT_ROOT_FIRST);
    flame_tree_fold(&tb, &b, (enum report_key)kind, REPORT_ROOT_FIRST);
    flame_diff(&tb, &ta, FLAME_BY_SELF);
    size_t added = 0;
    for (size_t i = 0; i < tb.count; i++)
      added += (tb.nodes[i].flags & FLAME_NEW) != 0;
    size_t vanished = flame_elided(&elided, &ta);
    if (kind == REPORT_COARSE) {
      ck_assert_uint_eq(added, 0);
      ck_assert_uint_eq(vanished, 0);
      for (size_t i = 0; i < tb.count; i++)
        ck_assert_int_eq(flame_compare(&tb.nodes[i], REPORT_BYTES, 1, 0,
                                       FLAME_BY_SELF)
                             .kind,
                         FLAME_SAME);
    } else {
      ck_assert_uint_eq(added, tb.count - 2); /* all but the root and libc */
      ck_assert_uint_eq(vanished, 3);
    }
    flame_tree_free(&elided);
    flame_tree_free(&ta);
    flame_tree_free(&tb);
    flame_labels_free(&l);
  }
  report_free(&a);
  report_free(&b);
}
END_TEST

START_TEST(folded_stacks_are_one_line_per_context_root_first) {
  struct report r;
  open_build(&BUILD_A, 0, "a.mip", &r);
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  ck_assert_int_eq(folded_write(&r, REPORT_BYTES, f), 0);
  fclose(f);
  ck_assert_str_eq(text, "/lib/libc.so.6;main;helper;inner() 100\n"
                         "/lib/libc.so.6;main;helper;inner() 50\n"
                         "/lib/libc.so.6;main 100\n");
  free(text);
  f = open_memstream(&text, &size);
  ck_assert_int_eq(folded_write(&r, REPORT_ALLOCS, f), 0);
  fclose(f);
  ck_assert_str_eq(text, "/lib/libc.so.6;main;helper;inner() 2\n"
                         "/lib/libc.so.6;main;helper;inner() 5\n"
                         "/lib/libc.so.6;main 1\n");
  free(text);
  report_free(&r);
}
END_TEST

/* ---- matching two profiles (report_match.h) ------------------------------ */

/* The group of m whose key is key; fails when there is none. */
static const struct report_match_group *group(const struct report_match *m,
                                              const char *key) {
  for (size_t i = 0; i < m->group_count; i++)
    if (!strcmp(m->groups[i].key, key))
      return &m->groups[i];
  ck_abort_msg("no group %s", key);
  return NULL;
}

/* What a group's members of side s add up to, in bytes. */
static uint64_t group_bytes(const struct report_match *m,
                            const struct report_match_group *g,
                            const struct report *r, enum report_side s) {
  struct report_amount a = {0, 0};
  for (size_t i = 0; i < g->count[s]; i++)
    report_amount_add(&a, REPORT_BYTES,
                      &r->contexts[report_match_member(m, g, s, i)].mib);
  return a.sum;
}

START_TEST(match_pairs_fine_keys_whatever_the_order) {
  struct report a, a2;
  struct report_match m;
  open_build(&BUILD_A, 0, "a.mip", &a);
  open_build(&BUILD_A2, 0, "a2.mip", &a2);
  for (int what = REPORT_FUNCTIONS; what <= REPORT_CONTEXTS; what++) {
    report_match(&m, &a, &a2, (enum report_entity)what, REPORT_MATCH_SOURCE);
    size_t n = report_entity_count(&a, (enum report_entity)what);
    ck_assert_uint_eq(m.group_count, n);
    ck_assert_uint_eq(m.matched[REPORT_BASE], n);
    ck_assert_uint_eq(m.matched[REPORT_NEW], n);
    ck_assert_uint_eq(m.collapsed[REPORT_BASE] + m.collapsed[REPORT_NEW], 0);
    for (size_t i = 0; i < m.group_count; i++)
      ck_assert_int_eq(m.groups[i].by, REPORT_FINE);
    report_match_free(&m);
  }
  /* Sites swapped places: the malloc context of a (index 0 or 1) pairs
   * with a2's, wherever a2 put it. */
  report_match(&m, &a, &a2, REPORT_CONTEXTS, REPORT_MATCH_LINES);
  const struct report_match_group *g = group(&m, a.contexts[0].key[REPORT_FINE]);
  size_t other = report_match_member(&m, g, REPORT_NEW, 0);
  ck_assert_str_eq(a2.contexts[other].site->function, "_Z5innerv");
  ck_assert_uint_eq(a2.contexts[other].mib.v[MIP_MIBI_TotalSize], 100);
  report_match_free(&m);
  report_free(&a);
  report_free(&a2);
}
END_TEST

START_TEST(match_groups_moved_lines_by_coarse_key) {
  struct report a, b;
  struct report_match m;
  open_build(&BUILD_A, 0, "a.mip", &a);
  open_build(&BUILD_B, 0, "b.mip", &b);
  report_match(&m, &a, &b, REPORT_CONTEXTS, REPORT_MATCH_SOURCE);
  /* helper's two calls (lines 30 and 31, now 32 and 33) are one coarse
   * group of two contexts a side, summed once each: 150 bytes; new's
   * context pairs alone. */
  ck_assert_uint_eq(m.group_count, 2);
  const struct report_match_group *g = group(
      &m, "malloc|_Z5innerv@b.h|helper@a.c|main@a.c|/lib/libc.so.6@");
  ck_assert_int_eq(g->by, REPORT_COARSE);
  ck_assert_uint_eq(g->count[REPORT_BASE], 2);
  ck_assert_uint_eq(g->count[REPORT_NEW], 2);
  ck_assert_uint_eq(group_bytes(&m, g, &a, REPORT_BASE), 150);
  ck_assert_uint_eq(group_bytes(&m, g, &b, REPORT_NEW), 150);
  ck_assert_uint_eq(m.matched[REPORT_BASE], 3);
  ck_assert_uint_eq(m.matched[REPORT_NEW], 3);
  ck_assert_uint_eq(m.collapsed[REPORT_BASE], 2);
  ck_assert_uint_eq(m.collapsed[REPORT_NEW], 2);
  report_match_free(&m);
  /* By lines, nothing pairs: every context is vanished or new. */
  report_match(&m, &a, &b, REPORT_CONTEXTS, REPORT_MATCH_LINES);
  ck_assert_uint_eq(m.group_count, 6);
  ck_assert_uint_eq(m.matched[REPORT_BASE] + m.matched[REPORT_NEW], 0);
  for (size_t i = 0; i < m.group_count; i++)
    ck_assert(!report_match_paired(&m.groups[i]));
  report_match_free(&m);
  /* Functions: stat pairs by its fine key (no line known), main and
   * helper by their coarse keys. */
  report_match(&m, &a, &b, REPORT_FUNCTIONS, REPORT_MATCH_SOURCE);
  ck_assert_uint_eq(m.group_count, 3);
  ck_assert_int_eq(group(&m, "a.c;stat@:0")->by, REPORT_FINE);
  ck_assert_int_eq(group(&m, "main@a.c")->by, REPORT_COARSE);
  report_match_free(&m);
  report_match(&m, &a, &b, REPORT_FUNCTIONS, REPORT_MATCH_LINES);
  ck_assert_uint_eq(m.matched[REPORT_BASE], 1);
  report_match_free(&m);
  report_free(&a);
  report_free(&b);
}
END_TEST

START_TEST(match_leaves_one_sided_entities_alone) {
  struct report a, extra;
  struct report_match m;
  open_build(&BUILD_A, 0, "a.mip", &a);
  open_build(&BUILD_A, 1, "extra.mip", &extra);
  /* extra has three sites more; every entity is in one group. */
  report_match(&m, &a, &extra, REPORT_SITES, REPORT_MATCH_SOURCE);
  ck_assert_uint_eq(m.total[REPORT_BASE], 3);
  ck_assert_uint_eq(m.total[REPORT_NEW], 6);
  ck_assert_uint_eq(m.matched[REPORT_BASE], 3);
  ck_assert_uint_eq(m.matched[REPORT_NEW], 3);
  size_t members = 0, one_sided = 0;
  for (size_t i = 0; i < m.group_count; i++) {
    members += m.groups[i].count[REPORT_BASE] + m.groups[i].count[REPORT_NEW];
    one_sided += !report_match_paired(&m.groups[i]);
  }
  ck_assert_uint_eq(members, 9);
  /* The two sites without -g share a coarse (and, but for #2, a fine)
   * key: one group of two new sites. */
  ck_assert_uint_eq(one_sided, 2);
  ck_assert_uint_eq(group(&m, "malloc:a.c;stat@")->count[REPORT_NEW], 2);
  ck_assert_uint_eq(m.collapsed[REPORT_NEW], 2);
  report_match_free(&m);
  report_free(&a);
  report_free(&extra);
}
END_TEST

Suite *report_suite(void) {
  Suite *s = suite_create("report");
  TCase *t = tcase_create("report");
  tcase_add_test(t, keys_ignore_indices_and_addresses);
  tcase_add_test(t, keys_match_builds_whose_lines_moved);
  tcase_add_test(t, contexts_that_differ_in_lines_share_a_coarse_key);
  tcase_add_test(t, fine_keys_are_unique_and_escaped);
  tcase_add_test(t, frames_go_leaf_first_or_root_first);
  tcase_add_test(t, contexts_go_in_each_order);
  tcase_add_test(t, metrics_sum_and_average_contexts);
  tcase_add_test(t, normalization_scales_by_runs_or_totals);
  tcase_add_test(t, no_heap_data_says_why);
  tcase_add_test(t, flame_folds_contexts_that_differ_in_lines_once);
  tcase_add_test(t, flame_matches_builds_whose_lines_moved);
  tcase_add_test(t, folded_stacks_are_one_line_per_context_root_first);
  tcase_add_test(t, match_pairs_fine_keys_whatever_the_order);
  tcase_add_test(t, match_groups_moved_lines_by_coarse_key);
  tcase_add_test(t, match_leaves_one_sided_entities_alone);
  suite_add_tcase(s, t);
  return s;
}
