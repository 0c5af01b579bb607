/*
 * mipdata symbolize --debug BINARY [ADDRESS...]
 * The frames `mipdata merge` gives the code at each link-time address of
 * BINARY, inlined functions expanded, in llvm-symbolizer's layout: per
 * frame, innermost first, the function's linkage name and then
 * FILE:LINE:COLUMN; a blank line after each address ("??" for what is not
 * known). Addresses (hex with 0x, or decimal) come from the arguments, or
 * one per line from standard input. merge looks up a return address minus
 * one, which is inside the call.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "debuginfo.h"

static int print_address(struct debuginfo *di, const char *text) {
  char *end;
  errno = 0;
  uint64_t addr = strtoull(text, &end, 0);
  while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
    end++;
  if (errno || end == text || *end) {
    fprintf(stderr, "mipdata symbolize: '%s' is not an address\n", text);
    return -1;
  }
  const struct mip_frame_info *frames;
  size_t n = debuginfo_frames(di, addr, &frames);
  if (n == 0)
    printf("??\n??:0:0\n");
  for (size_t i = 0; i < n; i++)
    printf("%s\n%s:%" PRIu32 ":%" PRIu32 "\n",
           frames[i].function[0] ? frames[i].function : "??",
           frames[i].file[0] ? frames[i].file : "??", frames[i].line,
           frames[i].column);
  putchar('\n');
  return 0;
}

int cmd_symbolize(int argc, char **argv) {
  static const struct option options[] = {{"debug", required_argument, 0, 'd'},
                                          {0, 0, 0, 0}};
  const char *debug = NULL;
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
    if (c == 'd')
      debug = optarg;
    else
      return usage_error("symbolize", "bad option");
  }
  if (!debug)
    return usage_error("symbolize", "--debug BINARY is required");
  struct mip_error err;
  struct debuginfo *di = debuginfo_open(debug, &err);
  if (!di)
    return report(&err);
  int rc = 0;
  if (optind < argc) {
    for (int i = optind; i < argc && rc == 0; i++)
      rc = print_address(di, argv[i]);
  } else {
    char line[256];
    while (rc == 0 && fgets(line, sizeof line, stdin))
      if (line[0] != '\n')
        rc = print_address(di, line);
  }
  debuginfo_close(di);
  return rc ? 1 : 0;
}
