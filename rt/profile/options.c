/*
 * MIP_OPTIONS: colon-separated key=value settings, read once at start-up.
 *   dump_at_exit=0|1  write the profile at exit or dlclose (default 1)
 *   verbose=0|1       one stderr line per profile written (default 0)
 *   pool_wait=N       seconds pool mode waits for a pooled file's lock
 *                     (0..3600, default 60; merge.c)
 *   heap_*            left to the heap runtime (heap_owner.c)
 * An unknown key or a bad value costs one stderr line and is ignored.
 */
#include <stddef.h>

#include "mip_rt.h"

struct mip_rt_options mip_rt_options = {
    .dump_at_exit = 1, .verbose = 0, .pool_wait = 60};

/* The settings: their names, one after the other, and where each goes,
 * with its largest value. Offsets and no pointers: a table of pointers
 * would cost every image a relocation per pointer. */
static const char names[] = "dump_at_exit\0verbose\0pool_wait\0";
static const struct {
  uint8_t offset;
  uint16_t max; /* values are 0..max */
} settings[] = {
    {offsetof(struct mip_rt_options, dump_at_exit), 1},
    {offsetof(struct mip_rt_options, verbose), 1},
    {offsetof(struct mip_rt_options, pool_wait), 3600},
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

/* Whether key starts with "heap_" (a loop: a call to memcmp would be
 * the runtime's one use of it). */
static int heap_key(const char *key) {
  static const char prefix[] = "heap_";
  for (size_t i = 0; i < sizeof prefix - 1; i++)
    if (key[i] != prefix[i])
      return 0;
  return 1;
}

/* One "key=value" item, a copy the '=' of which becomes the key's end. */
static void set(char *key, int quiet) {
  char *value = key;
  while (*value && *value != '=')
    value++;
  value = *value ? (*value = '\0', value + 1) : NULL;
  const char *name = names;
  for (size_t i = 0; *name; i++, name += mip_rt_strlen(name) + 1) {
    if (!mip_rt_streq(key, name))
      continue;
    int n = number(value, settings[i].max);
    if (n >= 0)
      *(int *)((char *)&mip_rt_options + settings[i].offset) = n;
    else if (!quiet)
      mip_rt_report("MIP_OPTIONS: ", key,
                    settings[i].max == 1 ? " wants 0 or 1" : " wants 0 to 3600",
                    ", not '", value ? value : "", "' (ignored)", NULL);
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
    char item[128];
    size_t length = 0;
    for (; text[length] && text[length] != ':'; length++)
      if (length < sizeof item - 1)
        item[length] = text[length];
    item[length < sizeof item - 1 ? length : sizeof item - 1] = '\0';
    if (length)
      set(item, quiet);
    text += length;
    if (*text == ':')
      text++;
  }
}
