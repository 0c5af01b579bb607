/* The generated encoders and decoders agree with each other and with the
 * documented byte order. */
#include <string.h>

#include "mip/layouts.h"
#include "suites.h"

START_TEST(header_round_trip) {
  struct mip_rec_raw_header h, back;
  memset(&h, 0, sizeof h);
  h.magic = MIP_RAW_MAGIC;
  h.version = 7;
  h.header_size = 112;
  h.flags = MIP_RAW_POOLED;
  h.runs = 0x1112131415161718ULL;
  h.modes = 0x0102030405060708ULL;
  h.build_id_size = 3;
  h.build_id[0] = 0xab;
  h.build_id[63] = 0xcd;
  uint8_t bytes[mip_rec_raw_header_size];
  mip_rec_raw_header_encode(&h, bytes);
  mip_rec_raw_header_decode(&back, bytes);
  ck_assert_mem_eq(&h, &back, sizeof h);
}
END_TEST

START_TEST(little_endian_on_disk) {
  struct mip_rec_map_record r = {0x0102, 0x0304, 0x05060708};
  uint8_t bytes[mip_rec_map_record_size];
  mip_rec_map_record_encode(&r, bytes);
  const uint8_t want[] = {0x02, 0x01, 0x04, 0x03, 0x08, 0x07, 0x06, 0x05};
  ck_assert_mem_eq(bytes, want, sizeof want);
}
END_TEST

START_TEST(magic_starts_with_0x7f) {
  struct mip_rec_raw_header h = {.magic = MIP_RAW_MAGIC};
  uint8_t bytes[mip_rec_raw_header_size];
  mip_rec_raw_header_encode(&h, bytes);
  ck_assert_mem_eq(bytes, "\x7fMIPRAW\0", 8);
}
END_TEST

START_TEST(sizes_are_documented_ones) {
  /* docs/formats.md gives these sizes; a change here is a format change. */
  ck_assert_int_eq(mip_rec_raw_header_size, 112);
  ck_assert_int_eq(mip_rec_raw_pool_rank_size, 16);
  ck_assert_int_eq(mip_rec_raw_pool_blocks_size, 24);
  ck_assert_int_eq(mip_rec_raw_pool_pattern_size, 8);
  ck_assert_int_eq(mip_rec_raw_section_size, 32);
  ck_assert_int_eq(mip_rec_map_record_size, 8);
  ck_assert_int_eq(mip_rec_map_unit_size, 16);
  ck_assert_int_eq(mip_rec_map_unit_section_size, 24);
  ck_assert_int_eq(mip_rec_map_function_size, 32);
  ck_assert_int_eq(mip_rec_map_slot_size, 16);
  ck_assert_int_eq(mip_rec_mapfile_header_size, 104);
  ck_assert_int_eq(mip_rec_symbol_size, 16);
  ck_assert_int_eq(mip_rec_map_blocks_size, 16);
  ck_assert_int_eq(mip_rec_map_block_size, 16);
  ck_assert_int_eq(mip_rec_raw_edge_size, 24);
  ck_assert_int_eq(mip_rec_raw_stat_size, 16);
  ck_assert_int_eq(mip_rec_profile_calls_size, 16);
  ck_assert_int_eq(mip_rec_profile_order_size, 24);
  ck_assert_int_eq(mip_rec_profile_blocks_size, 16);
  ck_assert_int_eq(mip_rec_profile_block_size, 24);
  ck_assert_int_eq(mip_rec_profile_edge_size, 16);
  ck_assert_int_eq(mip_rec_profile_stat_size, 16);
  ck_assert_int_eq(mip_rec_profile_header_size, 104);
  ck_assert_int_eq(mip_rec_profile_section_size, 24);
  ck_assert_int_eq(mip_rec_profile_function_size, 48);
  ck_assert_int_eq(mip_rec_map_edge_counts_size, 32);
  ck_assert_int_eq(mip_rec_profile_edge_counts_size, 32);
}
END_TEST

Suite *layout_suite(void) {
  Suite *s = suite_create("layout");
  TCase *tc = tcase_create("encode");
  tcase_add_test(tc, header_round_trip);
  tcase_add_test(tc, little_endian_on_disk);
  tcase_add_test(tc, magic_starts_with_0x7f);
  tcase_add_test(tc, sizes_are_documented_ones);
  suite_add_tcase(s, tc);
  return s;
}
