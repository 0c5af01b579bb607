/* mipdata's subcommands, one source file each, and what they share. */
#ifndef MIPDATA_CMD_H
#define MIPDATA_CMD_H

#include "message.h"
#include "mipfmt.h"
#include "options.h"
#include "output.h"

int cmd_extract(int argc, char **argv);
int cmd_create(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_order(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_diff(int argc, char **argv);

#endif
