/*
 * mipdata merge -p PROFILE.mip INPUT...
 * Adds runs to an indexed profile: raw profiles written by instrumented
 * programs, or other indexed profiles of the same build. All inputs are
 * checked before anything is written; on any error the profile is left as
 * it was. Merging only adds, so the order of inputs does not matter.
 */
#include <getopt.h>

#include "cmd.h"

static int add_input(struct mip_profile *p, const char *p_path,
                     const char *path, struct mip_error *err) {
  struct mip_file probe;
  if (mip_file_read(path, &probe, err))
    return -1;
  uint64_t magic = mip_file_magic(&probe);
  mip_file_free(&probe);
  if (magic == MIP_PROFILE_MAGIC) {
    struct mip_profile other;
    int rc = mip_profile_read(path, &other, err) ||
             mip_profile_add_profile(p, p_path, &other, path, err);
    mip_profile_free(&other);
    return rc ? -1 : 0;
  }
  /* Anything else must be a raw profile; its reader says what is wrong. */
  struct mip_raw raw;
  int rc = mip_raw_read(path, &raw, err) ||
           mip_profile_add_raw(p, p_path, &raw, path, err);
  mip_raw_free(&raw);
  return rc ? -1 : 0;
}

int cmd_merge(int argc, char **argv) {
  static const struct option options[] = {
      {"profile", required_argument, 0, 'p'}, {0, 0, 0, 0}};
  const char *profile_path = NULL;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "p:", options, NULL)) != -1) {
    if (c == 'p')
      profile_path = optarg;
    else
      return usage_error("merge", "bad option");
  }
  if (!profile_path)
    return usage_error("merge", "-p PROFILE is required");
  if (optind >= argc)
    return usage_error("merge", "expects at least one input");

  struct mip_error err;
  struct mip_profile profile;
  int rc = mip_profile_read(profile_path, &profile, &err);
  for (int i = optind; rc == 0 && i < argc; i++)
    rc = add_input(&profile, profile_path, argv[i], &err);
  if (rc == 0)
    rc = mip_profile_write(profile_path, &profile, &err);
  mip_profile_free(&profile);
  return rc ? report(&err) : 0;
}
