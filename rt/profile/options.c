/*
 * MIP_OPTIONS: colon-separated key=value settings, read once at start-up.
 *   dump_at_exit=0|1  write the profile at exit or dlclose (default 1)
 *   verbose=0|1       one stderr line per profile written (default 0)
 *   pool_*            left to pool mode (pool_wait: merge_options.c), and
 *   heap_*            to the heap runtime (heap_owner.c), which read and
 *                     check them in the images linked with them: others
 *                     ignore them
 * An unknown key or a bad value costs one stderr line and is ignored.
 */
#include <stddef.h>

#include "mip_rt.h"

struct mip_rt_options mip_rt_options = {.dump_at_exit = 1, .verbose = 0};

/* The settings, each 0 or 1: their names, one after the other, and where
 * each goes. Offsets and no pointers: a table of pointers would cost
 * every image a relocation per pointer. */
static const char names[] = "dump_at_exit\0verbose\0";
static const uint8_t settings[] = {
    offsetof(struct mip_rt_options, dump_at_exit),
    offsetof(struct mip_rt_options, verbose),
};

/* Whether key starts with the 5 characters of a mode's prefix ("heap_",
 * "pool_"; a loop: a call to memcmp would be the runtime's one use of
 * it). */
static int mode_key(const char *key, const char *prefix) {
  for (size_t i = 0; i < 5; i++)
    if (key[i] != prefix[i])
      return 0;
  return 1;
}

/* Pool mode's settings: a stand-in for merge_options.c, which pool mode
 * links; without it they mean nothing and say nothing. */
__attribute__((weak)) void mip_rt_pool_option(const char *key,
                                              const char *value, int quiet) {
  (void)key;
  (void)value;
  (void)quiet;
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
    if (value && (*value == '0' || *value == '1') && !value[1])
      *(int *)((char *)&mip_rt_options + settings[i]) = *value - '0';
    else if (!quiet)
      mip_rt_report("MIP_OPTIONS: ", key, " wants 0 or 1, not '",
                    value ? value : "", "' (ignored)");
    return;
  }
  if (mode_key(key, "pool_"))
    mip_rt_pool_option(key, value, quiet);
  else if (!quiet && !mode_key(key, "heap_"))
    mip_rt_report("MIP_OPTIONS: unknown option '", key, "' (ignored)");
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
