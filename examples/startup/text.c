/* Character classes, case mapping, UTF-8 sequence lengths, keywords. */
#include <string.h>

#include "startup.h"

enum { ALPHA = 1, DIGIT = 2, SPACE = 4, PUNCT = 8, UPPER = 16 };

static unsigned char classes[256];
static unsigned char upper[256], lower[256];
static unsigned char utf8_length[256];

uint32_t ctype_init(void) {
  uint32_t digest = 0;
  for (int c = 0; c < 256; c++) {
    unsigned char k = 0;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
      k |= ALPHA;
    if (c >= 'A' && c <= 'Z')
      k |= UPPER;
    if (c >= '0' && c <= '9')
      k |= DIGIT;
    if (c == ' ' || (c >= '\t' && c <= '\r'))
      k |= SPACE;
    if (c > ' ' && c < 127 && !(k & (ALPHA | DIGIT)))
      k |= PUNCT;
    classes[c] = k;
    digest = digest * 3 + k;
  }
  return digest;
}

int cmd_classify(int argc, char **argv) {
  unsigned n[5] = {0};
  for (int i = 0; i < argc; i++)
    for (const unsigned char *p = (const unsigned char *)argv[i]; *p; p++) {
      unsigned char k = classes[*p];
      n[k & ALPHA ? 0 : k & DIGIT ? 1 : k & SPACE ? 2 : k & PUNCT ? 3 : 4]++;
    }
  printf("letters %u, digits %u, spaces %u, punctuation %u, other %u\n", n[0],
         n[1], n[2], n[3], n[4]);
  return 0;
}

uint32_t casemap_init(void) {
  uint32_t digest = 0;
  for (int c = 0; c < 256; c++) {
    upper[c] = (unsigned char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    lower[c] = (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    digest += (uint32_t)upper[c] ^ lower[c];
  }
  return digest;
}

static int map_words(int argc, char **argv, const unsigned char *map) {
  for (int i = 0; i < argc; i++) {
    for (const unsigned char *p = (const unsigned char *)argv[i]; *p; p++)
      putchar(map[*p]);
    putchar(i + 1 < argc ? ' ' : '\n');
  }
  return 0;
}

int cmd_upper(int argc, char **argv) { return map_words(argc, argv, upper); }
int cmd_lower(int argc, char **argv) { return map_words(argc, argv, lower); }

uint32_t utf8_init(void) {
  uint32_t digest = 0;
  for (int c = 0; c < 256; c++) {
    utf8_length[c] = c < 0x80   ? 1
                     : c < 0xc2 ? 0 /* continuation, or overlong */
                     : c < 0xe0 ? 2
                     : c < 0xf0 ? 3
                     : c < 0xf5 ? 4
                                : 0;
    digest = digest * 5 + utf8_length[c];
  }
  return digest;
}

int cmd_chars(int argc, char **argv) {
  for (int i = 0; i < argc; i++) {
    const unsigned char *p = (const unsigned char *)argv[i];
    unsigned chars = 0, bad = 0;
    while (*p) {
      unsigned n = utf8_length[*p], k = 1;
      while (n > 1 && k < n && (p[k] & 0xc0) == 0x80)
        k++;
      if (n == 0 || k < n) {
        bad++;
        p++;
      } else {
        chars++;
        p += n;
      }
    }
    printf("%s: %u characters, %u bad bytes\n", argv[i], chars, bad);
  }
  return 0;
}

/* Keywords: an open-addressing set of interned strings. */
#define KEYWORD_SLOTS 64
static const char *keyword_set[KEYWORD_SLOTS];

static uint32_t hash_string(const char *s) {
  uint32_t h = 2166136261u;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static void keyword_add(const char *word) {
  uint32_t i = hash_string(word) % KEYWORD_SLOTS;
  while (keyword_set[i] && strcmp(keyword_set[i], word) != 0)
    i = (i + 1) % KEYWORD_SLOTS;
  keyword_set[i] = word;
}

int is_keyword(const char *word) {
  uint32_t i = hash_string(word) % KEYWORD_SLOTS;
  for (; keyword_set[i]; i = (i + 1) % KEYWORD_SLOTS)
    if (strcmp(keyword_set[i], word) == 0)
      return 1;
  return 0;
}

uint32_t keywords_init(void) {
  static const char *const words[] = {
      "if",     "else",  "while", "for",    "return", "break", "continue",
      "switch", "case",  "default", "do",   "goto",   "struct", "union",
      "enum",   "const", "static", "extern", "sizeof", "typedef"};
  uint32_t digest = 0;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
    keyword_add(words[i]);
    digest ^= hash_string(words[i]);
  }
  return digest;
}

int cmd_keyword(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    printf("%s: %s\n", argv[i], is_keyword(argv[i]) ? "keyword" : "not a keyword");
  return 0;
}
