/* Profiles with every mode: calls, first-call order, blocks, edges. */
#include <string.h>

#include "builder.h"
#include "mip/layouts.h"
#include "suites.h"

static const struct mip_build_id ID = {2, {0x12, 0x34}};


static void full_profile(struct mip_profile *p) {
  struct mip_buf m = {0};
  build_two_function_map(&m);
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

/* One run: main entered once, leaf five times (ranks 1 and 2); main took
 * its first arm; sampled edges main->leaf (3) and outside->main (1). */
/* With free_slots, the edges come as continuous mode maps its table: with
 * free slots between them (nothing at all, or a slot claimed but not yet
 * sampled, or not yet filled in), which add nothing. */
static const char *raw_with(const char *name, uint64_t edge_callee,
                            const uint8_t cov[2], int free_slots) {
  uint8_t blk[2] = {1, 0};
  uint8_t cnt[16], ord[8], edges[5 * mip_rec_raw_edge_size],
      stats[2 * mip_rec_raw_stat_size];
  mip_put_le64(cnt, (uint64_t)-1); /* counters hold minus the calls */
  mip_put_le64(cnt + 8, (uint64_t)-5);
  mip_put_le32(ord, 1);
  mip_put_le32(ord + 4, 2);
  struct mip_rec_raw_edge e[5] = {{0x1010, edge_callee, 3}, {0, 0x5000, 1}};
  if (free_slots) {
    e[2] = e[1];
    e[1] = (struct mip_rec_raw_edge){0, 0, 0};
    e[3] = (struct mip_rec_raw_edge){0x1010, 0x5000, 0};
    e[4] = (struct mip_rec_raw_edge){0x1010, 0, 7};
  }
  size_t edge_count = free_slots ? 5 : 2;
  for (size_t i = 0; i < edge_count; i++)
    mip_rec_raw_edge_encode(&e[i], edges + i * mip_rec_raw_edge_size);
  struct mip_rec_raw_stat s1 = {MIP_STAT_EDGE_PERIOD, 0, 1024},
                          s2 = {MIP_STAT_EDGE_SAMPLES_DROPPED, 0, 2};
  mip_rec_raw_stat_encode(&s1, stats);
  mip_rec_raw_stat_encode(&s2, stats + mip_rec_raw_stat_size);
  const struct payload_spec payloads[] = {
      {MIP_RAW_COV, 1, 0x5000, cov, 2},
      {MIP_RAW_CNT, 8, 0x6000, cnt, 16},
      {MIP_RAW_ORD, 4, 0x7000, ord, 8},
      {MIP_RAW_BLK, 1, 0x8000, blk, 2},
      {MIP_RAW_EDGES, mip_rec_raw_edge_size, 0, edges,
       edge_count * mip_rec_raw_edge_size},
      {MIP_RAW_STATS, mip_rec_raw_stat_size, 0, stats, sizeof stats},
  };
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, 6);
  const char *path = test_path(name);
  write_file(path, b.data, b.size);
  mip_buf_free(&b);
  return path;
}

static const char *edge_raw(const char *name, uint64_t edge_callee,
                            int free_slots) {
  static const uint8_t cov[2] = {1, 1};
  return raw_with(name, edge_callee, cov, free_slots);
}

static const char *raw_with_cov(const char *name, uint64_t edge_callee,
                                const uint8_t cov[2]) {
  return raw_with(name, edge_callee, cov, 0);
}

static int add_run(struct mip_profile *p, const char *path,
                   struct mip_error *err) {
  struct mip_raw raw;
  int rc = mip_raw_read(path, &raw, err) ||
           mip_profile_add_raw(p, "p.mip", &raw, path, err);
  mip_raw_free(&raw);
  return rc;
}

static const char *full_raw(const char *name, uint64_t edge_callee) {
  return edge_raw(name, edge_callee, 0);
}

/* Functions are sorted by key: leaf is 0, main is 1. */
enum { LEAF, MAIN };

static void check_one_run(const struct mip_profile *p, uint64_t runs) {
  ck_assert_uint_eq(p->runs, runs);
  ck_assert_uint_eq(p->functions[MAIN].calls, 1 * runs);
  ck_assert_uint_eq(p->functions[LEAF].calls, 5 * runs);
  ck_assert_uint_eq(p->functions[MAIN].rank_sum, 1 * runs);
  ck_assert_uint_eq(p->functions[LEAF].rank_sum, 2 * runs);
  ck_assert_uint_eq(p->functions[LEAF].ranked_runs, runs);
  const struct mip_block *b = &p->blocks[p->functions[MAIN].first_block];
  ck_assert_uint_eq(p->functions[MAIN].block_count, 4);
  ck_assert_uint_eq(b[0].covered_runs, runs); /* entry */
  ck_assert_uint_eq(b[1].covered_runs, runs); /* probed, set */
  ck_assert_uint_eq(b[2].covered_runs, 0);    /* probed, clear */
  ck_assert_uint_eq(b[3].covered_runs, runs); /* inferred from b[1] */
  ck_assert_uint_eq(p->edge_count, 2);
  ck_assert_uint_eq(p->edges[0].caller, MAIN);
  ck_assert_uint_eq(p->edges[0].callee, LEAF);
  ck_assert_uint_eq(p->edges[0].samples, 3 * runs);
  ck_assert_uint_eq(p->edges[1].caller, MIP_NO_FUNCTION);
  ck_assert_uint_eq(p->edges[1].callee, MAIN);
  ck_assert_uint_eq(p->edge_period, 1024);
  ck_assert_uint_eq(p->edge_samples_dropped, 2 * runs);
}

START_TEST(merges_every_mode) {
  struct mip_profile p;
  struct mip_error err;
  full_profile(&p);
  ck_assert_int_eq(add_run(&p, full_raw("r.mipraw", 0x5001), &err), 0);
  check_one_run(&p, 1);
  mip_profile_free(&p);
}
END_TEST

START_TEST(every_mode_survives_write_and_read) {
  struct mip_profile p, back;
  struct mip_error err;
  full_profile(&p);
  ck_assert_int_eq(add_run(&p, full_raw("r.mipraw", 0x5001), &err), 0);
  const char *path = test_path("full.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  ck_assert_int_eq(mip_profile_read(path, &back, &err), 0);
  check_one_run(&back, 1);
  ck_assert_uint_eq(back.symbol_count, 2);
  ck_assert_uint_eq(back.blocks[back.functions[MAIN].first_block + 3].line,
                    13);
  mip_profile_free(&p);
  mip_profile_free(&back);
}
END_TEST

/* Calls and ranks with coverage bytes still 0 (a dump while threads were
 * entering the functions): they ran, and the profile says so, one its
 * reader takes. */
START_TEST(counted_calls_mean_it_ran) {
  struct mip_profile p, back;
  struct mip_error err;
  static const uint8_t unmarked[2] = {0, 0};
  full_profile(&p);
  ck_assert_int_eq(
      add_run(&p, raw_with_cov("r.mipraw", 0x5001, unmarked), &err), 0);
  ck_assert_uint_eq(p.functions[MAIN].covered_runs, 1);
  ck_assert_uint_eq(p.functions[LEAF].covered_runs, 1);
  ck_assert_uint_eq(p.blocks[p.functions[MAIN].first_block].covered_runs, 1);
  const char *path = test_path("unmarked.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  ck_assert_msg(mip_profile_read(path, &back, &err) == 0, "%s", err.msg);
  ck_assert_uint_eq(back.functions[LEAF].calls, 5);
  mip_profile_free(&back);
  mip_profile_free(&p);
}
END_TEST

START_TEST(profiles_of_profiles_add_up) {
  struct mip_profile a, b;
  struct mip_error err;
  full_profile(&a);
  full_profile(&b);
  ck_assert_int_eq(add_run(&a, full_raw("a.mipraw", 0x5001), &err), 0);
  ck_assert_int_eq(add_run(&b, full_raw("b.mipraw", 0x5001), &err), 0);
  ck_assert_int_eq(add_run(&b, full_raw("c.mipraw", 0x5001), &err), 0);
  ck_assert_int_eq(mip_profile_add_profile(&a, "a", &b, "b", &err), 0);
  check_one_run(&a, 3);
  mip_profile_free(&a);
  mip_profile_free(&b);
}
END_TEST

START_TEST(skips_edge_slots_without_samples) {
  struct mip_profile p;
  struct mip_error err;
  full_profile(&p);
  ck_assert_int_eq(add_run(&p, edge_raw("slots.mipraw", 0x5001, 1), &err), 0);
  check_one_run(&p, 1);
  mip_profile_free(&p);
}
END_TEST

START_TEST(refuses_edge_to_no_function) {
  struct mip_profile p;
  struct mip_error err;
  full_profile(&p);
  ck_assert_int_ne(add_run(&p, full_raw("bad.mipraw", 0x5002), &err), 0);
  ck_assert_ptr_nonnull(strstr(err.msg, "callee"));
  ck_assert_uint_eq(p.runs, 0); /* nothing was added */
  ck_assert_uint_eq(p.functions[MAIN].calls, 0);
  mip_profile_free(&p);
}
END_TEST

/* The full profile after one run, with function fn's numbers set so,
 * written and read back: refused, with needle, by the whole-profile
 * reader and by the view that annotate and the compiler use. */
static void expect_numbers_refused(size_t fn, uint64_t covered_runs,
                                   uint64_t calls, uint64_t ranked_runs,
                                   const char *needle) {
  struct mip_profile p;
  struct mip_error err;
  full_profile(&p);
  ck_assert_int_eq(add_run(&p, full_raw("r.mipraw", 0x5001), &err), 0);
  p.functions[fn].covered_runs = covered_runs;
  p.functions[fn].calls = calls;
  p.functions[fn].ranked_runs = ranked_runs;
  const char *path = test_path("odd.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  mip_profile_free(&p);
  ck_assert_int_eq(mip_profile_read(path, &p, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  mip_profile_free(&p);
  struct mip_view v;
  ck_assert_int_eq(mip_view_open(path, &v, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
}

/* A block depending on a block of another function: refused when any
 * reader opens the profile (annotate once took it, deciding on it). */
START_TEST(refuses_dependencies_on_other_functions) {
  struct mip_profile p;
  struct mip_error err;
  full_profile(&p);
  ck_assert_int_eq(add_run(&p, full_raw("r.mipraw", 0x5001), &err), 0);
  p.deps[0] = 7; /* main has 4 blocks */
  const char *path = test_path("deps.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  mip_profile_free(&p);
  const char *needle = "a block of function 1 depends on another function's";
  ck_assert_int_eq(mip_profile_read(path, &p, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s'", err.msg);
  mip_profile_free(&p);
  struct mip_view v;
  ck_assert_int_eq(mip_view_open(path, &v, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s'", err.msg);
}
END_TEST

/* Numbers no run or merge can give are refused like broken structure. */
START_TEST(refuses_contradicting_numbers) {
  /* functions in the file: leaf (0), main (1), by key */
  expect_numbers_refused(MAIN, 2, 1, 1, "function 1 ran in 2 runs of 1");
  expect_numbers_refused(MAIN, 0, 1, 0, "function 1 has 1 calls but never ran");
  expect_numbers_refused(MAIN, 1, 1, 2,
                         "function 1 was ranked in 2 runs but ran in 1");
}
END_TEST

static void expect_map_error(struct mip_buf *m, const char *needle) {
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_map_parse(m->data, m->size, "f.map", &map, &err), -1);
  ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg, needle);
  mip_map_free(&map);
  mip_buf_free(m);
}

START_TEST(refuses_bad_blocks) {
  const struct mip_block dep_out[] = {{1, MIP_PROBE_NONE, 0, 1, 0}};
  const struct mip_block probe_out[] = {{1, 7, 0, 0, 0}};
  const uint32_t deps[] = {5};
  struct mip_buf m = {0};
  build_two_function_map(&m);
  build_blocks(&m, 0x5001, dep_out, 1, deps, 1);
  expect_map_error(&m, "names what is not there");
  build_two_function_map(&m);
  build_blocks(&m, 0x5001, probe_out, 1, NULL, 0);
  expect_map_error(&m, "names what is not there");
  build_two_function_map(&m);
  build_blocks(&m, 0x5000, probe_out, 0, NULL, 0);
  expect_map_error(&m, "twice");
}
END_TEST

START_TEST(refuses_counters_outside_their_section) {
  struct mip_buf m = {0};
  const struct slot_spec sections[] = {{MIP_RAW_COV, 0, 0x5000, 0x5001},
                                       {MIP_RAW_CNT, 0, 0x6000, 0x6008}};
  build_unit_sections(&m, "a.c", sections, 2);
  const struct slot_spec slots[] = {{MIP_RAW_COV, 1, 0x5000, 0},
                                    {MIP_RAW_CNT, 1, 0x6004, 0}};
  build_function_slots(&m, "f", "", 0, 1, 0x1000, slots, 2);
  expect_map_error(&m, "outside their section");
}
END_TEST

START_TEST(infers_blocks_through_chains) {
  /* 0 entry; 1 probed; 2 from 1; 3 from 2; 4 from 5 or 6; 5 probed;
   * 6 from 4 (a cycle anchored by 5) */
  const struct mip_block blocks[] = {
      {0, MIP_PROBE_ENTRY, 0, 0, 0}, {0, 0, 0, 0, 0},
      {0, MIP_PROBE_NONE, 0, 1, 0},  {0, MIP_PROBE_NONE, 1, 1, 0},
      {0, MIP_PROBE_NONE, 2, 2, 0},  {0, 1, 0, 0, 0},
      {0, MIP_PROBE_NONE, 4, 1, 0}};
  const uint32_t deps[] = {1, 2, 5, 6, 4};
  uint8_t covered[7];
  mip_blocks_infer(blocks, 7, deps, (const uint8_t[]){1, 0}, 2, 1, covered);
  ck_assert_mem_eq(covered, ((const uint8_t[]){1, 1, 1, 1, 0, 0, 0}), 7);
  mip_blocks_infer(blocks, 7, deps, (const uint8_t[]){0, 1}, 2, 1, covered);
  ck_assert_mem_eq(covered, ((const uint8_t[]){1, 0, 0, 0, 1, 1, 1}), 7);
  mip_blocks_infer(blocks, 7, deps, NULL, 0, 0, covered);
  ck_assert_mem_eq(covered, ((const uint8_t[]){0, 0, 0, 0, 0, 0, 0}), 7);
}
END_TEST

START_TEST(reads_version_1_map_files) {
  struct mip_buf m = {0};
  build_two_function_map(&m);
  struct mip_rec_mapfile_header h;
  memset(&h, 0, sizeof h);
  h.magic = MIP_MAPFILE_MAGIC;
  h.version = 1;
  h.header_size = 96; /* no symbols_size */
  h.build_id_size = ID.size;
  memcpy(h.build_id, ID.bytes, ID.size);
  h.section_size = m.size;
  uint8_t header[mip_rec_mapfile_header_size];
  mip_rec_mapfile_header_encode(&h, header);
  struct mip_buf file = {0};
  mip_buf_append(&file, header, 96);
  mip_buf_append(&file, m.data, m.size);
  const char *path = test_path("v1.mipmap");
  write_file(path, file.data, file.size);
  struct mip_map map;
  struct mip_error err;
  ck_assert_int_eq(mip_mapfile_read(path, &map, &err), 0);
  ck_assert_uint_eq(map.function_count, 2);
  ck_assert_uint_eq(map.symbol_count, 0);
  ck_assert(mip_build_id_equal(&map.build_id, &ID));
  mip_map_free(&map);
  mip_buf_free(&m);
  mip_buf_free(&file);
}
END_TEST

/* A profile whose per-function table lost an entry, or whose edge names
 * a function that is not there, is refused. */
START_TEST(refuses_inconsistent_tables) {
  struct mip_profile p;
  struct mip_error err;
  full_profile(&p);
  ck_assert_int_eq(add_run(&p, full_raw("r.mipraw", 0x5001), &err), 0);
  const char *path = test_path("t.mip");
  ck_assert_int_eq(mip_profile_write(path, &p, &err), 0);
  struct mip_file f;
  ck_assert_int_eq(mip_file_read(path, &f, &err), 0);
  struct mip_rec_profile_header h;
  mip_rec_profile_header_decode(&h, f.data);
  for (uint32_t i = 0; i < h.section_count; i++) {
    uint8_t *at = f.data + h.header_size + i * mip_rec_profile_section_size;
    struct mip_rec_profile_section s;
    mip_rec_profile_section_decode(&s, at);
    if (s.kind == MIP_PROF_CALLS) {
      s.size -= s.entry_size;
      mip_rec_profile_section_encode(&s, at);
    }
    if (s.kind == MIP_PROF_EDGES)
      mip_put_le32(f.data + s.offset + 4, 99); /* first edge's callee */
  }
  write_file(path, f.data, f.size);
  struct mip_profile back;
  ck_assert_int_eq(mip_profile_read(path, &back, &err), -1);
  ck_assert_msg(strstr(err.msg, "call entries"), "%s", err.msg);
  mip_profile_free(&back);
  mip_file_free(&f);
  mip_profile_free(&p);
}
END_TEST

/* Merging reads one counter of a function's call count, rank and
 * coverage byte, at the width of its kind: a map without that counter, or
 * any file whose counters of a kind have another size, is refused. (Once,
 * a map with an empty slot made a profile its own reader refused.) */
START_TEST(refuses_counters_of_other_sizes) {
  struct mip_buf m = {0};
  build_two_function_map(&m);
  /* the unit's second section, CNT: elements of 4 bytes */
  size_t at = mip_rec_map_record_size + mip_rec_map_unit_size +
              mip_rec_map_unit_section_size;
  ck_assert_uint_eq(mip_get_le32(m.data + at), MIP_RAW_CNT);
  mip_put_le32(m.data + at + 4, 4);
  expect_map_error(&m, "corrupt map: counters of kind 2 of 4 bytes, not 8");

  const struct slot_spec sections[] = {{MIP_RAW_COV, 0, 0x5000, 0x5001},
                                       {MIP_RAW_ORD, 0, 0x7000, 0x7004}};
  const struct slot_spec slots[] = {{MIP_RAW_COV, 1, 0x5000, 0},
                                    {MIP_RAW_ORD, 0, 0x7004, 0}};
  build_unit_sections(&m, "a.c", sections, 2);
  build_function_slots(&m, "f", "", 0, 1, 0x1000, slots, 2);
  expect_map_error(&m, "function f has an empty slot of counter kind 3");

  uint8_t cov[2] = {1, 1}, cnt[16] = {0};
  const struct payload_spec payloads[] = {{MIP_RAW_COV, 1, 0x5000, cov, 2},
                                          {MIP_RAW_CNT, 4, 0x6000, cnt, 16}};
  struct mip_buf b = {0};
  build_raw_payloads(&b, &ID, payloads, 2);
  struct mip_file bytes = {b.data, b.size};
  struct mip_raw raw;
  struct mip_error err;
  ck_assert_int_eq(mip_raw_parse(&bytes, "r.mipraw", &raw, &err), -1);
  ck_assert_msg(strstr(err.msg, "section 1 has a bad element size"), "%s",
                err.msg);
  mip_raw_free(&raw);

  struct mip_profile p;
  full_profile(&p);
  p.extents[1].elem_size = 1; /* CNT */
  ck_assert_uint_eq(p.extents[1].kind, MIP_RAW_CNT);
  struct mip_buf file = {0};
  mip_profile_encode(&p, &file);
  bytes = (struct mip_file){file.data, file.size};
  struct mip_profile back;
  ck_assert_int_eq(mip_profile_parse(&bytes, "p.mip", &back, &err), -1);
  ck_assert_str_eq(err.msg,
                   "p.mip: corrupt profile: counters of kind 2 of 1 bytes, "
                   "not 8");
  mip_profile_free(&back);
  mip_profile_free(&p);
}
END_TEST

Suite *modes_suite(void) {
  Suite *s = suite_create("modes");
  TCase *tc = tcase_create("modes");
  tcase_add_test(tc, merges_every_mode);
  tcase_add_test(tc, refuses_contradicting_numbers);
  tcase_add_test(tc, refuses_dependencies_on_other_functions);
  tcase_add_test(tc, every_mode_survives_write_and_read);
  tcase_add_test(tc, profiles_of_profiles_add_up);
  tcase_add_test(tc, skips_edge_slots_without_samples);
  tcase_add_test(tc, counted_calls_mean_it_ran);
  tcase_add_test(tc, refuses_edge_to_no_function);
  tcase_add_test(tc, refuses_bad_blocks);
  tcase_add_test(tc, refuses_counters_outside_their_section);
  tcase_add_test(tc, infers_blocks_through_chains);
  tcase_add_test(tc, reads_version_1_map_files);
  tcase_add_test(tc, refuses_inconsistent_tables);
  tcase_add_test(tc, refuses_counters_of_other_sizes);
  suite_add_tcase(s, tc);
  return s;
}
