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
 * FILE is the file's name relative to the build's root, after the
 * --path-map rules (report_path.c): two checkouts of one tree in two
 * directories have the same keys. When the caller compares two profiles
 * of one image under two host programs (image_frames_only), a context's
 * key has the frames of the profile's image alone, and two contexts of
 * one profile can share it (matching sums them).
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

/* The bytes written %XX in a field: control bytes, DEL and the
 * delimiters (NUL ends the field anyway). */
static const char escaped_bytes[] =
    "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
    "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f"
    "\x7f%|@:#";

/* One field, its delimiters escaped; NULL is an empty field. The bytes
 * between two escapes go in at once, found by strcspn rather than a test
 * per byte: keys are made for every frame of every context. */
static void field(struct mip_buf *b, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  const char *p = s ? s : "";
  while (*p) {
    size_t plain = strcspn(p, escaped_bytes);
    mip_buf_append(b, p, plain);
    p += plain;
    if (*p) {
      unsigned char c = (unsigned char)*p++;
      char e[3] = {'%', hex[c >> 4], hex[c & 15]};
      mip_buf_append(b, e, 3);
    }
  }
}

static void number(struct mip_buf *b, const char *before, uint32_t n) {
  char digits[16], *at = digits + sizeof digits;
  do
    *--at = (char)('0' + n % 10);
  while (n /= 10);
  text(b, before);
  mip_buf_append(b, at, (size_t)(digits + sizeof digits - at));
}

/* The buffer's bytes as a string, which the caller owns. */
static char *finish(struct mip_buf *b) {
  mip_buf_append(b, "", 1);
  /* No room to spare: a profile has keys by the hundred thousand. */
  return mip_xrealloc(b->data, b->size, 1);
}

static void set(char **key, struct mip_buf *b) {
  free(*key);
  *key = finish(b);
}

/* ---- an index of keys ---------------------------------------------------- */

static uint64_t hash(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  return h;
}

void report_key_index_init(struct report_key_index *x) {
  memset(x, 0, sizeof *x);
}

void report_key_index_free(struct report_key_index *x) {
  free(x->slots);
  memset(x, 0, sizeof *x);
}

/* The slot of key (of hash h): its own, or the empty one it would go
 * to. */
static struct report_key_slot *slot(const struct report_key_index *x,
                                    const char *key, uint64_t h) {
  size_t i = (size_t)h & (x->cap - 1);
  while (x->slots[i].key &&
         (x->slots[i].hash != h || strcmp(x->slots[i].key, key)))
    i = (i + 1) & (x->cap - 1);
  return &x->slots[i];
}

static void grow(struct report_key_index *x) {
  struct report_key_index old = *x;
  x->cap = old.cap ? 2 * old.cap : 1024;
  x->slots = mip_xcalloc(x->cap, sizeof *x->slots);
  for (size_t i = 0; i < old.cap; i++)
    if (old.slots[i].key)
      *slot(x, old.slots[i].key, old.slots[i].hash) = old.slots[i];
  free(old.slots);
}

size_t *report_key_index_get(struct report_key_index *x, const char *key,
                             size_t value, int *found) {
  if (2 * (x->count + 1) > x->cap)
    grow(x);
  uint64_t h = hash(key);
  struct report_key_slot *at = slot(x, key, h);
  *found = at->key != NULL;
  if (!*found) {
    *at = (struct report_key_slot){key, h, value};
    x->count++;
  }
  return &at->value;
}

size_t *report_key_index_find(const struct report_key_index *x,
                              const char *key) {
  if (!x->count)
    return NULL;
  struct report_key_slot *at = slot(x, key, hash(key));
  return at->key ? &at->value : NULL;
}

/* ---- unique fine keys --------------------------------------------------- */

/* Suffixes the second and later of equal keys, in profile order, with
 * "#2", "#3", ...: count of each key kept in an index as they come. */
static void unique_keys(void *base, size_t count, size_t elem,
                        size_t key_offset) {
  struct report_key_index seen;
  report_key_index_init(&seen);
  char **suffixed = mip_xcalloc(count + 1, sizeof *suffixed);
  for (size_t i = 0; i < count; i++) {
    char **key = (char **)((char *)base + i * elem + key_offset);
    int found;
    size_t *times = report_key_index_get(&seen, *key, 1, &found);
    if (found) {
      struct mip_buf b = {0};
      text(&b, *key);
      number(&b, "#", (uint32_t)++*times);
      suffixed[i] = finish(&b);
    }
  }
  /* Replaced once the index, which points to the keys, is done. */
  report_key_index_free(&seen);
  for (size_t i = 0; i < count; i++)
    if (suffixed[i]) {
      char **key = (char **)((char *)base + i * elem + key_offset);
      free(*key);
      *key = suffixed[i];
    }
  free(suffixed);
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

/* A function's name in keys: the profile's key ("unit;name" for a local
 * function, docs/formats.md), its unit named as keys name files. */
static void function_name(const struct report *r,
                          const struct report_function *f, struct mip_buf *b) {
  const struct mip_profile *p = &r->profile;
  if (!f->key_unit || !*f->key_unit) {
    text(b, mip_profile_string(p, p->functions[f->index].key));
    return;
  }
  text(b, f->key_unit);
  text(b, ";");
  text(b, f->name);
}

static void key_function(const struct report *r, struct report_function *f) {
  struct mip_buf name = {0};
  function_name(r, f, &name);
  mip_buf_append(&name, "", 1);
  for (int kind = 0; kind < REPORT_KEYS; kind++) {
    struct mip_buf b = {0};
    place(&b, (enum report_key)kind, (const char *)name.data, f->key_file,
          f->line, NULL);
    set(&f->key[kind], &b);
  }
  mip_buf_free(&name);
}

/* A site's function; for code built without -g, which names none, the
 * function it was compiled into (by its key's name). */
static void key_site(const struct report *r, struct report_site *s) {
  struct mip_buf name = {0};
  if (*s->function)
    text(&name, s->function);
  else
    function_name(r, s->instrumented, &name);
  mip_buf_append(&name, "", 1);
  for (int kind = 0; kind < REPORT_KEYS; kind++) {
    struct mip_buf b = {0};
    field(&b, s->allocator_name);
    text(&b, ":");
    place(&b, (enum report_key)kind, (const char *)name.data, s->key_file,
          s->line, &s->column);
    set(&s->key[kind], &b);
  }
  mip_buf_free(&name);
}

void report_frame_key(struct mip_buf *b, const struct report_frame *f,
                      enum report_key kind) {
  place(b, kind, f->function, f->key_file, f->line, &f->column);
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
      const struct report_frame *f = &r->frames[c->stack[k]];
      if (r->image_frames_only && report_frame_object(f))
        continue;
      text(&b, "|");
      report_frame_key(&b, f, (enum report_key)kind);
    }
    set(&c->key[kind], &b);
  }
}

/* Files first, then functions, sites, and the contexts, whose fine keys
 * hold their sites' (unique) ones. */
void report_key_all(struct report *r) {
  report_key_files(r);
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
  if (!r->image_frames_only)
    unique_keys(r->contexts, r->context_count, sizeof *r->contexts,
                offsetof(struct report_context, key[REPORT_FINE]));
}
