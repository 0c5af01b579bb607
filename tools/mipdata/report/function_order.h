/*
 * Function placement for `mipdata order`: which functions of a profile go
 * where in a symbol ordering file. Start-up functions first, by first-call
 * order; then the hot ones, clustered by call edges (C3); then the rest of
 * the called ones; never-called ones last. docs/order.md gives the rules.
 * No I/O here: the command reads the profile and writes the files.
 */
#ifndef MIPDATA_FUNCTION_ORDER_H
#define MIPDATA_FUNCTION_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "mipfmt.h"

enum order_group {
  ORDER_STARTUP, /* called, not hot, among the first --startup ranked */
  ORDER_HOT,     /* the most-called functions that make --hot-share */
  ORDER_WARM,    /* called, neither start-up nor hot */
  ORDER_COLD,    /* never called */
  ORDER_GROUPS
};

struct order_options {
  double hot_share;       /* 0..1: share of all calls the hot set covers */
  uint64_t cluster_size;  /* bytes: C3 does not grow a cluster beyond it */
  uint64_t startup_limit; /* ranked functions that count as start-up */
};

#define ORDER_DEFAULT_CLUSTER_SIZE 4096
#define ORDER_NO_LIMIT UINT64_MAX

/* Why hot functions are not clustered. */
enum order_fallback {
  ORDER_CLUSTERED = 0,
  ORDER_NO_EDGES, /* profile without call edges */
  ORDER_NO_SIZES, /* profile without the image's function symbols */
};

struct order_entry {
  uint32_t function; /* index into profile->functions */
  enum order_group group;
  uint32_t cluster; /* hot: 1-based cluster in placement order; else 0 */
  uint64_t calls;   /* 0 when not counted */
  uint64_t size;    /* bytes of its symbol; 0 when unknown */
  /* Line of the output file that names it (1-based), or 0 when an
   * earlier function of the same name (a static one) already did. */
  size_t line;
};

struct order_result {
  struct order_entry *entries; /* every function once, in placement order */
  size_t count;
  size_t lines; /* distinct names: lines of the output file */
  size_t group_count[ORDER_GROUPS];
  size_t clusters;
  int ranked; /* start-up and warm functions placed by first-call order */
  /* ORDER_CLUSTERED: hot functions clustered by call edges; else why
   * they are placed by calls instead. */
  enum order_fallback clustering;
};

/* Places every function of p. p must have call counts. */
void order_functions(const struct mip_profile *p,
                     const struct order_options *options,
                     struct order_result *result);
void order_result_free(struct order_result *result);

const char *order_group_name(enum order_group group);

/* Bytes of the function symbol at entry; 0 when the image has none. */
uint64_t order_symbol_size(const struct mip_profile *p, uint64_t entry);

#endif
