/* CRC-32, base64, hexadecimal, C string escapes. */
#include <string.h>

#include "startup.h"

static uint32_t crc_table[256];
static const char base64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static signed char base64_values[256];
static signed char hex_values[256];
static const char *escapes[256];

uint32_t crc32_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
  return crc_table[255];
}

uint32_t crc32(const void *data, size_t n, uint32_t crc) {
  const unsigned char *p = data;
  crc = ~crc;
  while (n--)
    crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}

int cmd_crc32(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    printf("%08x  %s\n", (unsigned)crc32(argv[i], strlen(argv[i]), 0), argv[i]);
  return 0;
}

uint32_t base64_init(void) {
  memset(base64_values, -1, sizeof base64_values);
  for (int i = 0; i < 64; i++)
    base64_values[(unsigned char)base64_digits[i]] = (signed char)i;
  return crc32(base64_values, sizeof base64_values, 0);
}

int cmd_base64(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    const unsigned char *p = (const unsigned char *)argv[i];
    size_t n = strlen(argv[i]);
    for (size_t k = 0; k < n; k += 3) {
      uint32_t v = (uint32_t)p[k] << 16;
      if (k + 1 < n)
        v |= (uint32_t)p[k + 1] << 8;
      if (k + 2 < n)
        v |= p[k + 2];
      putchar(base64_digits[v >> 18]);
      putchar(base64_digits[(v >> 12) & 63]);
      putchar(k + 1 < n ? base64_digits[(v >> 6) & 63] : '=');
      putchar(k + 2 < n ? base64_digits[v & 63] : '=');
    }
    putchar('\n');
  }
  return 0;
}

int cmd_unbase64(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    uint32_t v = 0;
    int bits = 0;
    for (const unsigned char *p = (const unsigned char *)argv[i]; *p && *p != '='; p++) {
      int d = base64_values[*p];
      if (d < 0) {
        fprintf(stderr, "startup: not base64: %s\n", argv[i]);
        return 1;
      }
      v = v << 6 | (uint32_t)d;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        putchar((int)(v >> bits) & 0xff);
      }
    }
    putchar('\n');
  }
  return 0;
}

uint32_t hex_init(void) {
  memset(hex_values, -1, sizeof hex_values);
  for (int i = 0; i < 10; i++)
    hex_values['0' + i] = (signed char)i;
  for (int i = 0; i < 6; i++)
    hex_values['a' + i] = hex_values['A' + i] = (signed char)(10 + i);
  return crc32(hex_values, sizeof hex_values, 0);
}

int cmd_hex(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    const unsigned char *p = (const unsigned char *)argv[i];
    int is_hex = *p != 0;
    for (const unsigned char *q = p; *q; q++)
      is_hex &= hex_values[*q] >= 0;
    if (is_hex && strlen(argv[i]) % 2 == 0) { /* decode */
      for (; *p; p += 2)
        putchar(hex_values[p[0]] << 4 | hex_values[p[1]]);
    } else { /* encode */
      for (; *p; p++)
        printf("%02x", *p);
    }
    putchar('\n');
  }
  return 0;
}

uint32_t escape_init(void) {
  static char octal[256][5];
  for (int c = 0; c < 256; c++) {
    if (c >= ' ' && c < 127 && c != '\\' && c != '"') {
      escapes[c] = NULL;
      continue;
    }
    snprintf(octal[c], sizeof octal[c], "\\%03o", c);
    escapes[c] = octal[c];
  }
  escapes['\n'] = "\\n";
  escapes['\t'] = "\\t";
  escapes['\r'] = "\\r";
  escapes['\\'] = "\\\\";
  escapes['"'] = "\\\"";
  return crc32(octal, sizeof octal, 0);
}

int cmd_escape(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)argv[i]; *p; p++) {
      if (escapes[*p])
        fputs(escapes[*p], stdout);
      else
        putchar(*p);
    }
    puts("\"");
  }
  return 0;
}
