/* mipdata's subcommands, one source file each, and what they share. */
#ifndef MIPDATA_CMD_H
#define MIPDATA_CMD_H

#include "mipfmt.h"

int cmd_extract(int argc, char **argv);
int cmd_create(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_order(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_dump(int argc, char **argv);

/* "mipdata CMD: <message>" plus a pointer to the help; returns 2. */
int usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints "mipdata: <err->msg>"; returns 1. */
int report(const struct mip_error *err);

#endif
