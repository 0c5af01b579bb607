#!/bin/bash
# bench/heap/access.sh PROG: MIP's access counts against LLVM MemProf's
# (clang -fmemory-profile), context by context, from the runs of the
# heap-nosib and memprof-nosib builds that truth.sh made (same workload,
# same paths; neither build makes tail calls, which MemProf's would
# otherwise make to malloc and realloc, hiding the frame that calls them).
#
# A context is keyed by its allocation call, as MemProf names a frame
# (function : line offset from the function's DW_AT_decl_line : column),
# then the names of the functions above it. Lines above the leaf are left
# out: the two builds' code differs (MemProf's instrumentation is not
# MIP's), and where a call's location was merged with another one's it
# has line 0 in one build and a line in the other. Writes, in
# build/bench/heap/access/PROG:
#   mip.tsv, memprof.tsv  key leaf AllocCount TotalSize TotalAccessCount ReallocCount
#   contexts.tsv  key mip_blocks mip_bytes mip_accesses mip_reallocs
#                 memprof_blocks memprof_bytes memprof_accesses ("-": none)
#   sites.tsv     the same by allocation call (leaf) alone
set -eu -o pipefail
. "$(dirname "$0")/../lib.sh"

prog=${1:?usage: access.sh PROG}
PROFDATA=$LLVM_DIR/bin/llvm-profdata
DWARFDUMP=$LLVM_DIR/bin/llvm-dwarfdump
T=$B/heap/truth/$prog
A=$B/heap/access/$prog
rm -rf "$A" && mkdir -p "$A"
[ -s "$T/mip.json" ] || die "$prog: no MIP profile in $T (run truth.sh $prog first)"
ls "$T"/memprof.profraw.* >/dev/null 2>&1 || die "$prog: no MemProf profile in $T"

bin=$BIN/$prog/heap-nosib
cp "$T/mip.json" "$A/mip.json"
"$DWARFDUMP" --debug-info "$bin" | awk -f "$BENCH_DIR/heap/dwarf.awk" | sort -u >"$A/decl.tsv"

# key FRAMES: leaf frame (name:offset:column), then the outer names
keys='
  function keys(frames,   n, fr, a, i) {
    n = split(frames, fr, "|")
    split(fr[1], a, ":"); leaf = a[1] ":" a[2] ":" a[3]; key = leaf
    for (i = 2; i <= n; i++) { split(fr[i], a, ":"); key = key "|" a[1] }
  }'

# MIP frames get MemProf line offsets: line - decl_line, modulo 2^32 as
# MemProf stores them (code from #line directives can precede its function).
jq -r -f "$BENCH_DIR/heap/mip.jq" "$A/mip.json" | awk -F'\t' -v OFS='\t' "$keys"'
  NR == FNR {
    if (++seen[$1] == 1) decl[$1] = $3; else if (decl[$1] != $3) decl[$1] = ""
    declf[$1, $2] = $3
    next
  }
  {
    frames = ""
    for (i = 9; i + 4 <= NF; i += 5) {
      d = decl[$i]
      if (d == "" && (($i, $(i + 1)) in declf)) d = declf[$i, $(i + 1)]
      off = d == "" ? "?" : ($(i + 2) - d + 4294967296) % 4294967296
      frames = frames (frames == "" ? "" : "|") $i ":" off ":" $(i + 3) ":" $(i + 4)
    }
    keys(frames)
    print key, leaf, $1, $2, $3, $4
  }' "$A/decl.tsv" - >"$A/mip.tsv"

# MemProf: one raw profile per process.
for raw in "$T"/memprof.profraw.*; do
  "$PROFDATA" show --memory "$raw" --profiled-binary="$BIN/$prog/memprof-nosib" >"$A/$(basename "$raw").yaml" ||
    die "$prog: llvm-profdata cannot read $raw"
  awk -f "$BENCH_DIR/heap/memprof.awk" "$A/$(basename "$raw").yaml"
done | awk -F'\t' -v OFS='\t' "$keys"'{ keys($1); print key, leaf, $2, $3, $4, $5 }' >"$A/memprof.tsv"

# join BY: the two sides summed by column BY (1 context, 2 leaf)
join_by() {
  awk -F'\t' -v OFS='\t' -v by="$1" '
    NR == FNR { k = $by; m[k] = 1; mb[k] += $3; ms[k] += $4; ma[k] += $5; mr[k] += $6; next }
    { k = $by; p[k] = 1; pb[k] += $3; ps[k] += $4; pa[k] += $5 }
    END {
      for (k in m)
        if (k in p) print k, mb[k], ms[k], ma[k], mr[k], pb[k], ps[k], pa[k]
        else print k, mb[k], ms[k], ma[k], mr[k], "-", "-", "-"
      for (k in p) if (!(k in m)) print k, "-", "-", "-", "-", pb[k], ps[k], pa[k]
    }' "$A/mip.tsv" "$A/memprof.tsv" | sort
}
join_by 1 >"$A/contexts.tsv"
join_by 2 >"$A/sites.tsv"
log "$prog: MIP and MemProf compared ($(awk -F'\t' '$2 != "-" && $6 != "-"' "$A/contexts.tsv" | wc -l) contexts in both)"
