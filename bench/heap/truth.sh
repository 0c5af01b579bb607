#!/bin/bash
# bench/heap/truth.sh PROG: blocks and bytes per allocation site, MIP
# against valgrind's DHAT on the same deterministic run (bench/README.md,
# "Heap profiling"), and the MemProf profile of that run for access.sh.
#
# Runs PROG's workload four times from one place, build/bench/heap/truth/
# PROG, with the binary copied to the same path each time (Lua keeps
# argv[0] in a string, the sqlite3 shell its database path, bzip2 its
# arguments: paths of other lengths would be other allocation sizes):
#
#   plain          the reference output
#   dhat           clang -O2 -gdwarf-4 -fno-optimize-sibling-calls, under
#                  valgrind --tool=dhat
#   heap-nosib     mipcc -fmip-generate=heap -O2 -g -fno-optimize-sibling-calls
#   memprof-nosib  clang -fmemory-profile, frame pointers, the same
#                  tail-call setting; stacks of up to 255 frames (MemProf's
#                  most; its default is 30, MIP's 64)
#
# All four must print the same. Each process is timed by bench/heap/rusage
# (built by run.sh), for DHAT's slowdown. Then, in that directory:
#   wall.tsv     per build: wall µs (the processes' sum), peak RSS KiB
#   dhat.tsv     DHAT's program points (dhat.jq): kind site via blocks bytes context
#   mip.tsv      MIP's contexts by site: site allocator blocks bytes reallocs
#   sites.tsv    both, one line per site either has:
#                site allocator mip_blocks mip_bytes mip_reallocs dhat_blocks dhat_bytes
#                ("-" where a side has no such site); DHAT's direct points only
#   contexts.tsv the same by context: the site and the names of the
#                program's frames above it, at most $DEPTH
#                context mip_blocks mip_bytes dhat_blocks dhat_bytes
#   library.tsv  DHAT's allocations inside library calls: site via blocks bytes
#   none.tsv     DHAT's allocations with no frame in the program: stack blocks bytes
# BENCH_HEAP_DHAT_SIZE: "full" (default, the timed size) or "small" (the
# callgrind size of bench/programs/PROG.sh).
set -eu -o pipefail
. "$(dirname "$0")/../lib.sh"

prog=${1:?usage: truth.sh PROG}
MIPDATA=$(abspath "${MIPDATA:-$BUILD/bin/mipdata}")
RUSAGE=$B/heap/rusage
# Contexts are compared by the site and this many function names above it;
# DHAT keeps more return addresses than that (inlined frames are extra).
DEPTH=12
DHAT_CALLERS=24
load_program "$prog"
n=$SIZE_FULL
[ "${BENCH_HEAP_DHAT_SIZE:-full}" = small ] && n=$SIZE_CG
[ -x "$RUSAGE" ] || die "$RUSAGE missing (bench/heap/run.sh builds it from bench/heap/rusage.c)"
for c in plain dhat heap-nosib memprof-nosib; do
  [ -x "$BIN/$prog/$c" ] || die "$prog/$c: no binary ($BIN/$prog/$c): run bench/build.sh $prog $c"
done

T=$B/heap/truth/$prog
rm -rf "$T" && mkdir -p "$T/exe" "$T/run"
exe=$T/exe/$prog
input=$WORK/$prog
prog_input "$input" "$n"
# Every run gets the same environment, the profile variables included.
export MIP_PROFILE_FILE=$T/mip.%p.mipraw
export MEMPROF_OPTIONS=log_path=$T/memprof.profraw:malloc_context_size=255

# run CONFIG [RUNNER...]: the workload with CONFIG's binary at $exe, each
# process timed into rusage.CONFIG; prints the output's checksum
run() {
  local config=$1
  shift
  cp "$BIN/$prog/$config" "$exe"
  rm -rf "$T/run" && mkdir -p "$T/run"
  # shellcheck disable=SC2034 # read by prog_run (bench/programs/PROG.sh)
  RUNNER="$RUSAGE $T/rusage.$config $*"
  prog_run "$exe" "$input" "$n" "$T/out.$config" "$T/run" 2>"$T/log.$config" ||
    { tail -n 20 "$T/log.$config" >&2; die "$prog/$config: workload failed (log: $T/log.$config)"; }
  awk -v c="$config" -v OFS='\t' '{ wall += $1; if ($2 > rss) rss = $2 }
    END { print c, wall, rss }' "$T/rusage.$config" >>"$T/wall.tsv"
  cksum <"$T/out.$config" | awk '{ print $1 "-" $2 }'
}

want=$(run plain)
got=$(run dhat valgrind --tool=dhat -q --fullpath-after= --read-inline-info=yes \
  "--num-callers=$DHAT_CALLERS" "--dhat-out-file=$T/dhat.%p.json")
[ "$got" = "$want" ] || die "$prog/dhat under DHAT prints something else than $prog/plain"
got=$(run heap-nosib)
[ "$got" = "$want" ] || die "$prog/heap-nosib prints something else than $prog/plain"
got=$(run memprof-nosib)
[ "$got" = "$want" ] || die "$prog/memprof-nosib prints something else than $prog/plain"
ls "$T"/dhat.*.json >/dev/null 2>&1 || die "$prog: DHAT wrote no profile (log: $T/log.dhat)"
ls "$T"/mip.*.mipraw >/dev/null 2>&1 || die "$prog: MIP wrote no profile"
ls "$T"/memprof.profraw.* >/dev/null 2>&1 || die "$prog: MemProf wrote no profile"

# MIP: one profile of all the workload's processes.
bin=$BIN/$prog/heap-nosib
"$MIPDATA" extract "$bin" -o "$T/$prog.mipmap" >/dev/null
"$MIPDATA" create -p "$T/$prog.mip" "$T/$prog.mipmap"
"$MIPDATA" merge -p "$T/$prog.mip" --debug "$bin" "$T"/mip.*.mipraw
"$MIPDATA" show -p "$T/$prog.mip" --heap --format json >"$T/mip.json"

# Sites as FILE:LINE relative to the program's source directory; contexts
# as the site and the names of the frames above it that are in the
# program's sources, as dhat.jq makes them. Headers whose code the program
# compiles into itself (PROG_HEADER_DIRS: C++'s containers allocate in
# inlined std::allocator code) count as its sources, by their absolute
# path, with no . or .. (DHAT keeps the path as the DWARF spells it,
# /usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/...).
dir=$(cd "$PROG_DIR" && pwd -P)/
hdirs=${PROG_HEADER_DIRS:-}
# rel(FILE): FILE relative to dir, FILE itself in a header directory, or ""
rel='function rel(f,  n, i, k, part, out) {
  n = split(f, part, "/"); k = 0
  for (i = 2; i <= n; i++)
    if (part[i] == "..") { if (k > 0) k-- }
    else if (part[i] != "." && part[i] != "") out[++k] = part[i]
  if (n > 1 && substr(f, 1, 1) == "/") { f = ""; for (i = 1; i <= k; i++) f = f "/" out[i] }
  if (index(f, dir) == 1) return substr(f, length(dir) + 1)
  n = split(hdirs, part, " ")
  for (i = 1; i <= n; i++) if (index(f, part[i]) == 1) return f
  return ""
}'
# Frames named as DHAT's are (names.jq): MIP's linkage names demangled
# (llvm-cxxfilt, one per line), then bare on both sides.
jq -r '[.heap // [] | .[].frames[].function | strings] | unique | .[]' \
  "$T/mip.json" >"$T/names.mangled"
"$LLVM_DIR/bin/llvm-cxxfilt" <"$T/names.mangled" | paste "$T/names.mangled" - |
  jq -R -n '[inputs | split("\t") | {(.[0]): .[1]}] | add // {}' >"$T/names.json"
jq --slurpfile names "$T/names.json" -L "$BENCH_DIR/heap" 'include "names";
  .heap[]?.frames[]?.function |= (strings |= ($names[0][.] // . | base_name))' \
  "$T/mip.json" >"$T/mip.named.json"
jq -r -f "$BENCH_DIR/heap/mip.jq" "$T/mip.named.json" |
  awk -F'\t' -v OFS='\t' -v dir="$dir" -v hdirs="$hdirs" -v depth="$DEPTH" "$rel"'
    # a context with no allocation only freed blocks allocated out of
    # sight of MIP (GhostFreeCount), such as strings the C++ library made
    $1 == 0 && $4 == 0 { next }
    { k = (rel($6) != "" ? rel($6) : $6) ":" $7
      ctx = k
      m = 0
      for (i = 9; i + 4 <= NF && m < depth; i += 5)
        if (rel($(i + 1)) != "") { ctx = ctx "<" $i; m++ }
      print k, $8, $1, $2, $4, ctx }' >"$T/mip.contexts"
awk -F'\t' -v OFS='\t' '
  { k = $1; blocks[k] += $3; bytes[k] += $4; re[k] += $5
    if (index("," alloc[k] ",", "," $2 ",") == 0) alloc[k] = alloc[k] (alloc[k] == "" ? "" : ",") $2 }
  END { for (k in blocks) print k, alloc[k], blocks[k], bytes[k], re[k] }' "$T/mip.contexts" |
  sort >"$T/mip.tsv"
for f in "$T"/dhat.*.json; do
  jq -r --arg dir "$dir" --arg hdirs "$hdirs" --arg depth "$DEPTH" --arg at total -L "$BENCH_DIR/heap" -f "$BENCH_DIR/heap/dhat.jq" "$f"
done >"$T/dhat.tsv"

awk -F'\t' -v OFS='\t' '$1 == "library" { k = $2 "\t" $3; b[k] += $4; s[k] += $5 }
  END { for (k in b) print k, b[k], s[k] }' "$T/dhat.tsv" | sort >"$T/library.tsv"
awk -F'\t' -v OFS='\t' '$1 == "none" { b[$3] += $4; s[$3] += $5 }
  END { for (k in b) print k, b[k], s[k] }' "$T/dhat.tsv" | sort >"$T/none.tsv"
awk -F'\t' -v OFS='\t' '
  NR == FNR { alloc[$1] = $2; mb[$1] = $3; ms[$1] = $4; mr[$1] = $5; next }
  $1 == "direct" { db[$2] += $4; ds[$2] += $5; if (!($2 in dalloc)) dalloc[$2] = $3 }
  END {
    for (k in mb)
      print k, alloc[k], mb[k], ms[k], mr[k], (k in db) ? db[k] : "-", (k in ds) ? ds[k] : "-"
    for (k in db)
      if (!(k in mb)) print k, "(" dalloc[k] ")", "-", "-", "-", db[k], ds[k]
  }' "$T/mip.tsv" "$T/dhat.tsv" | sort >"$T/sites.tsv"
awk -F'\t' -v OFS='\t' '
  NR == FNR { mb[$6] += $3; ms[$6] += $4; next }
  $1 == "direct" { db[$6] += $4; ds[$6] += $5 }
  END {
    for (k in mb) print k, mb[k], ms[k], (k in db) ? db[k] : "-", (k in ds) ? ds[k] : "-"
    for (k in db) if (!(k in mb)) print k, "-", "-", db[k], ds[k]
  }' "$T/mip.contexts" "$T/dhat.tsv" | sort >"$T/contexts.tsv"
# At the global peak: the process whose peak is the highest (MIP's merge
# keeps that run's; for DHAT, the file whose t-gmax, its points' gb
# summed, is the largest), per site MIP's AtPeakCount and AtPeakSize
# against DHAT's gbk and gb of its direct points.
#   peak.tsv        mip_bytes mip_blocks dhat_bytes dhat_blocks (t-gmax,
#                   libraries' blocks included) dhat_direct_bytes
#   peak-sites.tsv  site mip_gbk mip_gb dhat_gbk dhat_gb ("-": none)
top=$(for f in "$T"/dhat.*.json; do
  echo "$(jq '[.pps[].gb] | add // 0' "$f") $f"
done | sort -n | tail -1 | cut -d' ' -f2)
jq -r --arg dir "$dir" --arg hdirs "$hdirs" --arg depth "$DEPTH" --arg at peak -L "$BENCH_DIR/heap" -f "$BENCH_DIR/heap/dhat.jq" "$top" |
  awk -F'\t' -v OFS='\t' '$1 == "direct" { b[$2] += $4; s[$2] += $5 }
    END { for (k in b) print k, b[k], s[k] }' | sort >"$T/dhat.peak"
jq -r '.heap // [] | .[] | [(.site.file // "-"), (.site.line // 0), .AtPeakCount, .AtPeakSize] | @tsv' "$T/mip.json" |
  awk -F'\t' -v OFS='\t' -v dir="$dir" -v hdirs="$hdirs" "$rel"'
    { k = (rel($1) != "" ? rel($1) : $1) ":" $2; b[k] += $3; s[k] += $4 }
    END { for (k in b) print k, b[k], s[k] }' | sort >"$T/mip.peak"
join -t "$(printf '\t')" -a 1 -a 2 -e - -o 0,1.2,1.3,2.2,2.3 "$T/mip.peak" "$T/dhat.peak" >"$T/peak-sites.tsv"
printf '%s\t%s\t%s\t%s\t%s\n' \
  "$(jq '.heap_peak.bytes // 0' "$T/mip.json")" "$(jq '.heap_peak.blocks // 0' "$T/mip.json")" \
  "$(jq '[.pps[].gb] | add // 0' "$top")" "$(jq '[.pps[].gbk] | add // 0' "$top")" \
  "$(awk -F'\t' '{ s += $3 } END { print s + 0 }' "$T/dhat.peak")" >"$T/peak.tsv"
log "$prog: DHAT and MIP compared ($(wc -l <"$T/sites.tsv") sites, $(wc -l <"$T/contexts.tsv") contexts, $(wc -l <"$T/peak-sites.tsv") at the peak)"
