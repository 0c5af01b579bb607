/*
 * How keys name files (report.h, docs/report.md "Keys"): relative to the
 * build's root, so that two checkouts of one tree, built in two
 * directories (a CI job's base and pull request), have the same keys.
 *
 * The profile keeps no compilation directory, so the root is found from
 * its names: the deepest directory that holds every file of the
 * profile's own code (its sites, the frames of its image, its functions'
 * declarations and units) but the system's headers and libraries, which the
 * checkout does not hold and which stay absolute in keys. A file outside
 * the root keeps its absolute name. The --path-map rules rename files
 * first, for builds whose layouts differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "report.h"

/* ---- names the model owns --------------------------------------------- */

static const char *keep(struct report *r, char *s) {
  if (r->name_count == r->name_cap) {
    r->name_cap = r->name_cap ? 2 * r->name_cap : 16;
    r->names = mip_xrealloc(r->names, r->name_cap, sizeof *r->names);
  }
  r->names[r->name_count++] = s;
  return s;
}

const char *report_tidy_name(struct report *r, const char *s) {
  /* The names mip_path_tidy changes have one of these (path.h). */
  if (!s || (s[0] != '.' && !strstr(s, "/.") && !strstr(s, "//")))
    return s;
  char *t = mip_xstrdup(s);
  mip_path_tidy(t);
  if (!strcmp(t, s)) {
    free(t);
    return s;
  }
  return keep(r, t);
}

/* ---- --path-map rules ---------------------------------------------------- */

/* name tidied, without a trailing slash but the root's. */
static char *tidy_copy(const char *name, size_t n) {
  char *t = mip_xcalloc(n + 1, 1);
  memcpy(t, name, n);
  mip_path_tidy(t);
  size_t len = strlen(t);
  if (len > 1 && t[len - 1] == '/')
    t[len - 1] = '\0';
  return t;
}

int report_path_map_parse(const char *text, struct report_path_map *m,
                          char *msg, size_t size) {
  const char *eq = strchr(text, '=');
  memset(m, 0, sizeof *m);
  if (!eq || eq == text) {
    snprintf(msg, size, "expects OLD=NEW, OLD a file or directory name");
    return -1;
  }
  m->from = tidy_copy(text, (size_t)(eq - text));
  m->to = *(eq + 1) ? tidy_copy(eq + 1, strlen(eq + 1)) : mip_xstrdup("");
  return 0;
}

void report_path_map_free(struct report_path_map *m) {
  free((char *)m->from);
  free((char *)m->to);
  memset(m, 0, sizeof *m);
}

/* The part of name after dir, when name is dir or under it: "" or
 * "/rest"; NULL else. */
static const char *under(const char *name, const char *dir, size_t n) {
  if (strncmp(name, dir, n))
    return NULL;
  if (name[n] == '/' || name[n] == '\0')
    return name + n;
  return n && dir[n - 1] == '/' ? name + n - 1 : NULL; /* dir is "/" */
}

/* Names already renamed (or not), by the rules of one kind: each file
 * once, though thousands of frames name it, and counted once. */
struct renamer {
  struct report *r;
  int absolute; /* the rules whose OLD is absolute, else relative */
  struct report_key_index done; /* name -> its index in r->names + 1; 0 */
};

/* name renamed by the first rule of the renamer's kind that holds it;
 * name when none does. */
static const char *rename_first(struct renamer *x, const char *name) {
  struct report *r = x->r;
  for (size_t i = 0; i < r->paths->count; i++) {
    const struct report_path_map *m = &r->paths->maps[i];
    const char *rest;
    if ((m->from[0] == '/') != x->absolute ||
        !(rest = under(name, m->from, strlen(m->from))))
      continue;
    if (!*m->to && *rest == '/')
      rest++; /* OLD= takes the directory off */
    size_t n = strlen(m->to), k = strlen(rest);
    char *mapped = mip_xcalloc(n + k + 1, 1);
    memcpy(mapped, m->to, n);
    memcpy(mapped + n, rest, k);
    r->path_hits[i]++;
    return keep(r, mapped);
  }
  return name;
}

static const char *map_name(struct renamer *x, const char *name) {
  if (!name || !x->r->paths || !x->r->paths->count)
    return name;
  int found;
  size_t *at = report_key_index_get(&x->done, name, 0, &found);
  if (!found) {
    const char *mapped = rename_first(x, name);
    *at = mapped == name ? 0 : x->r->name_count;
  }
  return *at ? x->r->names[*at - 1] : name;
}

/* ---- the root -------------------------------------------------------------- */

/* The system's headers and libraries: in no checkout. */
static int system_file(const char *name) {
  static const char *const dirs[] = {
      "/usr/include/", "/usr/lib/",   "/usr/lib64/", "/usr/local/include/",
      "/usr/local/lib/", "/usr/share/", "/lib/",     "/lib64/"};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    if (!strncmp(name, dirs[i], strlen(dirs[i])))
      return 1;
  return 0;
}

/* The deepest common directory of the names offered, as they come. */
struct common_dir {
  const char *dir; /* NULL: no name yet */
  size_t len;      /* dir[0..len): no trailing slash; 0: the root alone */
  const char *last; /* the last name offered (names repeat, interned) */
};

static void offer(struct common_dir *c, const char *name) {
  if (!name || name[0] != '/' || name == c->last || system_file(name))
    return;
  c->last = name;
  if (!c->dir) {
    c->dir = name;
    c->len = (size_t)(strrchr(name, '/') - name);
    return;
  }
  size_t k = 0;
  while (k < c->len && c->dir[k] == name[k])
    k++;
  if (k == c->len && name[k] == '/')
    return;
  while (k > 0 && c->dir[k] != '/')
    k--;
  c->len = k;
}

/* ---- key names ------------------------------------------------------------ */

/* The name of file in keys: renamed by an absolute rule, relative to the
 * root, renamed by a relative rule. */
static const char *key_name(struct renamer x[2], const char *file) {
  const struct report *r = x[0].r;
  const char *name = map_name(&x[1], file);
  size_t n = r->root ? strlen(r->root) : 0;
  if (name && n && !strncmp(name, r->root, n) && name[n] == '/')
    name += n + 1;
  return map_name(&x[0], name);
}

void report_key_files(struct report *r) {
  free(r->root);
  r->root = NULL;
  free(r->path_hits);
  r->path_hits = mip_xcalloc((r->paths ? r->paths->count : 0) + 1,
                             sizeof *r->path_hits);
  struct renamer x[2] = {{r, 0, {0}}, {r, 1, {0}}}; /* relative, absolute */
  /* The root, from the names as absolute rules make them. */
  struct common_dir c = {0};
  for (size_t i = 0; i < r->site_count; i++)
    offer(&c, map_name(&x[1], r->sites[i].file));
  for (size_t i = 0; i < r->frame_count; i++)
    if (!report_frame_object(&r->frames[i]))
      offer(&c, map_name(&x[1], r->frames[i].file));
  for (size_t i = 0; i < r->function_count; i++) {
    offer(&c, map_name(&x[1], r->functions[i].file));
    offer(&c, map_name(&x[1], r->functions[i].unit));
  }
  if (c.dir && c.len) {
    r->root = mip_xcalloc(c.len + 1, 1);
    memcpy(r->root, c.dir, c.len);
  }
  for (size_t i = 0; i < r->site_count; i++)
    r->sites[i].key_file = key_name(x, r->sites[i].file);
  for (size_t i = 0; i < r->frame_count; i++)
    r->frames[i].key_file = key_name(x, r->frames[i].file);
  for (size_t i = 0; i < r->function_count; i++) {
    r->functions[i].key_file = key_name(x, r->functions[i].file);
    r->functions[i].key_unit = key_name(x, r->functions[i].unit);
  }
  report_key_index_free(&x[0].done);
  report_key_index_free(&x[1].done);
}

void report_rekey(struct report *r, const struct report_paths *paths,
                  int image_frames_only) {
  r->paths = paths;
  r->image_frames_only = image_frames_only;
  report_key_all(r);
}
