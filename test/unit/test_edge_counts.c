/* Block counts (block-counts mode): the map's edge-counts records, the
 * profile's EDGE_COUNTS and EDGE_COUNTERS tables built from them, runs
 * and pooled files added, written, read back, merged, read through the
 * view as the compiler reads them; and what each reader refuses. */
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

#define COV 0x5000
#define BCNT 0x8000
#define COUNTERS 8 /* in the BCNT section: 5 used, 3 of padding */
static const struct mip_build_id ID = {2, {0xaa, 0xbb}};

/* A unit whose BCNT section holds bcnt_count counters. */
static void unit(struct mip_buf *m, uint64_t bcnt_count) {
  const struct slot_spec sections[] = {
      {MIP_RAW_COV, 0, COV, COV + 2},
      {MIP_RAW_BCNT, 0, BCNT, BCNT + 8 * bcnt_count},
  };
  build_unit_sections(m, "a.c", sections, 2);
}

/* main: 3 counters from 0; helper, local to a.c: 2 from 3; main's record
 * twice (a unit's own section naming the kept counters); gone: a
 * function the linker dropped. */
static void good_map(struct mip_buf *m) {
  unit(m, COUNTERS);
  build_function(m, "main", "", 0, 11, 0x1000, COV + 1);
  build_function(m, "helper", "a.c", MIP_FN_LOCAL, 22, 0x1100, COV);
  build_edge_counts(m, "main", "", 0, 11, BCNT, 3);
  build_edge_counts(m, "helper", "a.c", MIP_FN_LOCAL, 22, BCNT + 24, 2);
  build_edge_counts(m, "main", "", 0, 11, BCNT, 3);
  build_edge_counts(m, "gone", "", 0, 33, 0, 2);
}

static void parse(const struct mip_buf *m, struct mip_map *map) {
  struct mip_error err;
  ck_assert_msg(mip_map_parse(m->data, m->size, "m", map, &err) == 0, "%s",
                err.msg);
  map->build_id = ID;
}

static void make_profile(struct mip_profile *p) {
  struct mip_buf m = {0};
  good_map(&m);
  struct mip_map map;
  parse(&m, &map);
  mip_profile_from_map(&map, p);
  mip_map_free(&map);
  mip_buf_free(&m);
}

static void expect_map_error(const struct mip_buf *m, const char *needle) {
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m->data, m->size, "m", &map, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  mip_map_free(&map);
}

/* ---- the map -------------------------------------------------------- */

START_TEST(map_keeps_one_record_per_function) {
  struct mip_buf m = {0};
  good_map(&m);
  struct mip_map map;
  parse(&m, &map);
  ck_assert_uint_eq(map.edge_counts_count, 2);
  ck_assert_uint_eq(map.discarded_edge_counts, 1);
  /* by their counters */
  ck_assert_str_eq(map.edge_counts[0].name, "main");
  ck_assert_uint_eq(map.edge_counts[0].counters, BCNT);
  ck_assert_uint_eq(map.edge_counts[0].count, 3);
  ck_assert_uint_eq(map.edge_counts[0].cfg_hash, 11);
  ck_assert_str_eq(map.edge_counts[1].name, "helper");
  ck_assert_str_eq(map.edge_counts[1].unit, "a.c");
  ck_assert_uint_eq(map.edge_counts[1].flags, MIP_FN_LOCAL);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

START_TEST(map_refuses_bad_records) {
  static const struct {
    uint16_t version;
    const char *name;
    uint64_t counters;
    uint32_t count;
    const char *needle;
  } cases[] = {
      {2, "f", BCNT, 1, "map record version 2 is newer than this MIP reads (1)"},
      {1, "", BCNT, 1, "edge-counts record at 80: bad function or unit name"},
      {1, "f", BCNT, 0, "edge-counts record at 80: no counters"},
      {1, "f", BCNT + 4, 1, "edge-counts record at 80: counters outside"},
      {1, "f", BCNT + 8 * (COUNTERS - 1), 2,
       "edge-counts record at 80: counters outside their section"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    struct mip_buf m = {0};
    unit(&m, COUNTERS);
    build_edge_counts_version(&m, cases[i].version, cases[i].name, "", 0, 1,
                              cases[i].counters, cases[i].count);
    expect_map_error(&m, cases[i].needle);
    mip_buf_free(&m);
  }
}
END_TEST

START_TEST(map_refuses_a_short_record) {
  struct mip_buf m = {0};
  unit(&m, COUNTERS);
  struct mip_rec_map_record h = {MIP_MAP_EDGE_COUNTS, 1, 16};
  mip_rec_map_record_encode(&h, mip_buf_extend(&m, 16));
  expect_map_error(&m, "edge-counts record at 80: too short");
  mip_buf_free(&m);
}
END_TEST

START_TEST(map_refuses_records_without_their_section) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  build_edge_counts(&m, "f", "", 0, 1, BCNT, 1);
  expect_map_error(&m, "no unit has an edge counter section");
  mip_buf_free(&m);
}
END_TEST

START_TEST(map_refuses_shared_counters) {
  struct mip_buf m = {0};
  unit(&m, COUNTERS);
  build_edge_counts(&m, "main", "", 0, 11, BCNT, 3);
  build_edge_counts(&m, "other", "", 0, 11, BCNT + 16, 1);
  expect_map_error(&m, "functions main and other share edge counters");
  mip_buf_free(&m);

  struct mip_buf n = {0};
  unit(&n, COUNTERS);
  build_edge_counts(&n, "main", "", 0, 11, BCNT, 3);
  build_edge_counts(&n, "main", "", 0, 12, BCNT, 3);
  expect_map_error(&n, "two records of main's edge counters disagree");
  mip_buf_free(&n);
}
END_TEST

START_TEST(map_refuses_a_section_no_profile_could_hold) {
  struct mip_buf m = {0};
  unit(&m, (uint64_t)MIP_MAX_EDGE_COUNTERS + 1);
  expect_map_error(&m, "16777217 edge counters, more than MIP reads (16777216)");
  mip_buf_free(&m);
  struct mip_buf most = {0};
  unit(&most, MIP_MAX_EDGE_COUNTERS);
  struct mip_map map;
  parse(&most, &map);
  mip_map_free(&map);
  mip_buf_free(&most);
}
END_TEST

/* ---- the profile ---------------------------------------------------- */

static void add_raw_bytes(struct mip_profile *p, const struct mip_buf *b) {
  const char *path = test_path("run.mipraw");
  write_file(path, b->data, b->size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_msg(mip_raw_read(path, &raw, &err) == 0, "%s", err.msg);
  ck_assert_msg(mip_profile_add_raw(p, "p.mip", &raw, path, &err) == 0, "%s",
                err.msg);
  mip_raw_free(&raw);
}

/* One run: counter i counted i + 1. */
static void add_run(struct mip_profile *p) {
  uint8_t cov[2] = {1, 1}, counts[8 * COUNTERS];
  for (int i = 0; i < COUNTERS; i++)
    mip_put_le64(counts + 8 * i, (uint64_t)i + 1);
  const struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, COV, cov, sizeof cov},
      {MIP_RAW_BCNT, 8, BCNT, counts, sizeof counts},
  };
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, 2);
  add_raw_bytes(p, &b);
  mip_buf_free(&b);
}

/* A pooled file of 2 runs whose counter i totals 100 * i. */
static void add_pooled_runs(struct mip_profile *p) {
  uint8_t cov[16], counts[8 * COUNTERS];
  mip_put_le64(cov, 2);
  mip_put_le64(cov + 8, 1);
  for (int i = 0; i < COUNTERS; i++)
    mip_put_le64(counts + 8 * i, 100 * (uint64_t)i);
  const struct payload_spec payloads[] = {
      {MIP_RAW_POOL_COV, 8, COV, cov, sizeof cov},
      {MIP_RAW_POOL_BCNT, 8, BCNT, counts, sizeof counts},
  };
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, 2);
  struct mip_rec_raw_header h;
  mip_rec_raw_header_decode(&h, b.data);
  h.flags |= MIP_RAW_POOLED;
  h.runs = 2;
  mip_rec_raw_header_encode(&h, b.data);
  add_raw_bytes(p, &b);
  mip_buf_free(&b);
}

START_TEST(profile_has_an_entry_per_function_and_a_total_per_counter) {
  struct mip_profile p;
  make_profile(&p);
  ck_assert(mip_profile_has(&p, MIP_RAW_BCNT));
  ck_assert_uint_eq(p.edge_counter_count, COUNTERS);
  ck_assert_uint_eq(p.edge_counts_count, 2);
  /* by key: "a.c;helper" before "main"; keys as the functions' */
  const struct mip_profile_edge_counts *e = p.edge_counts;
  ck_assert_str_eq(mip_profile_string(&p, e[0].key), "a.c;helper");
  ck_assert_str_eq(mip_profile_string(&p, e[0].name), "helper");
  ck_assert_str_eq(mip_profile_string(&p, e[0].unit), "a.c");
  ck_assert_uint_eq(e[0].key, p.functions[0].key);
  ck_assert_uint_eq(e[0].first, 3);
  ck_assert_uint_eq(e[0].count, 2);
  ck_assert_uint_eq(e[0].cfg_hash, 22);
  ck_assert_str_eq(mip_profile_string(&p, e[1].key), "main");
  ck_assert_uint_eq(e[1].unit, 0);
  ck_assert_uint_eq(e[1].first, 0);
  ck_assert_uint_eq(e[1].count, 3);
  mip_profile_free(&p);
}
END_TEST

START_TEST(runs_and_pooled_files_add_up) {
  struct mip_profile p;
  make_profile(&p);
  add_run(&p);
  add_run(&p);
  add_pooled_runs(&p);
  ck_assert_uint_eq(p.runs, 4);
  for (uint64_t i = 0; i < COUNTERS; i++)
    ck_assert_uint_eq(p.edge_counters[i], 2 * (i + 1) + 100 * i);
  mip_profile_free(&p);
}
END_TEST

/* Written, read whole, merged into itself: the totals double. */
START_TEST(round_trip_and_merge) {
  struct mip_profile p, back, other;
  struct mip_error err;
  make_profile(&p);
  add_run(&p);
  const char *path = test_path("bcnt.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  ck_assert_msg(mip_profile_read(path, &back, &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(back.edge_counts_count, p.edge_counts_count);
  ck_assert_mem_eq(back.edge_counts, p.edge_counts,
                   p.edge_counts_count * sizeof *p.edge_counts);
  ck_assert_uint_eq(back.edge_counter_count, COUNTERS);
  ck_assert_mem_eq(back.edge_counters, p.edge_counters,
                   COUNTERS * sizeof *p.edge_counters);
  ck_assert_msg(mip_profile_read(path, &other, &err) == 0, "%s", err.msg);
  ck_assert_msg(mip_profile_add_profile(&back, path, &other, path, &err) == 0,
                "%s", err.msg);
  ck_assert_uint_eq(back.runs, 2);
  for (uint64_t i = 0; i < COUNTERS; i++)
    ck_assert_uint_eq(back.edge_counters[i], 2 * (i + 1));
  /* what the merge writes, its reader takes back */
  ck_assert_int_eq(mip_profile_write(path, &back, &err), 0);
  struct mip_view v;
  ck_assert_msg(mip_view_open(path, &v, &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(mip_view_edge_counter(&v, 7), 16);
  mip_view_close(&v);
  mip_profile_free(&p);
  mip_profile_free(&back);
  mip_profile_free(&other);
}
END_TEST

START_TEST(view_reads_a_functions_counts) {
  struct mip_profile p;
  struct mip_error err;
  make_profile(&p);
  add_run(&p);
  const char *path = test_path("view.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  mip_profile_free(&p);
  struct mip_view v;
  ck_assert_msg(mip_view_open(path, &v, &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(mip_view_count(&v, MIP_PROF_EDGE_COUNTS), 2);
  ck_assert_uint_eq(mip_view_count(&v, MIP_PROF_EDGE_COUNTERS), COUNTERS);
  uint64_t first;
  ck_assert_uint_eq(mip_view_find_edge_counts(&v, "main", &first), 1);
  ck_assert_uint_eq(first, 1);
  struct mip_profile_edge_counts e;
  ck_assert_int_eq(mip_view_edge_counts(&v, first, &e, &err), 0);
  ck_assert_str_eq(mip_view_string(&v, e.name), "main");
  ck_assert_uint_eq(e.cfg_hash, 11);
  ck_assert_uint_eq(e.count, 3);
  for (uint32_t j = 0; j < e.count; j++)
    ck_assert_uint_eq(mip_view_edge_counter(&v, e.first + j), j + 1);
  ck_assert_uint_eq(mip_view_find_edge_counts(&v, "a.c;helper", &first), 1);
  ck_assert_uint_eq(first, 0);
  ck_assert_int_eq(mip_view_edge_counts(&v, first, &e, &err), 0);
  ck_assert_uint_eq(mip_view_edge_counter(&v, e.first), 4);
  ck_assert_uint_eq(mip_view_find_edge_counts(&v, "helper", &first), 0);
  ck_assert_uint_eq(mip_view_find_edge_counts(&v, "zzz", &first), 0);
  mip_view_close(&v);
}
END_TEST

START_TEST(profiles_without_block_counts_have_no_tables) {
  struct mip_buf m = {0};
  build_unit(&m, "a.c", COV, COV + 1);
  build_function(&m, "main", "", 0, 11, 0x1000, COV);
  struct mip_map map;
  parse(&m, &map);
  struct mip_profile p;
  mip_profile_from_map(&map, &p);
  struct mip_error err;
  const char *path = test_path("plain.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  struct mip_view v;
  ck_assert_int_eq(mip_view_open(path, &v, &err), 0);
  ck_assert(!v.tables[MIP_PROF_EDGE_COUNTS].present);
  ck_assert(!v.tables[MIP_PROF_EDGE_COUNTERS].present);
  uint64_t first;
  ck_assert_uint_eq(mip_view_find_edge_counts(&v, "main", &first), 0);
  mip_view_close(&v);
  mip_profile_free(&p);
  mip_map_free(&map);
  mip_buf_free(&m);
}
END_TEST

/* ---- what readers refuse ---------------------------------------------- */

/* p, written and opened: refused with needle. */
static void expect_profile_error(const struct mip_profile *p,
                                 const char *needle) {
  struct mip_buf out = {0};
  mip_profile_encode(p, &out);
  struct mip_file f = {out.data, out.size}; /* the view frees it */
  struct mip_view v;
  struct mip_error err;
  ck_assert_int_eq(mip_view_parse(&f, "bad.mip", &v, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
}

START_TEST(view_refuses_bad_tables) {
  struct mip_profile p;
  make_profile(&p);
  struct mip_profile_edge_counts *e = p.edge_counts, keep = e[1];

  p.edge_counter_count = COUNTERS - 1;
  expect_profile_error(&p, "bad.mip: corrupt profile: 7 edge counters for 8 "
                           "counters in the BCNT section");
  p.edge_counter_count = COUNTERS;

  e[1].first = COUNTERS - 2;
  expect_profile_error(&p, "corrupt profile: edge counts 1 lie outside the "
                           "edge counters");
  e[1].first = UINT64_MAX; /* first + count wraps */
  expect_profile_error(&p, "edge counts 1 lie outside the edge counters");
  e[1] = keep;

  e[1].unit = UINT32_MAX;
  expect_profile_error(&p, "corrupt profile: edge counts 1 name a string out "
                           "of range");
  e[1] = keep;

  e[1] = e[0];
  e[0] = keep;
  expect_profile_error(&p, "corrupt profile: edge counts out of order");
  e[0] = e[1];
  e[1] = keep;
  e[1].key = e[0].key; /* one key: then by cfg_hash */
  e[1].cfg_hash = e[0].cfg_hash - 1;
  expect_profile_error(&p, "edge counts out of order");
  e[1].cfg_hash = e[0].cfg_hash; /* a key twice, one hash: in order */
  struct mip_buf out = {0};
  mip_profile_encode(&p, &out);
  struct mip_file f = {out.data, out.size};
  struct mip_view v;
  struct mip_error err;
  ck_assert_msg(mip_view_parse(&f, "ok.mip", &v, &err) == 0, "%s", err.msg);
  mip_view_close(&v);
  e[1] = keep;

  /* no BCNT section: no counters, and no entries */
  for (size_t i = 0; i < p.extent_count; i++)
    if (p.extents[i].kind == MIP_RAW_BCNT)
      p.extents[i] = p.extents[--p.extent_count];
  expect_profile_error(&p, "8 edge counters for 0 counters in the BCNT "
                           "section");
  p.edge_counter_count = 0;
  expect_profile_error(&p, "corrupt profile: edge counts without edge "
                           "counters");
  p.edge_counter_count = COUNTERS;
  mip_profile_free(&p);
}
END_TEST

START_TEST(merge_refuses_other_graphs) {
  struct mip_profile p, other;
  struct mip_error err;
  make_profile(&p);
  make_profile(&other);
  other.edge_counts[1].cfg_hash++;
  ck_assert_int_eq(mip_profile_add_profile(&p, "p.mip", &other, "o.mip", &err),
                   -1);
  ck_assert_str_eq(err.msg, "o.mip: from another build: its block counts "
                            "differ from p.mip");
  other.edge_counts[1].cfg_hash--;
  other.edge_counts[1].first++;
  ck_assert_int_eq(mip_profile_add_profile(&p, "p.mip", &other, "o.mip", &err),
                   -1);
  mip_profile_free(&p);
  mip_profile_free(&other);
}
END_TEST

START_TEST(merge_refuses_runs_without_the_counters) {
  struct mip_profile p;
  make_profile(&p);
  uint8_t cov[2] = {1, 1};
  const struct payload_spec payloads[] = {{MIP_RAW_COV, 1, COV, cov, 2}};
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, 1);
  const char *path = test_path("nobcnt.mipraw");
  write_file(path, b.data, b.size);
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_read(path, &raw, &err), 0);
  ck_assert_int_eq(mip_profile_add_raw(&p, "p.mip", &raw, path, &err), -1);
  ck_assert_msg(strstr(err.msg, "has no counters of kind 7 that p.mip expects"),
                "%s", err.msg);
  mip_raw_free(&raw);
  mip_buf_free(&b);
  mip_profile_free(&p);
}
END_TEST

Suite *edge_counts_suite(void) {
  Suite *s = suite_create("edge_counts");
  TCase *tc = tcase_create("edge_counts");
  tcase_add_test(tc, map_keeps_one_record_per_function);
  tcase_add_test(tc, map_refuses_bad_records);
  tcase_add_test(tc, map_refuses_a_short_record);
  tcase_add_test(tc, map_refuses_records_without_their_section);
  tcase_add_test(tc, map_refuses_shared_counters);
  tcase_add_test(tc, map_refuses_a_section_no_profile_could_hold);
  tcase_add_test(tc, profile_has_an_entry_per_function_and_a_total_per_counter);
  tcase_add_test(tc, runs_and_pooled_files_add_up);
  tcase_add_test(tc, round_trip_and_merge);
  tcase_add_test(tc, view_reads_a_functions_counts);
  tcase_add_test(tc, profiles_without_block_counts_have_no_tables);
  tcase_add_test(tc, view_refuses_bad_tables);
  tcase_add_test(tc, merge_refuses_other_graphs);
  tcase_add_test(tc, merge_refuses_runs_without_the_counters);
  suite_add_tcase(s, tc);
  return s;
}
