/* The one YAML/JSON writer: exact output for a small document. */
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "suites.h"

static char *render(enum emit_format format) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  struct emitter e;
  emit_begin(&e, out, format);
  emit_string(&e, "name", "a \"q\"\n");
  emit_u64(&e, "runs", 3);
  emit_array_begin(&e, "items");
  emit_object_begin(&e, NULL);
  emit_bool(&e, "covered", 1);
  emit_null(&e, "file");
  emit_object_end(&e);
  emit_object_begin(&e, NULL);
  emit_bool(&e, "covered", 0);
  emit_array_begin(&e, "empty");
  emit_array_end(&e);
  emit_object_end(&e);
  emit_array_end(&e);
  emit_end(&e);
  fclose(out);
  return text;
}

START_TEST(json_document) {
  char *text = render(EMIT_JSON);
  ck_assert_str_eq(text, "{\n"
                         "  \"name\": \"a \\\"q\\\"\\n\",\n"
                         "  \"runs\": 3,\n"
                         "  \"items\": [\n"
                         "    {\n"
                         "      \"covered\": true,\n"
                         "      \"file\": null\n"
                         "    },\n"
                         "    {\n"
                         "      \"covered\": false,\n"
                         "      \"empty\": []\n"
                         "    }\n"
                         "  ]\n"
                         "}\n");
  free(text);
}
END_TEST

START_TEST(yaml_document) {
  char *text = render(EMIT_YAML);
  ck_assert_str_eq(text, "---\n"
                         "name: \"a \\\"q\\\"\\n\"\n"
                         "runs: 3\n"
                         "items:\n"
                         "  - covered: true\n"
                         "    file: null\n"
                         "  - covered: false\n"
                         "    empty: []\n"
                         "...\n");
  free(text);
}
END_TEST

/* One string member, as JSON. */
static char *json_of(const char *value) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  struct emitter e;
  emit_begin(&e, out, EMIT_JSON);
  emit_string(&e, "s", value);
  emit_end(&e);
  fclose(out);
  return text;
}

static void json_string_is(const char *value, const char *want) {
  char *text = json_of(value);
  char expected[256];
  snprintf(expected, sizeof expected, "{\n  \"s\": \"%s\"\n}\n", want);
  ck_assert_str_eq(text, expected);
  free(text);
}

START_TEST(utf8_kept) {
  json_string_is("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
}
END_TEST

START_TEST(invalid_utf8_replaced) {
  /* a Latin-1 byte in a path, a lone continuation byte, a truncated
   * sequence at the end, an overlong '/', a surrogate, beyond U+10FFFF */
  json_string_is("/src/caf\xe9/a.c", "/src/caf\\ufffd/a.c");
  json_string_is("x\x80y", "x\\ufffdy");
  json_string_is("ab\xe2\x82", "ab\\ufffd\\ufffd");
  json_string_is("\xc0\xaf", "\\ufffd\\ufffd");
  json_string_is("\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd");
  json_string_is("\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd");
}
END_TEST

START_TEST(controls_escaped) {
  /* C0 controls, DEL and C1 controls (which YAML wants escaped) */
  json_string_is("a\x01\x7f\xc2\x85" "b", "a\\u0001\\u007f\\u0085b");
}
END_TEST

START_TEST(format_names) {
  enum emit_format f;
  ck_assert_int_eq(emit_parse_format("json", &f), 0);
  ck_assert_int_eq(f, EMIT_JSON);
  ck_assert_int_eq(emit_parse_format("xml", &f), -1);
}
END_TEST

/* A list of numbers stays on one line, in both formats. */
static char *render_list(enum emit_format format) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  static const uint64_t fs[] = {3, 0, 18446744073709551615u};
  struct emitter e;
  emit_begin(&e, out, format);
  emit_array_begin(&e, "pps");
  emit_u64_list(&e, NULL, fs, 3);
  emit_u64_list(&e, NULL, fs, 0);
  emit_array_end(&e);
  emit_u64_list(&e, "w", fs, 1);
  emit_end(&e);
  fclose(out);
  return text;
}

START_TEST(number_lists) {
  char *json = render_list(EMIT_JSON), *yaml = render_list(EMIT_YAML);
  ck_assert_str_eq(json, "{\n"
                         "  \"pps\": [\n"
                         "    [3, 0, 18446744073709551615],\n"
                         "    []\n"
                         "  ],\n"
                         "  \"w\": [3]\n"
                         "}\n");
  ck_assert_str_eq(yaml, "---\n"
                         "pps:\n"
                         "  - [3, 0, 18446744073709551615]\n"
                         "  - []\n"
                         "w: [3]\n"
                         "...\n");
  free(json);
  free(yaml);
}
END_TEST

Suite *emit_suite(void) {
  Suite *s = suite_create("emit");
  TCase *tc = tcase_create("emit");
  tcase_add_test(tc, json_document);
  tcase_add_test(tc, yaml_document);
  tcase_add_test(tc, format_names);
  tcase_add_test(tc, utf8_kept);
  tcase_add_test(tc, invalid_utf8_replaced);
  tcase_add_test(tc, controls_escaped);
  tcase_add_test(tc, number_lists);
  suite_add_tcase(s, tc);
  return s;
}
