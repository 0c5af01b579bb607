/*
 * Heap call stacks as text, for show --heap and annotate: one frame a
 * line, the function (demangled) in a column of bounded width, then where
 * the frame is.
 */
#ifndef MIPDATA_FRAME_TEXT_H
#define MIPDATA_FRAME_TEXT_H

#include <stdint.h>
#include <stdio.h>

/* One frame, as the profile has it (mip/layout/profile_heap_frame.inc). */
struct frame_text {
  const char *function; /* linkage name, "" unknown; an outside frame's
                           object */
  const char *file;     /* "" unknown */
  uint32_t line, column, flags;
  const char *object; /* "": the profile's image; else the object a
                         symbolized frame of another image is in */
};

/* The widest function column: a longer name has lines of its own, and
 * its location goes on the next line, where the column ends. C++ names
 * run to thousands of characters: such a name is broken after a ", " (or,
 * when there is none, anywhere) into lines of at most
 * FRAME_TEXT_LINE_WIDTH columns, each after the first indented two more
 * columns, so that the text fits a terminal and the locations stay in
 * one column. */
#define FRAME_TEXT_NAME_WIDTH 40
#define FRAME_TEXT_LINE_WIDTH 100

/* Prints the frames after indent, one a line: the demangled function
 * ("??" unknown), then FILE:LINE:COLUMN (FILE alone without a line, "??"
 * without a file, "(another object)" outside the image), then
 * "  (inlined)" and, for a frame of another image, "  (in OBJECT)". */
void frame_text_print(FILE *out, const char *indent,
                      const struct frame_text *frames, uint32_t count);

#endif
