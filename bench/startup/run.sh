#!/bin/bash
# bench/startup/run.sh: does a function order file from `mipdata order`
# make start-up cheaper? On the sqlite3 shell built from Debian's sources:
#
#   1. compile sqlite3.c and shell.c twice with -O2 -ffunction-sections:
#      instrumented (mipcc -fmip-generate=counts,order,edges) and plain;
#   2. per workload, run the instrumented shell on it, make the profile
#      and the order file (`mipdata order`);
#   3. link the plain objects with lld: once without an order file (the
#      default layout), and once per workload with it; nothing else differs;
#   4. run each workload on the default and on its ordered binary,
#      interleaved, with a warm page cache and with the binary dropped from
#      it, and report page faults, wall time, the text resident at exit and
#      the text pages that hold called code.
#
# Workloads (bench/startup/*.sql):
#   open     open an existing database file, one lookup, one count
#   tour     an in-memory database: many features touched once
#
# Prints the table and writes build/bench/startup.md. Variables:
#   BENCH_STARTUP_RUNS  runs per workload, layout and cache state (default 20)
#   BENCH_JOBS          parallel compiles (default: number of cores)
set -eu
. "$(dirname "$0")/../lib.sh"

RUNS=${BENCH_STARTUP_RUNS:-20}
RSS_RUNS=3
JOBS=${BENCH_JOBS:-$(nproc)}
MIPDATA=$(abspath "${MIPDATA:-$BUILD/bin/mipdata}")
NM=$LLVM_DIR/bin/llvm-nm
HERE=$BENCH_DIR/startup
S=$B/startup
REPORT=$B/startup.md
GEN=-fmip-generate=counts,order,edges
WORKLOADS="open tour"
mkdir -p "$S/obj/plain" "$S/obj/instr" "$S/prof" "$S/out" "$S/work"

for t in "$MIPCC" "$MIPDATA"; do
  [ -x "$t" ] || die "$t missing: run make first"
done
command -v jq >/dev/null || die "jq missing (scripts/install-deps)"
load_program sqlite3
"$BENCH_DIR/fetch.sh" "$PKG"
prog_prepare "$PROG_DIR"

# ---- 1. objects ------------------------------------------------------------
# compile CONFIG SRC: one object; kept when it was made by the same command
# and is newer than the source and the compiler (and MIP's plugin).
compile() {
  local config=$1 src=$2 obj cmd
  obj=$S/obj/$config/$(basename "${src%.c}").o
  # shellcheck disable=SC2206 # PROG_CFLAGS is a list
  if [ "$config" = instr ]; then cmd=("$MIPCC" $GEN); else cmd=("$CLANG"); fi
  # shellcheck disable=SC2206
  cmd+=(-O2 -ffunction-sections $PROG_CFLAGS -c "$src" -o "$obj")
  if [ -f "$obj" ] && [ "$(cat "$obj.cmd" 2>/dev/null)" = "${cmd[*]}" ]; then
    local fresh=1 dep
    local deps=("$PROG_DIR/$src" "$CLANG")
    [ "$config" = instr ] && deps+=("$PLUGIN" "$MIPCC")
    for dep in "${deps[@]}"; do
      if [ "$dep" -nt "$obj" ]; then fresh=0; fi
    done
    [ "$fresh" = 1 ] && return 0
  fi
  log "compiling $config/$(basename "$src")"
  (cd "$PROG_DIR" && "${cmd[@]}") >"$obj.log" 2>&1 ||
    { tail -n 20 "$obj.log" >&2; die "compiling $src ($config) failed"; }
  printf '%s\n' "${cmd[*]}" >"$obj.cmd"
}

rm -f "$S"/obj/*/*.failed
for src in $PROG_SRCS; do
  for config in instr plain; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    (compile "$config" "$src" ||
      touch "$S/obj/$config/$(basename "${src%.c}").failed") &
  done
done
wait
if ls "$S"/obj/*/*.failed >/dev/null 2>&1; then
  die "compiling failed (logs: $S/obj/*/*.log)"
fi
objs() {
  local src
  for src in $PROG_SRCS; do printf '%s ' "$S/obj/$1/$(basename "${src%.c}").o"; done
}

"$CLANG" -O2 -Wall -Wextra -Werror "$HERE/faults.c" -o "$S/faults"

# link NAME EXTRA...: the plain objects, with lld
link() {
  local name=$1
  shift
  # shellcheck disable=SC2046,SC2086 # the lists are meant to be split
  "$CLANG" -fuse-ld=lld $(objs plain) $PROG_LIBS "$@" -o "$S/sqlite3-$name"
}
# shellcheck disable=SC2046,SC2086
"$MIPCC" $GEN $(objs instr) $PROG_LIBS -o "$S/sqlite3-instr"
link default

# The open workload's database, made by the default build.
rm -f "$S/work/open.db"
"$S/sqlite3-default" "$S/work/open.db" <"$HERE/open-db.sql"

# workload_args NAME: the shell's arguments for a workload
workload_args() {
  case $1 in
    open) echo "$S/work/open.db" ;;
    tour) echo ":memory:" ;;
  esac
}

workload_text() {
  case $1 in
    open) echo "\`sqlite3 open.db <open.sql\`: opens an existing database file (1,000 rows), one key lookup, one count" ;;
    tour) echo "\`sqlite3 :memory: <tour.sql\`: about 40 statements and dot-commands that touch many features once (schema, inserts, joins, window functions, JSON, triggers, savepoints, integrity check)" ;;
  esac
}

# ---- 2. profiles and order files; 3. the ordered builds -------------------
"$MIPDATA" extract "$S/sqlite3-instr" -o "$S/prof/sqlite3.mipmap" >/dev/null
for w in $WORKLOADS; do
  log "profiling the $w workload"
  rm -f "$S/prof/$w".*.mipraw "$S/prof/$w.mip"
  for i in 1 2 3; do
    MIP_PROFILE_FILE=$S/prof/$w.$i.mipraw \
      "$S/sqlite3-instr" "$(workload_args "$w")" <"$HERE/$w.sql" >"$S/out/$w-instr.txt"
  done
  "$MIPDATA" create -p "$S/prof/$w.mip" "$S/prof/sqlite3.mipmap"
  "$MIPDATA" merge -p "$S/prof/$w.mip" "$S/prof/$w".*.mipraw
  "$MIPDATA" order -p "$S/prof/$w.mip" -o "$S/order-$w.txt" >"$S/order-$w.summary"
  "$MIPDATA" order -p "$S/prof/$w.mip" --explain=json >"$S/order-$w.json"
  "$MIPDATA" order -p "$S/prof/$w.mip" --explain >"$S/order-$w.explain"
  log "$(cat "$S/order-$w.summary")"
  link "ordered-$w" -Wl,--symbol-ordering-file="$S/order-$w.txt" -Wl,--no-warn-symbol-ordering
  for l in default "ordered-$w"; do
    "$S/sqlite3-$l" "$(workload_args "$w")" <"$HERE/$w.sql" >"$S/out/$w-$l.txt"
    cmp -s "$S/out/$w-instr.txt" "$S/out/$w-$l.txt" ||
      die "sqlite3-$l prints something else on $w than the profiled build"
  done
done

# ---- 4. measurements -------------------------------------------------------
results=$S/out/runs.tsv
# measure WORKLOAD STATE LAYOUT: one run, appended to the results as
# workload, state, layout, minflt, majflt, wall_us, cached_pages, rss_kb
measure() {
  local w=$1 state=$2 layout=$3 bin opts=() m
  bin=$S/sqlite3-$layout
  [ "$layout" = ordered ] && bin=$S/sqlite3-ordered-$w
  case $state in
    cold) opts=(-d "$bin") ;;
    rss) opts=(-t) ;;
  esac
  m=$("$S/faults" "${opts[@]}" -i "$HERE/$w.sql" -o "$S/out/run.txt" -- \
    "$bin" "$(workload_args "$w")")
  printf '%s\t%s\t%s\t%s\n' "$w" "$state" "$layout" "${m// /$'\t'}" >>"$results"
}
log "measuring: $RUNS runs per workload, layout and page cache state"
for w in $WORKLOADS; do
  for l in default ordered; do measure "$w" warm "$l"; done # settle the cache
done
: >"$results"
for w in $WORKLOADS; do
  for state in warm cold rss; do
    n=$RUNS
    [ "$state" = rss ] && n=$RSS_RUNS
    for ((r = 1; r <= n; r++)); do
      # alternate which layout goes first
      if ((r % 2)); then order="default ordered"; else order="ordered default"; fi
      for l in $order; do measure "$w" "$state" "$l"; done
    done
  done
done

# median WORKLOAD STATE LAYOUT COLUMN (4 minflt, 5 majflt, 6 wall_us,
# 7 cached pages, 8 rss KiB)
median() {
  awk -F'\t' -v w="$1" -v s="$2" -v l="$3" -v c="$4" \
    '$1 == w && $2 == s && $3 == l { print $c }' "$results" |
    sort -n | awk '{ v[NR] = $1 }
      END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# fastest WORKLOAD STATE LAYOUT: the shortest wall time
fastest() {
  awk -F'\t' -v w="$1" -v s="$2" -v l="$3" '$1 == w && $2 == s && $3 == l { print $6 }' \
    "$results" | sort -n | head -n 1
}
# code_pages BINARY WORKLOAD: 4 KiB pages of BINARY's text spanned by the
# functions the workload's profile saw called
code_pages() {
  jq -r '.functions[] | select(.group != "cold") | .name' "$S/order-$2.json" >"$S/out/called.txt"
  "$NM" -S --defined-only --radix=d "$1" | awk '
    NR == FNR { called[$1] = 1; next }
    ($4 in called) && ($3 == "t" || $3 == "T") {
      a = $1 + 0; n = $2 + 0
      for (p = int(a / 4096); p <= int((a + n - 1) / 4096); p++) page[p] = 1
    }
    END { for (p in page) k++; print k + 0 }' "$S/out/called.txt" -
}
text_kib() { "$SIZE" -A "$1" | awk '$1 == ".text" { printf "%d", ($2 + 1023) / 1024 }'; }
ra_kib=$(cat /sys/block/*/queue/read_ahead_kb 2>/dev/null | sort -n | tail -n 1)

{
  echo "# Start-up page faults: default layout vs \`mipdata order\`"
  echo
  echo "The sqlite3 shell (Debian source package \`sqlite3\`: \`sqlite3.c\` + \`shell.c\`),"
  echo "\`clang -O2 -ffunction-sections\`, linked with lld. *ordered* differs from *default*"
  echo "only by \`-Wl,--symbol-ordering-file=\` with the file \`mipdata order\` made from a"
  echo "profile of the same workload (\`mipcc -fmip-generate=counts,order,edges\`, 3 runs)."
  echo ".text: $(text_kib "$S/sqlite3-default") KiB. Kernel $(uname -r), $(nproc) cores, block device read-ahead ${ra_kib:-?} KiB."
  echo
  for w in $WORKLOADS; do
    echo "* $w: $(workload_text "$w")"
    echo "  order file: $(sed 's/^[^:]*: //' "$S/order-$w.summary")"
  done
  echo
  echo "| workload | layout | page cache | minor faults | major faults | wall ms (fastest) | binary pages read | text KiB resident at exit | text pages with called code |"
  echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  for w in $WORKLOADS; do
    for state in warm cold; do
      for l in default ordered; do
        bin=$S/sqlite3-$l
        [ "$l" = ordered ] && bin=$S/sqlite3-ordered-$w
        read_pages=- resident=-
        [ "$state" = cold ] && read_pages=$(median "$w" cold "$l" 7)
        [ "$state" = warm ] && resident=$(median "$w" rss "$l" 8)
        printf '| %s | %s | %s | %s | %s | %.2f (%.2f) | %s | %s | %s |\n' "$w" "$l" "$state" \
          "$(median "$w" "$state" "$l" 4)" "$(median "$w" "$state" "$l" 5)" \
          "$(median "$w" "$state" "$l" 6 | awk '{ print $1 / 1000 }')" \
          "$(fastest "$w" "$state" "$l" | awk '{ print $1 / 1000 }')" "$read_pages" \
          "$resident" "$(code_pages "$bin" "$w")"
      done
    done
  done
  echo
  for w in $WORKLOADS; do
    awk -v w="$w" -v d="$(median "$w" warm default 4)" -v o="$(median "$w" warm ordered 4)" \
      -v rd="$(median "$w" rss default 8)" -v ro="$(median "$w" rss ordered 8)" \
      -v cd="$(code_pages "$S/sqlite3-default" "$w")" -v co="$(code_pages "$S/sqlite3-ordered-$w" "$w")" \
      'BEGIN { printf "%s, ordered vs default (warm): minor faults %+g (%+.1f%%), text resident %+d KiB (%+.0f%%), pages with called code %+d (%+.0f%%)\n",
                      w, o - d, 100 * (o - d) / d, ro - rd, 100 * (ro - rd) / rd, co - cd, 100 * (co - cd) / cd }'
  done
  echo
  echo "Medians of $RUNS runs per row, default and ordered interleaved; wall times"
  echo "also as the fastest run, which is less sensitive to other load on the machine."
  echo "*cold*: the binary dropped from the page cache before each run"
  echo "(\`posix_fadvise(POSIX_FADV_DONTNEED)\`); *binary pages read*: its pages in the"
  echo "page cache after such a run (\`mincore\`). *text KiB resident at exit*: Rss of"
  echo "the executable mapping as the process exits (median of $RSS_RUNS warm runs, held"
  echo "at exit with ptrace), which includes what fault-around mapped without a fault."
  echo "*text pages with called code*: 4 KiB pages of \`.text\` spanned by the functions"
  echo "the profile saw called, from the symbol table."
  echo "Raw numbers: \`build/bench/startup/out/runs.tsv\`."
} >"$REPORT"
cat "$REPORT"
