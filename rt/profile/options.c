/*
 * MIP_OPTIONS: colon-separated key=value settings, read once at start-up.
 *   dump_at_exit=0|1  write the profile at exit or dlclose (default 1)
 *   verbose=0|1       one stderr line per profile written (default 0)
 *   pool_wait=N       seconds pool mode waits for a pooled file's lock
 *                     (0..3600, default 60; merge.c)
 *   heap_*            left to the heap runtime (heap_owner.c)
 * An unknown key or a bad value costs one stderr line and is ignored.
 */
#include "mip_rt.h"

struct mip_rt_options mip_rt_options = {
    .dump_at_exit = 1, .verbose = 0, .pool_wait = 60};

struct option {
  const char *key;
  int *value;
  int max; /* values are 0..max */
};

/* v as a number of 0..max, or -1. */
static int number(const char *v, int max) {
  int n = 0;
  if (!v || !*v)
    return -1;
  for (; *v; v++) {
    if (*v < '0' || *v > '9' || n > max)
      return -1;
    n = n * 10 + (*v - '0');
  }
  return n <= max ? n : -1;
}

/* Copies the item's key into key[] and returns its value (after '='),
 * or NULL when it has no '='. */
static const char *split(const char *item, size_t length, char *key,
                         size_t size, char *value, size_t value_size) {
  size_t eq = 0;
  while (eq < length && item[eq] != '=')
    eq++;
  size_t k = 0;
  for (size_t i = 0; i < eq && k + 1 < size; i++)
    key[k++] = item[i];
  key[k] = '\0';
  if (eq == length)
    return NULL;
  size_t v = 0;
  for (size_t i = eq + 1; i < length && v + 1 < value_size; i++)
    value[v++] = item[i];
  value[v] = '\0';
  return value;
}

/* Whether key starts with "heap_" (a loop: a call to memcmp would be
 * the runtime's one use of it). */
static int heap_key(const char *key) {
  static const char prefix[] = "heap_";
  for (size_t i = 0; i < sizeof prefix - 1; i++)
    if (key[i] != prefix[i])
      return 0;
  return 1;
}

static void set(const char *item, size_t length, int quiet) {
  const struct option options[] = {
      {"dump_at_exit", &mip_rt_options.dump_at_exit, 1},
      {"verbose", &mip_rt_options.verbose, 1},
      {"pool_wait", &mip_rt_options.pool_wait, 3600},
  };
  char key[64], value[64];
  const char *v = split(item, length, key, sizeof key, value, sizeof value);
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
    if (!mip_rt_streq(key, options[i].key))
      continue;
    int n = number(v, options[i].max);
    if (n >= 0)
      *options[i].value = n;
    else if (!quiet)
      mip_rt_report("MIP_OPTIONS: ", key,
                    options[i].max == 1 ? " wants 0 or 1" : " wants 0 to 3600",
                    ", not '", v ? v : "", "' (ignored)", NULL);
    return;
  }
  /* heap_* settings belong to the heap runtime (heap_owner.c), which
   * reads and checks them itself in the images built with heap mode. */
  if (!quiet && !heap_key(key))
    mip_rt_report("MIP_OPTIONS: unknown option '", key, "' (ignored)", NULL);
}

void mip_rt_options_parse(const char *text, int quiet) {
  if (!text)
    return;
  while (*text) {
    size_t length = 0;
    while (text[length] && text[length] != ':')
      length++;
    if (length)
      set(text, length, quiet);
    text += length;
    if (*text == ':')
      text++;
  }
}
