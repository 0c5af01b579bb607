# cmark: the CommonMark reference converter, Markdown to HTML. It parses
# the whole document into a tree of nodes (each node and each piece of
# text a heap block of its own), keeps it live, renders it and frees it:
# millions of small blocks live at once on a large document.
PKG=cmark
# Everything in src/, as the package's CMake build makes the cmark
# executable (library and main.c in one).
PROG_SRCS="src/blocks.c src/buffer.c src/cmark.c src/cmark_ctype.c
src/commonmark.c src/houdini_href_e.c src/houdini_html_e.c
src/houdini_html_u.c src/html.c src/inlines.c src/iterator.c src/latex.c
src/main.c src/man.c src/node.c src/references.c src/render.c src/scanners.c
src/utf8.c src/xml.c"
PROG_CFLAGS="-Isrc -Ibench-include"
PROG_LIBS=""
SIZE_FULL=40   # MB of generated Markdown
SIZE_CG=2
WORKLOAD="generated Markdown: sections, paragraphs with emphasis, code
spans, links and reference links, nested lists, block quotes, code
blocks and HTML blocks, converted to HTML (${SIZE_FULL} MB; callgrind ${SIZE_CG} MB)"

# The headers CMake would generate: config.h (what the compiler has),
# cmark_version.h (from CMakeLists.txt's project version) and
# cmark_export.h (nothing to export from an executable).
prog_prepare() { # SRCDIR
  local d=$1/bench-include v
  [ -f "$d/cmark_export.h" ] && return 0
  v=$(sed -n 's/^project(cmark VERSION \([0-9]*\)\.\([0-9]*\)\.\([0-9]*\)).*/\1 \2 \3/p' "$1/CMakeLists.txt")
  [ -n "$v" ] || die "cmark: no project version in $1/CMakeLists.txt"
  mkdir -p "$d"
  sed -e 's/#cmakedefine HAVE_STDBOOL_H/#define HAVE_STDBOOL_H/' \
    -e 's/#cmakedefine HAVE___BUILTIN_EXPECT/#define HAVE___BUILTIN_EXPECT/' \
    -e 's/#cmakedefine HAVE___ATTRIBUTE__/#define HAVE___ATTRIBUTE__/' \
    "$1/src/config.h.in" >"$d/config.h"
  # shellcheck disable=SC2086 # three numbers
  set -- $v
  sed -e "s/@PROJECT_VERSION_MAJOR@/$1/g" -e "s/@PROJECT_VERSION_MINOR@/$2/g" \
    -e "s/@PROJECT_VERSION_PATCH@/$3/g" "$d/../src/cmark_version.h.in" >"$d/cmark_version.h"
  printf '#ifndef CMARK_EXPORT_H\n#define CMARK_EXPORT_H\n#define CMARK_EXPORT\n#define CMARK_NO_EXPORT\n#endif\n' \
    >"$d/cmark_export.h.tmp" && mv "$d/cmark_export.h.tmp" "$d/cmark_export.h"
}

# Writes DIR/doc-N.md: N MB of Markdown, generated here (no outside data).
prog_input() { # DIR N
  local f=$1/doc-$2.md
  [ -s "$f" ] && return 0
  awk -v mb="$2" -f "$BENCH_DIR/programs/words.awk" -f <(printf '%s' '
    # a line of running text with inline markup
    function text(n,  s, i, r) {
      s = word()
      for (i = 1; i < n; i++) {
        r = rnd(40)
        if (r == 0) s = s " *" word() " " word() "*"
        else if (r == 1) s = s " **" word() "**"
        else if (r == 2) s = s " `" word() "()`"
        else if (r == 3) s = s " [" word() "](https://example.org/" word() "/" rnd(1000) ")"
        else if (r == 4) s = s " [" word() "][ref" rnd(nref) "]"
        else if (r == 5) s = s " <https://" word() ".example.net>"
        else if (r == 6) s = s " " word() "&amp;" word()
        else s = s " " word()
      }
      return s
    }
    function out(s) { print s; bytes += length(s) + 1 }
    function paragraph(indent,  k) {
      for (k = 1 + rnd(4); k > 0; k--) out(indent text(6 + rnd(10)))
      out("")
    }
    function list(indent, depth,  k, mark) {
      mark = rnd(2) ? "-" : "1."
      for (k = 2 + rnd(5); k > 0; k--) {
        out(indent mark " " text(3 + rnd(8)))
        if (depth < 3 && rnd(4) == 0) list(indent "   ", depth + 1)
      }
      out("")
    }
    BEGIN {
      nref = 200
      limit = mb * 1048576
      sec = 0
      while (bytes < limit) {
        sec++
        out("## " word() " " word() " " sec)
        out("")
        for (b = 3 + rnd(8); b > 0; b--) {
          r = rnd(12)
          if (r < 6) paragraph("")
          else if (r < 9) list("", 1)
          else if (r == 9) { out("> " text(8)); out("> " text(8)); out(">"); out("> - " text(4)); out("") }
          else if (r == 10) {
            out("```c")
            for (k = 2 + rnd(6); k > 0; k--) out("int " word() " = " rnd(100) ";")
            out("```"); out("")
          } else { out("<div class=\"" word() "\">"); out(text(5)); out("</div>"); out("") }
        }
      }
      for (k = 0; k < nref; k++) out("[ref" k "]: https://example.com/" word() "/" k " \"" word() "\"")
    }') >"$f.tmp" && mv "$f.tmp" "$f"
}

# Runs the conversion with $RUNNER (empty, or valgrind) in front; the HTML
# to OUTFILE.
prog_run() { # BIN DIR N OUTFILE SCRATCH
  $RUNNER "$1" "$2/doc-$3.md" >"$4"
}
