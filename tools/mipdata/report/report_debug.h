/*
 * The report model and a debug binary: the one place the model meets the
 * debug-info reader (debuginfo.h), so that another reader replaces it
 * here alone.
 */
#ifndef MIPDATA_REPORT_DEBUG_H
#define MIPDATA_REPORT_DEBUG_H

#include "report.h"

/* Checks that the binary at path (or its debug file) is r's build and
 * carries DWARF. With locate, then sets each function's declaration from
 * it (report_locate), after one note on stderr when the program's own
 * code has no debug information (built without -g). */
int report_debug_attach(struct report *r, const char *path, int locate,
                        struct mip_error *err);
/* report_open, then report_debug_attach when debug is given (else NULL);
 * nothing to free on failure. */
int report_open_debug(const char *profile, const char *debug, int locate,
                      struct report *r, struct mip_error *err);

#endif
