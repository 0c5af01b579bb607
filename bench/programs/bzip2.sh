# bzip2: the bzip2 compressor, compressing then decompressing generated text.
PKG=bzip2
PROG_SRCS="blocksort.c huffman.c crctable.c randtable.c compress.c decompress.c bzlib.c bzip2.c"
PROG_CFLAGS="-D_FILE_OFFSET_BITS=64"
PROG_LIBS=""
SIZE_FULL=12   # MiB of input
SIZE_CG=4
WORKLOAD="bzip2 -9 then bzip2 -d of N MiB of generated text-like data
(N=$SIZE_FULL; callgrind N=$SIZE_CG)"

prog_prepare() { :; }

# DIR/input-N: N MiB of pseudo-random words, numbers and punctuation (it
# compresses about 4:1, like text).
prog_input() { # DIR N
  local f=$1/input-$2
  [ -s "$f" ] && return 0
  awk -v n="$2" '
    function rnd(m) { seed = (seed * 16807) % 2147483647; return seed % m }
    BEGIN {
      seed = 987654321
      nw = split("the of and to in is was for that with as on by at from his her " \
        "profile counter function entry byte section linker runtime compiler " \
        "store load branch table index query value stream block symbol", w, " ")
      limit = n * 1048576; size = 0; line = ""
      while (size < limit) {
        r = rnd(100)
        if (r < 70) t = w[1 + rnd(rnd(nw) + 1)]
        else if (r < 85) t = rnd(100000)
        else if (r < 95) t = w[1 + rnd(nw)] ","
        else t = w[1 + rnd(nw)] "."
        line = line == "" ? t : line " " t
        if (length(line) > 60 + rnd(20)) { print line; size += length(line) + 1; line = "" }
      }
    }' >"$f.tmp" && mv "$f.tmp" "$f"
}

prog_run() { # BIN DIR N OUTFILE SCRATCH
  $RUNNER "$1" -9 -c "$2/input-$3" >"$5/input.bz2" &&
    $RUNNER "$1" -d -c "$5/input.bz2" >"$5/output" &&
    # The compressed stream and the round trip both have to match.
    { cksum <"$5/input.bz2" && cksum <"$5/output"; } >"$4"
}
