/*
 * Response files (@file). mipcc has to look inside them: build systems
 * put objects, sources and flags there when command lines grow long, and
 * those decide whether the command compiles or links. (They are passed to
 * clang untouched, unless they hold mipcc's own flags; see args.c.)
 *
 * This follows the clang driver (llvm::cl::ExpandResponseFiles with the
 * GNU tokenizer): whitespace separates arguments, '...' and "..." group, a
 * backslash takes the next character literally, @file inside a response
 * file is read too (relative to the current directory, like any other
 * file name), an @file that cannot be read is an ordinary argument, and a
 * file that includes itself is an error.
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mipcc.h"

/* The response files being read, innermost first (to catch a cycle). */
struct open_file {
  char *real; /* canonical path */
  const struct open_file *outer;
};

static void push_arg(struct arglist *out, const char *text, int top,
                     bool from_file) {
  if (out->n == out->cap) {
    out->cap = out->cap ? 2 * out->cap : 64;
    out->v = xrealloc(out->v, out->cap * sizeof *out->v);
  }
  out->v[out->n++] = (struct arg){text, top, from_file};
}

/* The whole file, NUL-terminated, or NULL when it cannot be read. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *buf = xmalloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n - 1 == 0)
      buf = xrealloc(buf, cap *= 2);
  }
  bool failed = ferror(f);
  fclose(f);
  if (failed) {
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

struct token {
  char *text;
  size_t n;
};

static void token_add(struct token *t, char c) {
  t->text[t->n++] = c;
}

/* Splits buf into arguments, written one after the other into a single
 * buffer of len + 1 bytes: a token is never longer than the text it came
 * from, and the whitespace that ended it (or the end of the input) pays
 * for its terminating NUL. */
static void tokenize(const char *buf, size_t len, struct strvec *words) {
  char *store = xmalloc(len + 1);
  struct token t = {store, 0};
  size_t i = 0;
  if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
    i = 3; /* UTF-8 byte order mark */
  for (; i < len; i++) {
    char c = buf[i];
    if (c == '\\' && i + 1 < len) {
      token_add(&t, buf[++i]);
    } else if (c == '\'' || c == '"') {
      for (i++; i < len && buf[i] != c; i++) {
        if (buf[i] == '\\' && i + 1 < len)
          i++;
        token_add(&t, buf[i]);
      }
    } else if (isspace((unsigned char)c)) {
      if (t.n) {
        token_add(&t, '\0');
        strvec_push(words, t.text);
        t.text += t.n;
        t.n = 0;
      }
    } else {
      token_add(&t, c);
    }
  }
  if (t.n) {
    token_add(&t, '\0');
    strvec_push(words, t.text);
  }
}

static void expand_one(const char *text, int top, bool from_file,
                       const struct open_file *open, struct arglist *out);

static void check_cycle(const char *real, const struct open_file *open) {
  for (; open; open = open->outer)
    if (strcmp(open->real, real) == 0)
      die("recursive expansion of response file '%s'", real);
}

/* Expands the arguments of response file path; false if it cannot be
 * read. */
static bool expand_file(const char *path, int top,
                        const struct open_file *open, struct arglist *out) {
  size_t len;
  char *buf = read_file(path, &len);
  if (!buf)
    return false;
  struct open_file self = {realpath(path, NULL), open};
  if (!self.real)
    self.real = xstrdup(path);
  check_cycle(self.real, open);
  struct strvec words = {0};
  tokenize(buf, len, &words);
  free(buf);

  for (size_t i = 0; i < words.n; i++)
    expand_one(words.v[i], top, true, &self, out);
  free(words.v);
  free(self.real);
  return true;
}

static void expand_one(const char *text, int top, bool from_file,
                       const struct open_file *open, struct arglist *out) {
  if (text[0] == '@' && text[1] && expand_file(text + 1, top, open, out))
    return;
  push_arg(out, text, top, from_file);
}

void expand_args(int argc, char **argv, struct arglist *out) {
  for (int i = 1; i < argc; i++)
    expand_one(argv[i], i, false, NULL, out);
}
