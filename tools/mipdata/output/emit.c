/* One writer for YAML and JSON (see emit.h). */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "escape.h"
#include "mipfmt.h"
#include "text_name.h"

int emit_parse_format(const char *name, enum emit_format *out) {
  static const char *const names[] = {"text", "yaml", "json"};
  for (int i = 0; i < 3; i++)
    if (strcmp(name, names[i]) == 0) {
      *out = (enum emit_format)i;
      return 0;
    }
  return -1;
}

static void indent(struct emitter *e, int levels) {
  for (int i = 0; i < levels; i++)
    fputs("  ", e->out);
}

/* Writes what comes before a member: separators, indentation, the key.
 * container says whether the member itself opens an object or array. */
static void member_prefix(struct emitter *e, const char *key, int container) {
  int d = e->depth;
  int first = !e->has_member[d];
  e->has_member[d] = 1;
  if (e->format == EMIT_JSON) {
    fputs(first ? "\n" : ",\n", e->out);
    indent(e, d + 1);
    if (key) {
      escape_json(e->out, key);
      fputs(": ", e->out);
    }
    return;
  }
  /* YAML */
  if (e->yaml_open_line[d]) { /* the container's key line is still open */
    fputc('\n', e->out);
    e->yaml_open_line[d] = 0;
  }
  if (!key) { /* array item */
    indent(e, d);
    fputs("-", e->out);
    if (container)
      e->yaml_item_pending = 1;
    else
      fputc(' ', e->out);
    return;
  }
  if (e->yaml_item_pending) {
    fputc(' ', e->out);
    e->yaml_item_pending = 0;
  } else {
    indent(e, d);
  }
  fputs(key, e->out);
  fputs(container ? ":" : ": ", e->out);
}

static void open_container(struct emitter *e, const char *key, int array) {
  if (e->depth + 1 >= EMIT_MAX_DEPTH) {
    fputs("mipdata: output nested too deeply\n", stderr);
    abort();
  }
  member_prefix(e, key, 1);
  if (e->format == EMIT_JSON)
    fputc(array ? '[' : '{', e->out);
  e->depth++;
  e->is_array[e->depth] = (unsigned char)array;
  e->has_member[e->depth] = 0;
  /* YAML: an object inside an array starts on the "- " line; anything
   * else on the line after its key, once it turns out not to be empty. */
  e->yaml_open_line[e->depth] =
      e->format == EMIT_YAML && !e->yaml_item_pending;
}

static void close_container(struct emitter *e, int array) {
  int had = e->has_member[e->depth];
  e->depth--;
  if (e->format == EMIT_JSON) {
    if (had) {
      fputc('\n', e->out);
      indent(e, e->depth + 1);
    }
    fputc(array ? ']' : '}', e->out);
    return;
  }
  if (!had) { /* YAML empty container: flow style */
    e->yaml_open_line[e->depth + 1] = 0;
    e->yaml_item_pending = 0;
    fputs(array ? " []\n" : " {}\n", e->out);
  }
}

void emit_begin(struct emitter *e, FILE *out, enum emit_format format) {
  memset(e, 0, sizeof *e);
  e->out = out;
  e->format = format;
  if (format == EMIT_JSON)
    fputc('{', out);
  else
    fputs("---\n", out);
  /* Members of the document are at depth 0. */
}

void emit_end(struct emitter *e) {
  if (e->format == EMIT_JSON)
    fputs(e->has_member[0] ? "\n}\n" : "}\n", e->out);
  else
    fputs("...\n", e->out);
}

void emit_object_begin(struct emitter *e, const char *key) {
  open_container(e, key, 0);
}
void emit_object_end(struct emitter *e) { close_container(e, 0); }
void emit_array_begin(struct emitter *e, const char *key) {
  open_container(e, key, 1);
}
void emit_array_end(struct emitter *e) { close_container(e, 1); }

static void scalar_end(struct emitter *e) {
  if (e->format == EMIT_YAML)
    fputc('\n', e->out);
}

void emit_string(struct emitter *e, const char *key, const char *value) {
  member_prefix(e, key, 0);
  escape_json(e->out, value);
  scalar_end(e);
}

void emit_u64(struct emitter *e, const char *key, uint64_t value) {
  member_prefix(e, key, 0);
  fprintf(e->out, "%llu", (unsigned long long)value);
  scalar_end(e);
}

void emit_u64_list(struct emitter *e, const char *key, const uint64_t *values,
                   size_t n) {
  member_prefix(e, key, 0);
  fputc('[', e->out);
  for (size_t i = 0; i < n; i++)
    fprintf(e->out, i ? ", %llu" : "%llu", (unsigned long long)values[i]);
  fputc(']', e->out);
  scalar_end(e);
}

void emit_double(struct emitter *e, const char *key, double value) {
  member_prefix(e, key, 0);
  fprintf(e->out, "%.6g", value);
  scalar_end(e);
}

void emit_number(struct emitter *e, const char *key, double value) {
  member_prefix(e, key, 0);
  fprintf(e->out, "%.15g", value == 0 ? 0 : value); /* never -0 */
  scalar_end(e);
}

void emit_bool(struct emitter *e, const char *key, int value) {
  member_prefix(e, key, 0);
  fputs(value ? "true" : "false", e->out);
  scalar_end(e);
}

void emit_null(struct emitter *e, const char *key) {
  member_prefix(e, key, 0);
  fputs("null", e->out);
  scalar_end(e);
}

void emit_string_or_null(struct emitter *e, const char *key,
                         const char *value) {
  if (value)
    emit_string(e, key, value);
  else
    emit_null(e, key);
}

/* ---- text tables ---------------------------------------------------- */

void table_init(struct table *t, int columns, const char *const *heading) {
  memset(t, 0, sizeof *t);
  t->columns = columns;
  for (int i = 0; i < columns; i++)
    t->heading[i] = heading[i];
}

void table_add(struct table *t, const char *const *cells) {
  if (t->rows == t->cap)
    t->cells = mip_xrealloc(t->cells, (t->cap = t->cap ? 2 * t->cap : 64) *
                                          (size_t)t->columns,
                            sizeof *t->cells);
  for (int i = 0; i < t->columns; i++)
    t->cells[t->rows * (size_t)t->columns + (size_t)i] =
        mip_xstrdup(cells[i] ? text_safe(cells[i]) : "");
  t->rows++;
}

/* brk[i]: column i is one of names that are broken (text_name.h). */
static void print_row(const struct table *t, FILE *out,
                      const char *const *cells, const size_t *width,
                      const int *brk) {
  size_t column = 0; /* where the line so far ends */
  for (int i = 0; i < t->columns; i++) {
    int last = i == t->columns - 1;
    int w = (int)width[i];
    if (brk[i] && last) { /* no padding: broken only past the edge */
      text_name_lines(out, column, cells[i]);
      return;
    }
    if (brk[i] && strlen(cells[i]) > width[i]) {
      text_name_lines(out, column, cells[i]);
      fprintf(out, "%*s", (int)column + w, ""); /* the next line */
    } else if (t->right_align[i])
      fprintf(out, "%*s", w, cells[i]);
    else if (last)
      fputs(cells[i], out);
    else
      fprintf(out, "%-*s", w, cells[i]);
    fputs(last ? "\n" : "  ", out);
    column += width[i] + 2;
  }
}

void table_print(const struct table *t, FILE *out) {
  size_t width[TABLE_MAX_COLUMNS] = {0}, cell[TABLE_MAX_COLUMNS] = {0};
  int brk[TABLE_MAX_COLUMNS] = {0};
  for (size_t r = 0; r < t->rows; r++)
    for (int i = 0; i < t->columns; i++) {
      size_t n = strlen(t->cells[r * (size_t)t->columns + (size_t)i]);
      if (n > cell[i])
        cell[i] = n;
    }
  for (int i = 0; i < t->columns; i++) {
    /* Names that all fit a line (C's, most C++ programs') keep the
     * column as wide as the longest. */
    brk[i] = t->names[i] && cell[i] > TEXT_LINE_WIDTH;
    width[i] = brk[i] ? text_name_width(cell[i]) : cell[i];
    if (strlen(t->heading[i]) > width[i])
      width[i] = strlen(t->heading[i]);
  }
  print_row(t, out, t->heading, width, brk);
  for (size_t r = 0; r < t->rows; r++)
    print_row(t, out, (const char *const *)&t->cells[r * (size_t)t->columns],
              width, brk);
}

void table_free(struct table *t) {
  for (size_t i = 0; i < t->rows * (size_t)t->columns; i++)
    free(t->cells[i]);
  free(t->cells);
  t->cells = NULL;
  t->rows = t->cap = 0;
}
