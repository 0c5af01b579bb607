/*
 * Allocation wrappers (diff.h): functions that only pass an allocation
 * on (xmalloc, ZSTD_customMalloc, jv_mem_alloc, a program's own make).
 * Every context through one is the same site, "malloc in xmalloc", so a
 * row of the diff is named by the first frame above the wrappers, the
 * caller that differs: "malloc in xmalloc <- grows (prog.c:10)".
 *
 * A wrapper is a function named by --wrapper or in the list below, or a
 * site's function that the site's contexts, on either side, reach from
 * more than one caller. Whether a function returns the block the profile
 * cannot say; a function with one site called from several places is
 * told apart by its caller either way, which is what a reader needs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diff.h"

/* Wrappers of widely used C code, by linkage name. */
const char *const diff_default_wrappers[] = {
    "xmalloc",        "xcalloc",          "xrealloc",        "xstrdup",
    "xstrndup",       "xmemdup",          "xzalloc",         "emalloc",
    "ecalloc",        "erealloc",         "estrdup",         "safe_malloc",
    "safe_calloc",    "safe_realloc",     "g_malloc",        "g_malloc0",
    "g_realloc",      "g_try_malloc",     "g_strdup",        "ZSTD_customMalloc",
    "ZSTD_customCalloc", "jv_mem_alloc",  "jv_mem_alloc_unguarded",
    "jv_mem_calloc",  "jv_mem_realloc",   "jv_mem_strdup",   "luaM_malloc_",
    "luaM_realloc_",  "luaM_growaux_",    "luaM_shrinkvector_",
    "yaml_malloc",    "yaml_realloc",     "yaml_strdup",     "av_malloc",
    "av_mallocz",     "av_realloc",       "PyMem_Malloc",    "PyMem_Calloc",
    "PyMem_Realloc",  "PyObject_Malloc",  "CRYPTO_malloc",   "CRYPTO_zalloc",
    "CRYPTO_realloc", "sqlite3Malloc",    "sqlite3_malloc",  "sqlite3_malloc64",
    "sqlite3DbMallocRaw", "sqlite3DbMallocZero", NULL};

static void add(struct diff_wrappers *w, const char *name) {
  int found;
  report_key_index_get(&w->names, name, 1, &found);
}

/* Whether the site's contexts in r reach its function from more than one
 * caller frame. */
static int called_from_several(const struct report *r,
                               const struct report_site *s) {
  uint32_t caller = UINT32_MAX;
  for (size_t i = 0; i < s->context_count; i++) {
    const struct report_context *c = &r->contexts[s->first_context + i];
    if (c->depth < 2 || strcmp(r->frames[c->stack[0]].function, s->function))
      return 0; /* the site's function is not the leaf of every context */
    if (caller != UINT32_MAX && c->stack[1] != caller)
      return 1;
    caller = c->stack[1];
  }
  return 0;
}

static void detect(struct diff_wrappers *w, const struct report *r) {
  for (size_t i = 0; i < r->site_count; i++) {
    const struct report_site *s = &r->sites[i];
    if (*s->function && s->context_count > 1 && called_from_several(r, s) &&
        !diff_is_wrapper(w, s->function, s->demangled)) {
      add(w, s->function);
      if (w->detected_count < DIFF_WRAPPERS_LISTED)
        w->detected[w->detected_count++] = s->demangled;
      else
        w->more++;
    }
  }
}

void diff_wrappers_find(struct diff_wrappers *w,
                        const struct report *const r[REPORT_SIDES],
                        const struct diff_options *o) {
  memset(w, 0, sizeof *w);
  report_key_index_init(&w->names);
  for (size_t i = 0; diff_default_wrappers[i]; i++)
    add(w, diff_default_wrappers[i]);
  for (size_t i = 0; i < o->wrapper_count; i++)
    add(w, o->wrappers[i]);
  for (int s = 0; s < REPORT_SIDES; s++)
    detect(w, r[s]);
}

void diff_wrappers_free(struct diff_wrappers *w) {
  report_key_index_free(&w->names);
}

int diff_is_wrapper(const struct diff_wrappers *w, const char *name,
                    const char *demangled) {
  return (*name && report_key_index_find(&w->names, name)) ||
         (demangled && *demangled &&
          report_key_index_find(&w->names, demangled));
}

static int frame_is_wrapper(const struct diff_wrappers *w,
                            const struct report_frame *f) {
  return !f->outside && diff_is_wrapper(w, f->function, f->demangled);
}

uint32_t diff_caller_at(const struct diff *d, const struct report *r,
                        const struct report_context *c) {
  uint32_t k = 0;
  while (k < c->depth && frame_is_wrapper(&d->wrappers, &r->frames[c->stack[k]]))
    k++;
  return k < c->depth ? k : 0;
}

/* "f (a.c:3)", "f", or an outside frame's object. */
static size_t frame_text(const struct report_frame *f, char *out,
                         size_t size) {
  const char *name = f->outside ? f->function
                     : *f->demangled ? f->demangled
                                     : "??";
  if (f->key_file && !f->outside)
    return (size_t)snprintf(out, size, "%s (%s:%" PRIu32 ")", name,
                            f->key_file, f->line);
  return (size_t)snprintf(out, size, "%s", name);
}

void diff_site_text(const struct diff *d, const struct report *r,
                    const struct report_context *c, char *out, size_t size) {
  const struct report_site *s = c->site;
  if (!s) {
    snprintf(out, size, "(no site: allocated outside instrumented code)");
    return;
  }
  const char *fn = *s->demangled ? s->demangled : "??";
  uint32_t k = diff_caller_at(d, r, c);
  size_t n = (size_t)snprintf(out, size, "%s in %s", s->allocator_name, fn);
  if (n >= size)
    return;
  if (k) {
    n += (size_t)snprintf(out + n, size - n, " \u2190 ");
    if (n < size)
      frame_text(&r->frames[c->stack[k]], out + n, size - n);
  } else if (s->key_file) {
    snprintf(out + n, size - n, " (%s:%" PRIu32 ")", s->key_file, s->line);
  }
}

void diff_stack_text(const struct report *r, const struct report_context *c,
                     uint32_t frames, char *out, size_t size) {
  size_t n = 0;
  out[0] = '\0';
  for (uint32_t k = 0; k < c->depth && k < frames && n < size; k++) {
    if (k)
      n += (size_t)snprintf(out + n, size - n, " \u2190 ");
    if (n < size)
      n += frame_text(&r->frames[c->stack[k]], out + n, size - n);
  }
  if (c->depth > frames && n < size)
    snprintf(out + n, size - n, " \u2190 \u2026");
}
