/* The one YAML/JSON writer: exact output for a small document. */
#include <stdio.h>
#include <stdlib.h>

#include "../../tools/mipdata/emit.h"
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

START_TEST(format_names) {
  enum emit_format f;
  ck_assert_int_eq(emit_parse_format("json", &f), 0);
  ck_assert_int_eq(f, EMIT_JSON);
  ck_assert_int_eq(emit_parse_format("xml", &f), -1);
}
END_TEST

Suite *emit_suite(void) {
  Suite *s = suite_create("emit");
  TCase *tc = tcase_create("emit");
  tcase_add_test(tc, json_document);
  tcase_add_test(tc, yaml_document);
  tcase_add_test(tc, format_names);
  suite_add_tcase(s, tc);
  return s;
}
