/*
 * Folded stacks, the text flamegraph.pl, inferno and speedscope read: one
 * line per heap context, its frames root first separated by ';', a space
 * and the context's value of one metric (report_metric.h). `mipdata
 * flamegraph --format folded` writes it, and so can any other command
 * that exports a report.
 */
#ifndef MIPDATA_FOLDED_H
#define MIPDATA_FOLDED_H

#include <stdio.h>

#include "report.h"
#include "report_metric.h"

/* Writes every context of r, in profile order, with its amount of m: the
 * metric's MemInfoBlock field summed, a whole number, as the tools want.
 * For a sum metric that is its value; for a mean metric (lifetime,
 * density) the field in its own unit (milliseconds, hundredths), which
 * adds up along a stack as the tools expect and which divided by the
 * allocations gives the mean. A frame is its demangled function ("??"
 * unknown), ';' and control bytes in it written '_'. Returns 0, or -1 when
 * out failed. */
int folded_write(const struct report *r, enum report_metric m, FILE *out);

#endif
