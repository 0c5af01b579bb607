/*
 * mipdata export: a profile in another tool's format. Each format is one
 * writer (export_FORMAT.c) that reads the report model (report.h) and
 * the metrics of report_metric.h and writes its file on the stream it is
 * given; cmd_export.c lists them in a table. A writer first checks that
 * the profile has what its format carries and fails, with one line and
 * before it writes anything, when it has not (docs/mipdata.md#export).
 */
#ifndef MIPDATA_EXPORT_H
#define MIPDATA_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "intern.h"
#include "mipfmt.h"
#include "report.h"
#include "report_metric.h"

struct export_input {
  const struct report *r;
  const char *debug; /* the --debug binary, NULL when none */
  enum report_metric metric; /* --metric: the one metric of folded stacks */
};

/* Writes in->r to out; 0, or -1 with err set ("PROFILE: ..."). */
typedef int (*export_writer)(const struct export_input *in, FILE *out,
                             struct mip_error *err);

int export_pprof(const struct export_input *in, FILE *out,
                 struct mip_error *err);
int export_dhat(const struct export_input *in, FILE *out,
                struct mip_error *err);
int export_lcov(const struct export_input *in, FILE *out,
                struct mip_error *err);
int export_cobertura(const struct export_input *in, FILE *out,
                     struct mip_error *err);
int export_speedscope(const struct export_input *in, FILE *out,
                      struct mip_error *err);
int export_callgrind(const struct export_input *in, FILE *out,
                     struct mip_error *err);
/* folded.c's stacks, of in->metric. */
int export_folded(const struct export_input *in, FILE *out,
                  struct mip_error *err);

/* ---- what the writers share (export_util.c) ------------------------- */

/* Distinct strings, each with a dense id in the order first seen; id 0
 * is the empty string. Tables of names, frames, stacks. */
struct export_names {
  struct mip_buf strings;
  struct mip_interner in; /* over strings: keep the struct in place */
  uint32_t *id_of;        /* by offset in strings: id + 1, 0 none */
  size_t id_of_cap;
  uint32_t *offset_of; /* by id */
  size_t count, cap;
};

void export_names_init(struct export_names *n);
void export_names_free(struct export_names *n);
/* s's id, added when new (*added set to 1 then, when added not NULL). */
uint32_t export_name_id(struct export_names *n, const char *s, int *added);
const char *export_name(const struct export_names *n, uint32_t id);

/* printf into b (emptied first), as long as it takes; b's text. For keys
 * and names that must not be cut, whatever the length of C++ names. */
const char *export_format(struct mip_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A frame's function for people: demangled, the object of an outside
 * frame, "??" unknown. */
const char *export_frame_function(const struct report_frame *f);
/* A function's source file: its declaration from the debug binary, a
 * static function's unit; NULL when unknown. */
const char *export_function_file(const struct report_function *f);

/* Whether the profile has heap contexts to export (the filters kept some). */
int export_has_heap(const struct report *r);
/* Fails unless it has: "PATH: no heap data to export as FORMAT: WHY"
 * (report_no_heap_reason, or that its runs or the filters left no
 * context). */
int export_need_heap(const struct report *r, const char *format,
                     struct mip_error *err);
/* Fails unless it has heap contexts or call counts, saying why neither. */
int export_need_heap_or_calls(const struct report *r, const char *format,
                              struct mip_error *err);
/* Fails unless every function has a source file (a --debug binary). */
int export_need_files(const struct export_input *in, const char *format,
                      struct mip_error *err);

#endif
