/*
 * The report model as text, for people: what several commands print the
 * same way. Heap call stacks are one frame a line, the function
 * (demangled) in a column of bounded width (text_name.h), then where the
 * frame is.
 */
#ifndef MIPDATA_REPORT_TEXT_H
#define MIPDATA_REPORT_TEXT_H

#include <stdio.h>

#include "report.h"

/* "s" when n is not 1. */
const char *report_plural(uint64_t n);

/* Why r has no heap data (r->has_heap is 0), as what follows "no heap
 * data: ", from what the profile knows: whether its map has allocation
 * sites (an image built with heap whose own code calls no allocator has
 * none, as has one built without), then whether runs were merged (merge
 * refuses a run with heap data without --debug, so a run merged had
 * none). Every command that finds no heap data says so with it. */
const char *report_no_heap_reason(const struct report *r);

/* "Profile PATH: build-id ID, N runs". */
void report_text_header(FILE *out, const struct report *r);

/* The frames of c, leaf first, after indent, one a line: the demangled
 * function ("??" unknown), then FILE:LINE:COLUMN (FILE alone without a
 * line, "??" without a file, "(another object)" outside the image), then
 * "  (inlined)" and, for a frame of another image, "  (in OBJECT)"; then
 * "... (stack truncated)" when the runtime cut the stack. */
void report_text_frames(FILE *out, const char *indent, const struct report *r,
                        const struct report_context *c);

#endif
