/*
 * Keys of the report model's entities (docs/report.md): names that come
 * from the source (function, file, line, column, allocator), never from
 * an index or an address, so that two builds' profiles can be matched.
 *
 *             fine                          coarse
 *   function  NAME@FILE:LINE                NAME@FILE
 *   site      ALLOC:FUNC@FILE:LINE:COL      ALLOC:FUNC@FILE
 *   frame     FUNC@FILE:LINE:COL[@OBJECT]   FUNC@FILE
 *   context   SITE|FRAME|FRAME...           ALLOC|FRAME|FRAME...
 *
 * Each field has '%', '|', '@', ':', '#' and control bytes written %XX,
 * so a key reads back into its fields. A fine key that two entities of
 * one profile would share gets "#2", "#3", ... on the second, third, ...
 * in profile order, so that fine keys are unique.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void text(struct mip_buf *b, const char *s) {
  mip_buf_append(b, s, strlen(s));
}

/* What a field writes %XX: control bytes, DEL, '%' and the delimiters. */
static const char escaped[] = "\001\002\003\004\005\006\007\010\011\012\013"
                              "\014\015\016\017\020\021\022\023\024\025"
                              "\026\027\030\031\032\033\034\035\036\037"
                              "\177%|@:#";

/* One field, its delimiters escaped; NULL is an empty field. The bytes
 * between two escapes go in one append (strcspn finds them: keys are
 * made for every entity of every profile a command reads). */
static void field(struct mip_buf *b, const char *s) {
  const char *p = s ? s : "";
  while (*p) {
    size_t run = strcspn(p, escaped);
    mip_buf_append(b, p, run);
    p += run;
    if (*p) {
      char hex[4];
      snprintf(hex, sizeof hex, "%%%02X", (unsigned char)*p++);
      text(b, hex);
    }
  }
}

static void number(struct mip_buf *b, const char *before, uint32_t n) {
  char digits[16];
  snprintf(digits, sizeof digits, "%s%u", before, (unsigned)n);
  text(b, digits);
}

/* The buffer's bytes as a string, which the caller owns. */
static char *finish(struct mip_buf *b) {
  mip_buf_append(b, "", 1);
  return (char *)b->data;
}

static void set(char **key, struct mip_buf *b) {
  free(*key);
  *key = finish(b);
}

/* ---- unique fine keys --------------------------------------------------- */

struct keyed {
  char **key;
  size_t index;
};

static int by_key(const void *a, const void *b) {
  const struct keyed *x = a, *y = b;
  int c = strcmp(*x->key, *y->key);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Suffixes the second and later of equal keys with "#N". */
static void make_unique(struct keyed *k, size_t n) {
  qsort(k, n, sizeof *k, by_key);
  for (size_t i = 0, run = 1; i < n; i++) {
    run = i && strcmp(*k[i].key, *k[i - 1].key) == 0 ? run + 1 : 1;
    if (run > 1) {
      struct mip_buf b = {0};
      text(&b, *k[i].key);
      number(&b, "#", (uint32_t)run);
      set(k[i].key, &b);
    }
  }
}

/* k[i] is key of entity i: entities of elem bytes from base. */
static void unique_keys(void *base, size_t count, size_t elem,
                        size_t key_offset) {
  struct keyed *k = mip_xcalloc(count + 1, sizeof *k);
  for (size_t i = 0; i < count; i++)
    k[i] = (struct keyed){(char **)((char *)base + i * elem + key_offset), i};
  make_unique(k, count);
  free(k);
}

/* ---- each entity -------------------------------------------------------- */

/* FUNCTION@FILE; in a fine key, then :LINE, and :COLUMN when there is
 * one (functions have none). */
static void place(struct mip_buf *b, enum report_key kind,
                  const char *function, const char *file, uint32_t line,
                  const uint32_t *column) {
  field(b, function);
  text(b, "@");
  field(b, file);
  if (kind == REPORT_COARSE)
    return;
  number(b, ":", line);
  if (column)
    number(b, ":", *column);
}

static void key_function(const struct report *r, struct report_function *f) {
  const struct mip_profile *p = &r->profile;
  const char *name = mip_profile_string(p, p->functions[f->index].key);
  for (int kind = 0; kind < REPORT_KEYS; kind++) {
    struct mip_buf b = {0};
    place(&b, (enum report_key)kind, name, f->file, f->line, NULL);
    set(&f->key[kind], &b);
  }
}

/* A site's function; for code built without -g, which names none, the
 * function it was compiled into (by its profile key). */
static const char *site_function(const struct report *r,
                                 const struct report_site *s) {
  if (*s->function)
    return s->function;
  const struct mip_profile *p = &r->profile;
  return mip_profile_string(p, p->functions[s->instrumented->index].key);
}

static void key_site(const struct report *r, struct report_site *s) {
  for (int kind = 0; kind < REPORT_KEYS; kind++) {
    struct mip_buf b = {0};
    field(&b, s->allocator_name);
    text(&b, ":");
    place(&b, (enum report_key)kind, site_function(r, s), s->file, s->line,
          &s->column);
    set(&s->key[kind], &b);
  }
}

static void frame_key(struct mip_buf *b, const struct report_frame *f,
                      enum report_key kind) {
  place(b, kind, f->function, f->file, f->line, &f->column);
  if (kind == REPORT_FINE && f->object) {
    text(b, "@");
    field(b, f->object);
  }
}

static void key_context(const struct report *r, struct report_context *c) {
  for (int kind = 0; kind < REPORT_KEYS; kind++) {
    struct mip_buf b = {0};
    if (c->site && kind == REPORT_FINE)
      text(&b, c->site->key[REPORT_FINE]); /* escaped already */
    else if (c->site)
      field(&b, c->site->allocator_name);
    for (uint32_t k = 0; k < c->depth; k++) {
      text(&b, "|");
      frame_key(&b, &r->frames[c->stack[k]], (enum report_key)kind);
    }
    set(&c->key[kind], &b);
  }
}

/* Functions first, then sites, then the contexts, whose fine keys hold
 * their sites' (unique) ones. */
void report_key_all(struct report *r) {
  for (size_t i = 0; i < r->function_count; i++)
    key_function(r, &r->functions[i]);
  unique_keys(r->functions, r->function_count, sizeof *r->functions,
              offsetof(struct report_function, key[REPORT_FINE]));
  for (size_t i = 0; i < r->site_count; i++)
    key_site(r, &r->sites[i]);
  unique_keys(r->sites, r->site_count, sizeof *r->sites,
              offsetof(struct report_site, key[REPORT_FINE]));
  for (size_t i = 0; i < r->context_count; i++)
    key_context(r, &r->contexts[i]);
  unique_keys(r->contexts, r->context_count, sizeof *r->contexts,
              offsetof(struct report_context, key[REPORT_FINE]));
}
