/*
 * mipdata create -p OUT.mip MAP
 * A new indexed profile with every function of the map and no runs yet.
 * MAP is a .mipmap from `mipdata extract` or a section dumped with
 * `llvm-objcopy --dump-section=.debug_mip=FILE` (then without build-id).
 */
#include "cmd.h"

int cmd_create(int argc, char **argv) {
  const char *out = NULL;
  struct opt options[] = {
      OPT_PROFILE(&out, "the profile to create"),
      OPT_END,
  };
  struct cli cli = {.command = "create", .operands = "MAP", .noun = "map file",
                    .min = 1, .max = 1, .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  struct mip_error err;
  struct mip_map map;
  if (mip_mapfile_read(cli.operand[0], &map, &err)) {
    mip_map_free(&map);
    return report(&err);
  }
  struct mip_profile profile;
  mip_profile_from_map(&map, &profile);
  struct mip_buf bytes = {0};
  mip_profile_encode(&profile, &bytes);
  output_file(out, &bytes);
  mip_profile_free(&profile);
  mip_map_free(&map);
  return 0;
}
