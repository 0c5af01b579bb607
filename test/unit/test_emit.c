/* The one YAML/JSON writer: exact output for a small document; the
 * escaping of names in each output format (escape.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "escape.h"
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

/* ---- escape.h: a name in each format ----------------------------------- */

/* What escape writes of s. */
static char *escaped(void (*escape)(FILE *, const char *), const char *s) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  escape(out, s);
  fclose(out);
  return text;
}

static void escape_is(void (*escape)(FILE *, const char *), const char *s,
                      const char *want) {
  char *text = escaped(escape, s);
  ck_assert_str_eq(text, want);
  free(text);
}

static void lcov_field(FILE *out, const char *s) {
  escape_line_field(out, s, NULL);
}
static void folded_frame(FILE *out, const char *s) {
  escape_line_field(out, s, ";");
}

/* The names of test/e2e/hostile_names.sh. */
static const char injected[] = "a\nSF:/etc/passwd\nend_of_record\nb.c";
static const char terminal[] = "esc\033]0;pwned\007\033[2J.c";

START_TEST(line_fields) {
  /* no record ends in a name; tabs and other bytes as they are, a file
   * whose name is not UTF-8 keeps its bytes */
  escape_is(lcov_field, injected, "a\\nSF:/etc/passwd\\nend_of_record\\nb.c");
  escape_is(lcov_field, "cr\r|\t\x7f\xff.c", "cr\\r|\\t\\x7f\xff.c");
  escape_is(lcov_field, terminal, "esc\\x1b]0;pwned\\x07\\x1b[2J.c");
  escape_is(folded_frame, "ns::f;g\n", "ns::f\\x3bg\\n");
  escape_is(lcov_field, "", "");
}
END_TEST

START_TEST(xml_values) {
  escape_is(escape_xml, "<a href=\"x\">&'</a>",
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  /* tab, LF, CR kept as references; the other controls XML 1.0 has no
   * character for, shown; bytes outside UTF-8 and U+FFFF as U+FFFD */
  escape_is(escape_xml, "a\tb\nc\rd", "a&#9;b&#10;c&#13;d");
  escape_is(escape_xml, terminal, "esc\\x1b]0;pwned\\x07\\x1b[2J.c");
  escape_is(escape_xml, "x\xff\xef\xbf\xbfy\xc3\xa9",
            "x\xef\xbf\xbd\xef\xbf\xbdy\xc3\xa9");
}
END_TEST

static void in_script(FILE *out, const char *json) {
  escape_json_in_script(out, json, strlen(json));
}

START_TEST(json_in_script) {
  /* no "</script>", "<!--" or "<script" left; U+2028/9 escaped; other
   * characters, multi-byte ones too, as they are */
  escape_is(in_script, "{\"n\":\"<!--<script></script>&\"}",
            "{\"n\":\"\\u003c!--\\u003cscript\\u003e\\u003c/script\\u003e"
            "\\u0026\"}");
  escape_is(in_script, "\"\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xa6\"",
            "\"\\u2028\\u2029\xe2\x80\xa6\"");
}
END_TEST

START_TEST(terminal_text) {
  /* C0 and C1 controls, DEL and bytes outside UTF-8 shown as ls and git
   * show them; UTF-8 as it is; a safe name is the name itself */
  const char *safe = "caf\xc3\xa9::f(int)";
  ck_assert_ptr_eq(text_safe(safe), safe);
  escape_is(escape_text, terminal, "esc\\x1b]0;pwned\\x07\\x1b[2J.c");
  escape_is(escape_text, "a\tb\r\n\x7f", "a\\tb\\r\\n\\x7f");
  escape_is(escape_text,
            "csi\xc2\x9b"
            "2J \xff\xfe \xe2\x82",
            "csi\\xc2\\x9b2J \\xff\\xfe \\xe2\\x82");
  /* TEXT_SAFE_KEPT copies stay valid at once */
  const char *kept[TEXT_SAFE_KEPT];
  char name[TEXT_SAFE_KEPT][8];
  for (int i = 0; i < TEXT_SAFE_KEPT; i++) {
    snprintf(name[i], sizeof name[i], "\033%d", i);
    kept[i] = text_safe(name[i]);
  }
  for (int i = 0; i < TEXT_SAFE_KEPT; i++) {
    char want[16];
    snprintf(want, sizeof want, "\\x1b%d", i);
    ck_assert_str_eq(kept[i], want);
  }
}
END_TEST

START_TEST(markdown_cells) {
  /* nothing ends the cell or the row, or becomes markdown or HTML */
  escape_is(escape_markdown, "row\r| forged | cell |\n`tick`",
            "row\\\\r\\| forged \\| cell \\|\\\\n\\`tick\\`");
  escape_is(escape_markdown, "<!--<script>*a_b*[x](y)~~&",
            "&lt;!--&lt;script&gt;\\*a\\_b\\*\\[x\\](y)\\~\\~&amp;");
  escape_is(escape_markdown, "\033[2J\xff", "\\\\x1b\\[2J\\\\xff");
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
  tcase_add_test(tc, line_fields);
  tcase_add_test(tc, xml_values);
  tcase_add_test(tc, json_in_script);
  tcase_add_test(tc, terminal_text);
  tcase_add_test(tc, markdown_cells);
  suite_add_tcase(s, tc);
  return s;
}
