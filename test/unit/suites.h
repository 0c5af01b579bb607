#ifndef TEST_SUITES_H
#define TEST_SUITES_H

#include <check.h>

Suite *layout_suite(void);
Suite *map_suite(void);
Suite *raw_suite(void);
Suite *profile_suite(void);
Suite *emit_suite(void);
Suite *runtime_suite(void);
Suite *modes_suite(void);
Suite *heap_suite(void);
Suite *heap_runtime_suite(void);
Suite *heap_got_suite(void);
Suite *decide_suite(void);
Suite *pool_suite(void);
Suite *report_suite(void);
Suite *parse_suite(void);
Suite *flame_suite(void);
Suite *export_suite(void);
Suite *diff_suite(void);
Suite *path_suite(void);
Suite *edge_counts_suite(void);

#endif
