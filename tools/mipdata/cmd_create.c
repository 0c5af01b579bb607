/*
 * mipdata create -p OUT.mip MAP
 * A new indexed profile with every function of the map and no runs yet.
 * MAP is a .mipmap from `mipdata extract` or a section dumped with
 * `llvm-objcopy --dump-section=.debug_mip=FILE` (then without build-id).
 */
#include <getopt.h>

#include "cmd.h"

int cmd_create(int argc, char **argv) {
  static const struct option options[] = {
      {"profile", required_argument, 0, 'p'}, {0, 0, 0, 0}};
  const char *out = NULL;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "p:o:", options, NULL)) != -1) {
    if (c == 'p' || c == 'o')
      out = optarg;
    else
      return usage_error("create", "bad option");
  }
  if (!out)
    return usage_error("create", "-p PROFILE is required");
  if (optind != argc - 1)
    return usage_error("create", "expects one map file");

  struct mip_error err;
  struct mip_map map;
  if (mip_mapfile_read(argv[optind], &map, &err)) {
    mip_map_free(&map);
    return report(&err);
  }
  struct mip_profile profile;
  mip_profile_from_map(&map, &profile);
  int rc = mip_profile_write(out, &profile, &err) ? report(&err) : 0;
  mip_profile_free(&profile);
  mip_map_free(&map);
  return rc;
}
