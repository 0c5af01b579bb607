/*
 * mipdata symbolize --debug BINARY [ADDRESS...]
 * The frames `mipdata merge` gives the code at each link-time address of
 * BINARY, inlined functions expanded, in llvm-symbolizer's layout: per
 * frame, innermost first, the function's linkage name and then
 * FILE:LINE:COLUMN; a blank line after each address ("??" for what is not
 * known). Addresses (hex with 0x, or decimal) come from the arguments, or
 * one per line from standard input. merge looks up a return address minus
 * one, which is inside the call. A bad address fails the command, and
 * then nothing is printed (output.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "debuginfo.h"
#include "escape.h"

/* An address as the arguments and standard input give it: hex with 0x,
 * or decimal, then nothing but white space. */
static int parse_address(const char *text, uint64_t *addr) {
  char *end;
  errno = 0;
  *addr = strtoull(text, &end, 0);
  while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
    end++;
  return errno || end == text || *end ? -1 : 0;
}

static void print_address(struct debuginfo *s, uint64_t addr) {
  const struct mip_frame_info *frames;
  size_t n = debuginfo_frames(s, addr, &frames);
  if (n == 0)
    printf("??\n??:0:0\n");
  for (size_t i = 0; i < n; i++)
    printf("%s\n%s:%" PRIu32 ":%" PRIu32 "\n",
           frames[i].function[0] ? text_safe(frames[i].function) : "??",
           frames[i].file[0] ? text_safe(frames[i].file) : "??", frames[i].line,
           frames[i].column);
  putchar('\n');
}

/* One address a line; a line that is none fails the command. */
static int symbolize_stdin(struct debuginfo *s, struct mip_error *err) {
  char line[256];
  uint64_t addr;
  for (unsigned number = 1; fgets(line, sizeof line, stdin); number++) {
    if (line[0] == '\n')
      continue;
    if (parse_address(line, &addr))
      return mip_fail(err, "stdin", "line %u: '%.*s' is not an address",
                      number, (int)strcspn(line, "\r\n"), line);
    print_address(s, addr);
  }
  return 0;
}

int cmd_symbolize(int argc, char **argv) {
  const char *debug = NULL, *report_path = NULL;
  struct opt options[] = {
      OPT_NEEDED(OPT_DEBUG(&debug, "the binary (unstripped) or its debug "
                                   "file")),
      OPT_REPORT(&report_path),
      OPT_END,
  };
  struct cli cli = {.command = "symbolize", .operands = "[ADDRESS...]",
                    .noun = "address", .min = 0, .max = -1,
                    .options = options};
  int rc = cli_parse(&cli, argc, argv);
  if (rc != CLI_GO_ON)
    return rc;
  uint64_t *addrs = mip_xcalloc((size_t)cli.operand_count + 1, sizeof *addrs);
  for (int i = 0; i < cli.operand_count; i++)
    if (parse_address(cli.operand[i], &addrs[i])) {
      free(addrs);
      return cli_error(&cli, "'%s' is not an address", cli.operand[i]);
    }
  struct mip_error err;
  struct debuginfo *s = debuginfo_open(debug, &err);
  rc = s ? 0 : -1;
  for (int i = 0; s && i < cli.operand_count; i++)
    print_address(s, addrs[i]);
  if (s && !cli.operand_count)
    rc = symbolize_stdin(s, &err);
  debuginfo_close(s);
  free(addrs);
  return rc ? report(&err) : 0;
}
