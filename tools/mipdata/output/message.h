/*
 * Every line mipdata prints on stderr, in one form. Problems with a file
 * or with the command's work, notes and warnings start "mipdata: ";
 * problems with the command line start "mipdata COMMAND: " and are
 * followed by a line pointing to the command's help.
 */
#ifndef MIPDATA_MESSAGE_H
#define MIPDATA_MESSAGE_H

#include "mipfmt.h"

/* "mipdata: <err->msg>"; returns 1, the status of a failed command. */
int report(const struct mip_error *err);
/* "mipdata: PATH: note: <message>": something the reader should know,
 * the command goes on. */
void note(const char *path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "mipdata: warning: <message>": something was left out. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "mipdata CMD: <message>", then "Try 'mipdata CMD --help'."; returns 2,
 * the status of a usage error. */
int usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
