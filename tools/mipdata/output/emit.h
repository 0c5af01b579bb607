/*
 * Structured output for every mipdata command: one writer that speaks YAML
 * and JSON, so commands describe what they print (objects, arrays,
 * fields) and never format it themselves. Text output, meant for people,
 * goes through the table helpers below.
 */
#ifndef MIPDATA_EMIT_H
#define MIPDATA_EMIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum emit_format { EMIT_TEXT, EMIT_YAML, EMIT_JSON };

/* Parses "text", "yaml" or "json"; -1 if none of them. */
int emit_parse_format(const char *name, enum emit_format *out);

#define EMIT_MAX_DEPTH 32

struct emitter {
  FILE *out;
  enum emit_format format;
  int depth;
  /* Per open container: is it an array, has it got a member yet. */
  unsigned char is_array[EMIT_MAX_DEPTH];
  unsigned char has_member[EMIT_MAX_DEPTH];
  /* YAML: a container whose key line awaits its newline. */
  unsigned char yaml_open_line[EMIT_MAX_DEPTH];
  /* YAML: the next mapping key goes on the "- " line of an array item. */
  int yaml_item_pending;
};

/* The document is itself an object. */
void emit_begin(struct emitter *e, FILE *out, enum emit_format format);
void emit_end(struct emitter *e);

/* key is NULL for members of an array. */
void emit_object_begin(struct emitter *e, const char *key);
void emit_object_end(struct emitter *e);
void emit_array_begin(struct emitter *e, const char *key);
void emit_array_end(struct emitter *e);
/* Strings are escaped as escape.h's escape_json says: valid JSON, valid
 * YAML and valid UTF-8, whatever bytes they hold. */
void emit_string(struct emitter *e, const char *key, const char *value);
void emit_u64(struct emitter *e, const char *key, uint64_t value);
/* An array of numbers on one line, "[1, 2, 3]" (JSON, and YAML's flow
 * style): for long lists of small numbers, such as stacks of frame ids. */
void emit_u64_list(struct emitter *e, const char *key, const uint64_t *values,
                   size_t n);
void emit_double(struct emitter *e, const char *key, double value);
/* A finite value to 15 significant digits: totals and changes that must
 * not round (emit_double keeps 6). */
void emit_number(struct emitter *e, const char *key, double value);
void emit_bool(struct emitter *e, const char *key, int value);
void emit_null(struct emitter *e, const char *key);
/* A string, or null when value is NULL. */
void emit_string_or_null(struct emitter *e, const char *key,
                         const char *value);

/* ---- text tables ---------------------------------------------------- */

#define TABLE_MAX_COLUMNS 8

/* Columns as wide as their widest cell, two spaces apart, the last one
 * unpadded. A column of function names with one longer than a line
 * (TEXT_LINE_WIDTH: C++ templates) is at most TEXT_NAME_WIDTH wide, a
 * longer name on lines of its own and the row's next cells on the line
 * after, in their columns (text_name.h); as the last column, it is broken
 * only where it would pass TEXT_LINE_WIDTH. A column of names that all
 * fit a line is laid out as any other. */
struct table {
  int columns;
  const char *heading[TABLE_MAX_COLUMNS];
  int right_align[TABLE_MAX_COLUMNS];
  int names[TABLE_MAX_COLUMNS]; /* a column of function names */
  char **cells; /* rows * columns, owned */
  size_t rows, cap;
};

void table_init(struct table *t, int columns, const char *const *heading);
/* Adds a row; the cells are copied. */
void table_add(struct table *t, const char *const *cells);
void table_print(const struct table *t, FILE *out);
void table_free(struct table *t);

#endif
