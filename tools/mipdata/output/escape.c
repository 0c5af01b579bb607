/* Names and paths in each output format (escape.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "mipfmt.h"

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), its code point
 * in *cp; 0 when the byte at p starts none. */
static int utf8_sequence(const unsigned char *p, uint32_t *cp) {
  if (p[0] < 0x80) {
    *cp = p[0];
    return 1;
  }
  int n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 0;
  if (!n || p[0] > 0xf4)
    return 0;
  uint32_t c = p[0] & (0x7f >> n);
  for (int i = 1; i < n; i++) {
    if ((p[i] & 0xc0) != 0x80) /* the NUL that ends s stops here too */
      return 0;
    c = c << 6 | (p[i] & 0x3f);
  }
  static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
    return 0;
  *cp = c;
  return n;
}

static int is_c0_or_del(uint32_t c) { return c < 0x20 || c == 0x7f; }

static int is_control(uint32_t c) {
  return is_c0_or_del(c) || (c >= 0x80 && c <= 0x9f);
}

/* The bytes at p, up to the first that is not printable ASCII or is one
 * of special: what goes out as it is, in one write. */
static size_t plain_run(const unsigned char *p, const char *special) {
  size_t n = 0;
  while (p[n] >= 0x20 && p[n] < 0x7f && !strchr(special, p[n]))
    n++;
  return n;
}

/* The visible escape of a byte: \t, \n, \r or \xHH. */
static void visible_byte(FILE *out, unsigned char c) {
  if (c == '\t')
    fputs("\\t", out);
  else if (c == '\n')
    fputs("\\n", out);
  else if (c == '\r')
    fputs("\\r", out);
  else
    fprintf(out, "\\x%02x", c);
}

/* What a format makes of the well-formed UTF-8 character c (its n bytes
 * at p), and of a byte outside well-formed UTF-8. */
typedef void (*character_writer)(FILE *out, const unsigned char *p, int n,
                                 uint32_t c);
typedef void (*bad_byte_writer)(FILE *out, unsigned char byte);

/* s, character by character: runs of printable ASCII but the bytes of
 * special as they are, the rest through character and bad. */
static void escape_characters(FILE *out, const char *s, const char *special,
                              character_writer character, bad_byte_writer bad) {
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    size_t run = plain_run(p, special);
    if (run) {
      fwrite(p, 1, run, out);
      p += run;
      continue;
    }
    uint32_t c;
    int n = utf8_sequence(p, &c);
    if (n)
      character(out, p, n, c);
    else
      bad(out, *p);
    p += n ? n : 1;
  }
}

/* ---- JSON --------------------------------------------------------------- */

/* Characters JSON or YAML want escaped: controls, and what YAML does not
 * allow unescaped in a scalar (C1 controls, U+FFFE and U+FFFF). */
static int json_needs_escape(uint32_t c) {
  return is_control(c) || c == 0xfffe || c == 0xffff;
}

static void json_character(FILE *out, const unsigned char *p, int n,
                           uint32_t c) {
  if (c == '"')
    fputs("\\\"", out);
  else if (c == '\\')
    fputs("\\\\", out);
  else if (c == '\n')
    fputs("\\n", out);
  else if (c == '\t')
    fputs("\\t", out);
  else if (json_needs_escape(c))
    fprintf(out, "\\u%04x", (unsigned)c);
  else
    fwrite(p, 1, (size_t)n, out);
}

static void json_bad_byte(FILE *out, unsigned char byte) {
  (void)byte;
  fputs("\\ufffd", out);
}

void escape_json(FILE *out, const char *s) {
  fputc('"', out);
  escape_characters(out, s, "\"\\", json_character, json_bad_byte);
  fputc('"', out);
}

void escape_json_in_script(FILE *out, const char *json, size_t size) {
  for (size_t i = 0; i < size; i++) {
    unsigned char c = (unsigned char)json[i];
    if (c == '<' || c == '>' || c == '&') {
      fprintf(out, "\\u%04x", c);
    } else if (c == 0xe2 && i + 2 < size && json[i + 1] == '\x80' &&
               (json[i + 2] == '\xa8' || json[i + 2] == '\xa9')) {
      fputs(json[i + 2] == '\xa8' ? "\\u2028" : "\\u2029", out);
      i += 2;
    } else {
      fputc(c, out);
    }
  }
}

/* ---- XML ---------------------------------------------------------------- */

/* U+FFFD, for a byte of a file that says it is UTF-8. */
static void replacement_character(FILE *out, unsigned char byte) {
  (void)byte;
  fputs("\xef\xbf\xbd", out);
}

static void xml_character(FILE *out, const unsigned char *p, int n,
                          uint32_t c) {
  static const char *const entity[128] = {
      ['&'] = "&amp;",  ['<'] = "&lt;",  ['>'] = "&gt;",   ['"'] = "&quot;",
      ['\''] = "&#39;", ['\t'] = "&#9;", ['\n'] = "&#10;", ['\r'] = "&#13;"};
  if (c < 128 && entity[c])
    fputs(entity[c], out);
  else if (c < 0x20) /* XML 1.0 has no character for them */
    visible_byte(out, (unsigned char)c);
  else if (c == 0xfffe || c == 0xffff)
    replacement_character(out, 0);
  else
    fwrite(p, 1, (size_t)n, out);
}

void escape_xml(FILE *out, const char *s) {
  escape_characters(out, s, "&<>\"'", xml_character, replacement_character);
}

/* ---- lines of records --------------------------------------------------- */

void escape_line_field(FILE *out, const char *s, const char *also) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (is_c0_or_del(*p) || (also && strchr(also, *p)))
      visible_byte(out, *p);
    else
      fputc(*p, out);
  }
}

/* ---- text --------------------------------------------------------------- */

/* The length of the start of s that a terminal may have as it is. */
static size_t text_safe_prefix(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  size_t at = 0;
  for (;;) {
    at += plain_run(p + at, "");
    uint32_t c;
    int n = p[at] < 0x80 ? 0 : utf8_sequence(p + at, &c);
    if (!n || is_control(c))
      return at;
    at += (size_t)n;
  }
}

/* A control shown byte by byte, any other character as it is. */
static void text_character(FILE *out, const unsigned char *p, int n,
                           uint32_t c) {
  if (!is_control(c))
    fwrite(p, 1, (size_t)n, out);
  else
    for (int i = 0; i < n; i++)
      visible_byte(out, p[i]);
}

const char *text_safe(const char *s) {
  if (!s[text_safe_prefix(s)])
    return s;
  static struct mip_buf kept[TEXT_SAFE_KEPT];
  static unsigned next;
  struct mip_buf *b = &kept[next++ % TEXT_SAFE_KEPT];
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f)
    abort(); /* out of memory, as mip_xcalloc would */
  escape_characters(f, s, "", text_character, visible_byte);
  fclose(f);
  b->size = 0;
  mip_buf_append(b, text, size + 1);
  free(text);
  return (const char *)b->data;
}

void escape_text(FILE *out, const char *s) { fputs(text_safe(s), out); }

/* ---- markdown ----------------------------------------------------------- */

void escape_markdown(FILE *out, const char *s) {
  for (s = text_safe(s); *s; s++) {
    if (*s == '<')
      fputs("&lt;", out);
    else if (*s == '>')
      fputs("&gt;", out);
    else if (*s == '&')
      fputs("&amp;", out);
    else if (strchr("|\\`*_[]~", *s))
      fprintf(out, "\\%c", *s);
    else
      fputc(*s, out);
  }
}
