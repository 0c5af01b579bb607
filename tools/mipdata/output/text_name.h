/*
 * Function names in columns of text, for people: what every table and
 * call stack of mipdata's text output does with a name too long for its
 * column. C++ names run to thousands of characters: a column of names is
 * as wide as the longest, but at most TEXT_NAME_WIDTH (in a table, once
 * one is longer than a line: emit.h); a longer name has
 * lines of its own, broken after a ", " (else after a '<' or '(', else
 * before a "::", else anywhere) into lines of at most TEXT_LINE_WIDTH
 * columns, each after the first indented two more columns, so that the
 * text fits a terminal and the columns after the name stay in place
 * (they follow on the next line).
 */
#ifndef MIPDATA_TEXT_NAME_H
#define MIPDATA_TEXT_NAME_H

#include <stdio.h>

#define TEXT_NAME_WIDTH 40
#define TEXT_LINE_WIDTH 100

/* The width of a column of names whose longest has that many
 * characters. */
size_t text_name_width(size_t longest);

/* Prints name from column `column`, where the line so far ends, on lines
 * of their own as above, the last ended by a newline. */
void text_name_lines(FILE *out, size_t column, const char *name);

#endif
