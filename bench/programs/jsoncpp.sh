# jsoncpp: the JsonCpp library's own test runner (src/jsontestrunner),
# C++. It parses a JSON document into a tree of Json::Value, whose
# objects and arrays are std::map nodes and whose strings are blocks of
# their own, prints the tree, writes it back as JSON, parses that and
# prints it again: millions of small blocks from std containers, the
# whole tree live at once, twice.
PKG=libjsoncpp
PROG_LANG=c++
# The library's three sources and the runner, as the package's CMake
# build makes jsontestrunner_exe (linked with the library).
PROG_SRCS="src/lib_json/json_reader.cpp src/lib_json/json_value.cpp
src/lib_json/json_writer.cpp src/jsontestrunner/main.cpp"
PROG_CFLAGS="-Iinclude"
PROG_LIBS=""
# std::map's and std::vector's allocations are calls in the C++ library's
# inlined headers (std::__new_allocator::allocate): for the comparison with
# DHAT (heap/truth.sh) those headers are the program's own sources.
PROG_HEADER_DIRS="/usr/include/c++/"
SIZE_FULL=10   # MB of generated JSON
SIZE_CG=1
WORKLOAD="generated JSON: an array of records (strings, integers, reals,
booleans, nulls, arrays of strings, nested objects, arrays of small
objects) parsed, printed, written back and parsed again (${SIZE_FULL} MB;
callgrind ${SIZE_CG} MB)"

prog_prepare() { :; } # SRCDIR: nothing generated (include/json/version.h is in the tree)

# Writes DIR/doc-N.json: N MB of JSON, generated here (no outside data).
prog_input() { # DIR N
  local f=$1/doc-$2.json
  [ -s "$f" ] && return 0
  awk -v mb="$2" -f "$BENCH_DIR/programs/words.awk" -f <(printf '%s' '
    function str(s) { return "\"" s "\"" }
    function out(s) { print s; bytes += length(s) + 1 }
    # one record: scalars of every kind, an array of strings, a nested
    # object and an array of small objects holding arrays
    function record(i, last,  k, s) {
      s = "{\"id\":" i ",\"name\":" str(word() " " word()) ",\"active\":" (rnd(2) ? "true" : "false")
      s = s ",\"score\":" rnd(100000) / 100 ",\"ratio\":" (rnd(2000) - 1000) / 8
      s = s ",\"note\":" (rnd(5) ? str(word()) : "null") ",\"tags\":["
      for (k = rnd(6); k > 0; k--) s = s str(word()) (k > 1 ? "," : "")
      s = s "],\"address\":{\"city\":" str(word()) ",\"street\":" str(word() " " rnd(500))
      s = s ",\"zip\":" str(10000 + rnd(90000)) "},\"events\":["
      for (k = rnd(4); k > 0; k--)
        s = s "{\"t\":" 1600000000 + rnd(100000000) ",\"kind\":" str(word()) \
          ",\"v\":[" rnd(10) "," rnd(100) "," rnd(1000) "]}" (k > 1 ? "," : "")
      out(s "]}" (last ? "" : ","))
    }
    BEGIN {
      limit = mb * 1048576
      out("{\"version\":1,\"records\":[")
      for (i = 1; bytes < limit; i++) record(i, 0)
      record(i, 1)
      out("]}")
    }') >"$f.tmp" && mv "$f.tmp" "$f"
}

# The runner writes NAME.actual (the tree), NAME.rewrite (the tree as
# JSON) and NAME.actual-rewrite (the tree parsed from NAME.rewrite) beside
# NAME.json, and prints nothing when all went well: it reads the input
# through a link in SCRATCH, so that its files go there, and OUTFILE gets
# what it printed and a checksum of each file, which are then removed.
prog_run() { # BIN DIR N OUTFILE SCRATCH
  local base=$5/doc-$3 ext
  ln -sf "$2/doc-$3.json" "$base.json"
  $RUNNER "$1" "$base.json" >"$4" || return
  for ext in actual rewrite actual-rewrite; do
    printf '%s %s\n' "$ext" "$(cksum <"$base.$ext")" >>"$4" && rm -f "$base.$ext" || return
  done
}
