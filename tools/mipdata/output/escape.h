/*
 * What each output format does with the bytes of a name or a path:
 * function names, source files and objects come from the user's sources,
 * their DWARF, or a profile someone else made, and may hold any byte but
 * NUL. Every writer of mipdata puts them out through one of these, one
 * per format family, so that no name can end its field, its record, its
 * cell or its element, or reach a terminal as a control sequence
 * (docs/mipdata.md#names-in-the-outputs).
 *
 * Where a format cannot carry a byte, it is shown as a visible escape:
 * "\xHH" (two lower-case hex digits), "\t", "\n" or "\r". A backslash
 * stays as it is: the escapes are for reading, the JSON outputs carry the
 * exact bytes.
 */
#ifndef MIPDATA_ESCAPE_H
#define MIPDATA_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* JSON (and YAML): s double-quoted with JSON's escapes, controls as
 * \uXXXX; valid UTF-8 whatever s holds (a byte outside well-formed UTF-8
 * becomes U+FFFD). */
void escape_json(FILE *out, const char *s);

/* JSON text (escape_json's) inside an HTML <script> element: every '<',
 * '>' and '&' as \u003c, \u003e, \u0026 (so no "</script>", "<!--" or
 * "<script" can change the element's parsing), U+2028 and U+2029 as
 * \u2028, \u2029 (line ends to JavaScript before ES2019). They can only
 * be inside strings, where the escapes mean the same. */
void escape_json_in_script(FILE *out, const char *json, size_t size);

/* XML 1.0 (and HTML) text or a double-quoted attribute value: & < > " '
 * as entities; tab, LF and CR as character references (an attribute
 * keeps them); the other C0 controls, which XML 1.0 forbids, shown
 * escaped; U+FFFE, U+FFFF and bytes outside well-formed UTF-8 as
 * U+FFFD. */
void escape_xml(FILE *out, const char *s);

/* A field of a line-oriented record (lcov, callgrind, folded stacks): the
 * C0 controls (LF and CR, which would end the record, among them) and DEL
 * shown escaped, and each byte of `also` (the format's separators, NULL
XX as it is, so that the path of a
 * file whose name is not UTF-8 still names it. */
void escape_line_field(FILE *out, const char *s, const char *also);

/* Text for a terminal: the C0 and C1 controls (ESC among them: no
 * terminal sequence), DEL and bytes outside well-formed UTF-8 shown
 * escaped, as ls and git do. s itself when nothing needs it, else a copy
 * that stays valid for the next TEXT_SAFE_KEPT calls. */
#define TEXT_SAFE_KEPT 8
const char *text_safe(const char *s);
/* fputs of text_safe(s). */
void escape_text(FILE *out, const char *s);

/* A cell or a line of GitHub-flavoured markdown: text_safe's escapes,
 * then '|' and markdown's punctuation backslash-escaped and < > & as
 * entities, so that nothing ends the cell or the row, or turns into
 * emphasis, a link, code or HTML. */
void escape_markdown(FILE *out, const char *s);

#endif
