/* Pool mode: the runtime's merge of runs into a pooled raw profile
 * (rt/pool/merge*.c), and mipdata's reading of it (lib/raw_pool.c). The truth
 * is the runs' own files: a pooled file merged into a profile must give,
 * byte for byte, the profile the same runs give one by one. Also %Nm in
 * file names, version 1 raw profiles, and every pooled file a reader must
 * refuse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../rt/pool/merge.h"
#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

static const struct mip_build_id ID = {2, {0x12, 0x34}};

/* main (entry 0x1000) and leaf (0x1100); main has four blocks: the entry,
 * two probed arms and a join inferred from them; leaf two, the entry and
 * one inferred from it. */
static void pool_map(struct mip_buf *m) {
  build_two_function_map(m);
  const struct mip_block leaf_blocks[] = {{20, MIP_PROBE_ENTRY, 0, 0, 0},
                                          {21, MIP_PROBE_NONE, 0, 1, 0}};
  const uint32_t leaf_deps[] = {0};
  build_blocks(m, 0x5001, leaf_blocks, 2, leaf_deps, 1);
}

static void pool_profile(struct mip_profile *p) {
  struct mip_buf m = {0};
  pool_map(&m);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m.data, m.size, "m", &map, &err), 0);
  map.build_id = ID;
  const struct mip_symbol symbols[] = {{0x1000, 0x80}, {0x1100, 0x40}};
  map.symbols = (struct mip_symbol *)symbols;
  map.symbol_count = 2;
  mip_profile_from_map(&map, p);
  map.symbols = NULL;
  mip_map_free(&map);
  mip_buf_free(&m);
}

/* What one run did: each function entered or not, its calls and rank,
 * main's two probes, samples of the edge main->leaf, dropped samples. */
struct run_spec {
  uint8_t main_entered, leaf_entered;
  uint64_t main_calls, leaf_calls;
  uint32_t main_rank, leaf_rank;
  uint8_t probe0, probe1;
  uint64_t samples, dropped;
};

static const struct run_spec RUNS[] = {
    {1, 1, 1, 5, 1, 2, 1, 0, 3, 0},
    {1, 0, 1, 0, 1, 0, 0, 1, 0, 1},
    /* a forked child: main's probes set, its entry not (the child was
     * inside main at the fork) */
    {0, 1, 0, 3, 0, 1, 1, 0, 2, 0},
    {1, 1, 1, 5, 1, 2, 1, 0, 3, 0}, /* the first again: a pattern twice */
    {1, 1, 1, UINT64_MAX - 2, 2, 1, 1, 1, 1, 0}, /* calls to saturate */
};
#define RUN_COUNT (sizeof RUNS / sizeof RUNS[0])

static void run_file(struct mip_buf *b, const struct run_spec *r) {
  uint8_t cov[2] = {r->main_entered, r->leaf_entered};
  uint8_t blk[2] = {r->probe0, r->probe1};
  uint8_t cnt[16], ord[8], edges[mip_rec_raw_edge_size],
      stats[2 * mip_rec_raw_stat_size];
  mip_put_le64(cnt, 0 - r->main_calls); /* counters hold minus the calls */
  mip_put_le64(cnt + 8, 0 - r->leaf_calls);
  mip_put_le32(ord, r->main_rank);
  mip_put_le32(ord + 4, r->leaf_rank);
  struct mip_rec_raw_edge e = {0x1010, 0x5001, r->samples};
  mip_rec_raw_edge_encode(&e, edges);
  struct mip_rec_raw_stat s1 = {MIP_STAT_EDGE_PERIOD, 0, 1024},
                          s2 = {MIP_STAT_EDGE_SAMPLES_DROPPED, 0, r->dropped};
  mip_rec_raw_stat_encode(&s1, stats);
  mip_rec_raw_stat_encode(&s2, stats + mip_rec_raw_stat_size);
  const struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, 0x5000, cov, 2},
      {MIP_RAW_CNT, 8, 0x6000, cnt, 16},
      {MIP_RAW_ORD, 4, 0x7000, ord, 8},
      {MIP_RAW_BLK, 1, 0x8000, blk, 2},
      {MIP_RAW_EDGES, mip_rec_raw_edge_size, 0, edges,
       r->samples ? sizeof edges : 0},
      {MIP_RAW_STATS, mip_rec_raw_stat_size, 0, stats, sizeof stats},
  };
  b->size = 0;
  build_raw_payloads(b, &ID, payloads, 6);
}

static struct mip_rt_image image_of_id(void) {
  struct mip_rt_image image;
  memset(&image, 0, sizeof image);
  image.build_id_size = ID.size;
  image.build_id = ID.bytes;
  return image;
}

/* Merges the run in run (a file of one run) into pool (empty: no file)
 * as the runtime does; 0, or -1 with the reason in why. */
static int pool_add(struct mip_buf *pool, const struct mip_buf *run,
                    char *why) {
  struct mip_rt_image image = image_of_id();
  struct mip_rt_merge m;
  memset(&m, 0, sizeof m);
  m.image = &image;
  struct mip_rt_raw raw;
  int rc = mip_rt_view_read(run->data, run->size, &m.run, &m.why) ||
                   (pool->size &&
                    mip_rt_view_read(pool->data, pool->size, &m.old, &m.why)) ||
                   mip_rt_merge_all(&m, &raw)
               ? -1
               : 0;
  if (rc == 0) {
    FILE *f = tmpfile();
    ck_assert_int_eq(mip_rt_raw_fill(fileno(f), &raw), 0);
    long size = ftell(f);
    ck_assert_int_eq(lseek(fileno(f), 0, SEEK_END), size);
    rewind(f);
    pool->size = 0;
    ck_assert_uint_eq(
        fread(mip_buf_extend(pool, (size_t)size), 1, (size_t)size, f),
        (size_t)size);
    fclose(f);
  }
  strcpy(why, m.why.text);
  mip_rt_arena_free(&m.arena);
  return rc;
}

/* Every run of RUNS, pooled. */
static void pooled_runs(struct mip_buf *pool) {
  struct mip_buf run = {0};
  char why[256];
  pool->size = 0;
  for (size_t i = 0; i < RUN_COUNT; i++) {
    run_file(&run, &RUNS[i]);
    ck_assert_msg(pool_add(pool, &run, why) == 0, "%s", why);
  }
  mip_buf_free(&run);
}

static int add_file(struct mip_profile *p, const struct mip_buf *b,
                    const char *name, struct mip_error *err) {
  const char *path = test_path(name);
  write_file(path, b->data, b->size);
  struct mip_raw raw;
  int rc = mip_raw_read(path, &raw, err) ||
           mip_profile_add_raw(p, "p.mip", &raw, path, err);
  mip_raw_free(&raw);
  return rc;
}

/* The profile's file, as bytes. */
static void profile_bytes(const struct mip_profile *p, const char *name,
                          struct mip_buf *out) {
  struct mip_error err;
  const char *path = test_path(name);
  ck_assert_int_eq(mip_profile_write(path, p, &err), 0);
  struct mip_file f;
  ck_assert_int_eq(mip_file_read(path, &f, &err), 0);
  out->size = 0;
  mip_buf_append(out, f.data, f.size);
  mip_file_free(&f);
}

START_TEST(pooled_runs_merge_as_the_runs_do) {
  struct mip_profile one_by_one, pooled;
  struct mip_error err;
  struct mip_buf run = {0}, pool = {0}, a = {0}, b = {0};
  pool_profile(&one_by_one);
  pool_profile(&pooled);
  for (size_t i = 0; i < RUN_COUNT; i++) {
    run_file(&run, &RUNS[i]);
    ck_assert_msg(add_file(&one_by_one, &run, "run.mipraw", &err) == 0, "%s",
                  err.msg);
  }
  pooled_runs(&pool);
  ck_assert_msg(add_file(&pooled, &pool, "pool.mipraw", &err) == 0, "%s",
                err.msg);
  ck_assert_uint_eq(pooled.runs, RUN_COUNT);
  /* what the runs give, worked out by hand: main's join block ran when
   * either arm did (4 runs), leaf's inferred block when leaf was entered */
  const struct mip_profile_function *m = &pooled.functions[1];
  ck_assert_uint_eq(m->covered_runs, 4);
  ck_assert_uint_eq(pooled.blocks[m->first_block + 3].covered_runs, 5);
  ck_assert_uint_eq(pooled.blocks[m->first_block].covered_runs, 4);
  ck_assert_uint_eq(pooled.functions[0].calls, UINT64_MAX);
  profile_bytes(&one_by_one, "a.mip", &a);
  profile_bytes(&pooled, "b.mip", &b);
  ck_assert_uint_eq(a.size, b.size);
  ck_assert_mem_eq(a.data, b.data, a.size);
  mip_profile_free(&one_by_one);
  mip_profile_free(&pooled);
  mip_buf_free(&run);
  mip_buf_free(&pool);
  mip_buf_free(&a);
  mip_buf_free(&b);
}
END_TEST

/* A run merged into a file of one run (the same image's) pools both. */
START_TEST(pools_onto_a_file_of_one_run) {
  struct mip_buf first = {0}, second = {0};
  char why[256];
  run_file(&first, &RUNS[0]);
  run_file(&second, &RUNS[2]);
  ck_assert_msg(pool_add(&first, &second, why) == 0, "%s", why);
  struct mip_profile p;
  struct mip_error err;
  pool_profile(&p);
  ck_assert_msg(add_file(&p, &first, "two.mipraw", &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(p.runs, 2);
  ck_assert_uint_eq(p.functions[0].calls, 8); /* leaf: 5 + 3 */
  ck_assert_uint_eq(p.functions[0].rank_sum, 3);
  mip_profile_free(&p);
  mip_buf_free(&first);
  mip_buf_free(&second);
}
END_TEST

/* The pooled file of RUNS with one u64 at offset set to value. */
static void pooled_with(struct mip_buf *pool, uint64_t offset, uint64_t value) {
  pooled_runs(pool);
  mip_put_le64(pool->data + offset, value);
}

/* Offset of the payload of kind in a raw profile. */
static uint64_t payload_at(const struct mip_buf *b, uint32_t kind) {
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, b->data);
  for (uint32_t i = 0; i < h.section_count; i++) {
    struct mip_rec_raw_section s;
    mip_rec_raw_section_decode(&s, b->data + h.header_size +
                                       i * mip_rec_raw_section_size);
    if (s.kind == kind)
      return s.offset;
  }
  ck_abort_msg("no payload of kind %u", kind);
  return 0;
}

static void expect_refused(struct mip_buf *b, const char *lib_needle,
                           const char *rt_needle) {
  const char *path = test_path("bad.mipraw");
  write_file(path, b->data, b->size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), -1);
  ck_assert_msg(strstr(err.msg, lib_needle), "'%s' lacks '%s'", err.msg,
                lib_needle);
  mip_raw_free(&raw);
  struct mip_buf run = {0};
  char why[256];
  run_file(&run, &RUNS[0]);
  ck_assert_int_eq(pool_add(b, &run, why), -1);
  ck_assert_msg(strstr(why, rt_needle), "'%s' lacks '%s'", why, rt_needle);
  mip_buf_free(&run);
}

START_TEST(refuses_totals_no_runs_give) {
  struct mip_buf b = {0};
  const char *rt = "counter totals no set of runs can give";
  pooled_with(&b, 104, 0); /* no runs */
  expect_refused(&b, "0 runs in a pooled file", "bad header");
  pooled_with(&b, 104, 9); /* runs that the patterns do not hold */
  expect_refused(&b, "block patterns hold 5 runs of 9", rt);
  pooled_with(&b, payload_at(&b, MIP_RAW_POOL_COV), 6);
  expect_refused(&b, "function 0 ran in 6 runs of 5", rt);
  pooled_with(&b, payload_at(&b, MIP_RAW_POOL_ORD) + 8, 6);
  expect_refused(&b, "rank slot 0 sums", rt);
  pooled_with(&b, payload_at(&b, MIP_RAW_POOL_ORD), 0); /* ranked, no sum */
  expect_refused(&b, "rank slot 0 sums 0 over 4 runs", rt);
  /* the first pattern counts for no run */
  pooled_with(
      &b, payload_at(&b, MIP_RAW_POOL_BLK) + mip_rec_raw_pool_blocks_size, 0);
  expect_refused(&b, "block pattern 0 adds up", rt);
  mip_buf_free(&b);
}
END_TEST

START_TEST(refuses_patterns_the_totals_contradict) {
  struct mip_buf b = {0};
  pooled_runs(&b);
  /* the first pattern enters leaf (COV bit 1) no more */
  uint64_t bits = payload_at(&b, MIP_RAW_POOL_BLK) +
                  mip_rec_raw_pool_blocks_size + mip_rec_raw_pool_pattern_size;
  b.data[bits] &= (uint8_t)~2u;
  const char *path = test_path("bad.mipraw");
  write_file(path, b.data, b.size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), -1);
  ck_assert_msg(strstr(err.msg, "block patterns enter function 1 in"), "%s",
                err.msg);
  mip_raw_free(&raw);
  mip_buf_free(&b);
}
END_TEST

START_TEST(refuses_mixed_and_unknown_headers) {
  struct mip_buf b = {0};
  pooled_runs(&b);
  b.data[100] = 5; /* flags: an unknown bit */
  expect_refused(&b, "unknown flags 0x5", "bad header");
  pooled_runs(&b);
  b.data[100] = 3; /* pooled totals, yet AArch64's coverage bytes */
  expect_refused(&b, "coverage bytes in a pooled file", "bad header");
  pooled_runs(&b);
  b.data[100] = 0; /* totals, yet one run */
  mip_put_le64(b.data + 104, 1);
  expect_refused(&b, "pooled totals (kind 41) in a file of one run",
                 "totals in a file of one run");
  run_file(&b, &RUNS[0]);
  b.data[100] = 1; /* counters, yet pooled */
  expect_refused(&b, "counters of kind 1 in a pooled file",
                 "counters of a run in a pooled file");
  mip_buf_free(&b);
}
END_TEST

/* The runtime leaves a file of another build, or another layout, as it
 * is: the run is not merged into it. */
START_TEST(runtime_refuses_other_builds) {
  struct mip_buf pool = {0}, run = {0};
  char why[256];
  pooled_runs(&pool);
  run_file(&run, &RUNS[0]);
  pool.data[32] ^= 1; /* the build-id */
  ck_assert_int_eq(pool_add(&pool, &run, why), -1);
  ck_assert_str_eq(why, "it holds the profile of another build "
                        "(another build-id)");
  pooled_runs(&pool);
  mip_put_le64(pool.data + 16, 0); /* modes */
  ck_assert_int_eq(pool_add(&pool, &run, why), -1);
  ck_assert_str_eq(why, "it holds the profile of another build (other modes)");
  /* CNT counters of another link address */
  pooled_runs(&pool);
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, pool.data);
  for (uint32_t i = 0; i < h.section_count; i++) {
    uint8_t *at = pool.data + h.header_size + i * mip_rec_raw_section_size;
    if (mip_get_le32(at) == MIP_RAW_POOL_CNT)
      mip_put_le64(at + 8, 0x6100);
  }
  ck_assert_int_eq(pool_add(&pool, &run, why), -1);
  ck_assert_str_eq(why,
                   "it holds the profile of another build (other counters)");
  mip_buf_free(&pool);
  mip_buf_free(&run);
}
END_TEST

/* Version 1 raw profiles (104-byte header, no runs) are still read. */
START_TEST(reads_version_1) {
  struct mip_buf b = {0}, v1 = {0};
  run_file(&b, &RUNS[0]);
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, b.data);
  mip_buf_append(&v1, b.data, 104);
  mip_put_le32(v1.data + 8, 1);    /* version */
  mip_put_le32(v1.data + 12, 104); /* header_size */
  mip_buf_append(&v1, b.data + 112, b.size - 112);
  for (uint32_t i = 0; i < h.section_count; i++) {
    uint8_t *offset = v1.data + 104 + i * mip_rec_raw_section_size + 24;
    mip_put_le64(offset, mip_get_le64(offset) - 8);
  }
  struct mip_profile p;
  struct mip_error err;
  pool_profile(&p);
  ck_assert_msg(add_file(&p, &v1, "v1.mipraw", &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(p.runs, 1);
  ck_assert_uint_eq(p.functions[0].calls, 5);
  mip_profile_free(&p);
  mip_buf_free(&b);
  mip_buf_free(&v1);
}
END_TEST

/* ---- file names -------------------------------------------------------- */

START_TEST(expands_pool_patterns) {
  struct mip_rt_image image;
  mip_rt_image_init(&image);
  char out[256], want[256];
  ck_assert_uint_eq(mip_rt_pool_size("a/%4m.raw"), 4);
  ck_assert_uint_eq(mip_rt_pool_size("a/%%4m-%m.raw"), 0);
  ck_assert_uint_eq(mip_rt_pool_size("%0m%p"), 0);
  image.is_main = 1; /* the name as the pattern gives it */
  ck_assert_int_eq(mip_rt_profile_path("p-%9m.raw", &image, 0, out, sizeof out),
                   0);
  snprintf(want, sizeof want, "p-%s_%d.raw", image.id, (int)(getpid() % 9));
  ck_assert_str_eq(out, want);
  ck_assert_int_eq(mip_rt_profile_path("%%4m", &image, 0, out, sizeof out), 0);
  ck_assert_str_eq(out, "%4m");
  /* a pool's file takes every image's and every process's run as it is
   * named: nothing inserted for a library or a forked child */
  image.is_main = 0;
  ck_assert_int_eq(mip_rt_profile_path("p-%1m.raw", &image, 1, out, sizeof out),
                   0);
  snprintf(want, sizeof want, "p-%s_0.raw", image.id);
  ck_assert_str_eq(out, want);
}
END_TEST

/* A run pool mode cannot merge: the pool's name with ".<pid>" before the
 * extension, even where the pattern has a %p of its own. */
START_TEST(names_the_runs_pool_mode_cannot_merge) {
  struct mip_rt_image image;
  mip_rt_image_init(&image);
  char out[256], want[256];
  int pid = (int)getpid();
  setenv("MIP_PROFILE_FILE", "d.x/p-%1m.raw", 1);
  ck_assert_int_eq(mip_rt_pool_fallback_path(&image, out, sizeof out), 0);
  snprintf(want, sizeof want, "d.x/p-%s_0.%d.raw", image.id, pid);
  ck_assert_str_eq(out, want);
  setenv("MIP_PROFILE_FILE", "%p-%2m", 1);
  ck_assert_int_eq(mip_rt_pool_fallback_path(&image, out, sizeof out), 0);
  snprintf(want, sizeof want, "%d-%s_%d.%d", pid, image.id, pid % 2, pid);
  ck_assert_str_eq(out, want);
  setenv("MIP_PROFILE_FILE", ".hidden/%3m", 1);
  ck_assert_int_eq(mip_rt_pool_fallback_path(&image, out, 8), -1);
  unsetenv("MIP_PROFILE_FILE");
}
END_TEST

Suite *pool_suite(void) {
  Suite *s = suite_create("pool");
  TCase *tc = tcase_create("pool");
  tcase_add_test(tc, pooled_runs_merge_as_the_runs_do);
  tcase_add_test(tc, pools_onto_a_file_of_one_run);
  tcase_add_test(tc, refuses_totals_no_runs_give);
  tcase_add_test(tc, refuses_patterns_the_totals_contradict);
  tcase_add_test(tc, refuses_mixed_and_unknown_headers);
  tcase_add_test(tc, runtime_refuses_other_builds);
  tcase_add_test(tc, reads_version_1);
  tcase_add_test(tc, expands_pool_patterns);
  tcase_add_test(tc, names_the_runs_pool_mode_cannot_merge);
  suite_add_tcase(s, tc);
  return s;
}
