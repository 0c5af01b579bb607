#!/bin/bash
# bench/use/run.sh: what rebuilding real programs with their profile
# (`mipcc -fmip-use`, docs/use.md) does (`make bench-use`). For each program
# of `make bench`:
#
#   1. builds it instrumented (mipcc -fmip-generate=counts,order,blocks),
#      runs the bench workload, and makes the indexed profile;
#   2. rebuilds it plain (clang), with -fmip-use=PROFILE (*use*), and with
#      -fmip-use=PROFILE -fmip-order (*order*), one object per source, and
#      counts the code the compiler put in .text.hot and .text.unlikely
#      sections, checked against the profile (`mipdata annotate`), the
#      compiler's remarks and, for never-run code, callgrind;
#   3. times the workload on the three builds (median of interleaved runs)
#      and counts its instructions with callgrind;
#   4. counts the page faults of a start-up-only run on plain, plain
#      linked by lld (plain-lld, order's baseline), use and order;
#   5. times each source's compile (user + system CPU) with clang, with
#      clang and the MIP plugin loaded but no profile, and with
#      mipcc -fmip-use=PROFILE; the same for a one-line source; and the
#      time of the profile-use pass itself (-ftime-report).
#
# Then runs bench/use/hotcold.sh and bench/use/staticdata.sh if they are
# there. Prints the tables and
# writes build/bench/use.md; raw numbers in build/bench/use/out. Variables:
#   BENCH_PROGRAMS            programs (default "sqlite3 lua bzip2")
#   BENCH_USE_RUNS            timed workload runs per build (default 7)
#   BENCH_USE_STARTUP_RUNS    start-up runs per build (default 31)
#   BENCH_USE_COMPILE_RUNS    compiles per source and compiler (default 5)
#   BENCH_JOBS                parallel compiles and callgrind runs (cores)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

PROGRAMS=${BENCH_PROGRAMS:-$ALL_PROGRAMS}
RUNS=${BENCH_USE_RUNS:-7}
SRUNS=${BENCH_USE_STARTUP_RUNS:-31}
CRUNS=${BENCH_USE_COMPILE_RUNS:-5}
JOBS=${BENCH_JOBS:-$(nproc)}
RSS_RUNS=3
MIPDATA=$(abspath "${MIPDATA:-$BUILD/bin/mipdata}")
OBJDUMP=$LLVM_DIR/bin/llvm-objdump
HERE=$BENCH_DIR/use
S=$B/use
REPORT=$B/use.md
GEN=-fmip-generate=counts,order,blocks

for v in RUNS SRUNS CRUNS JOBS; do
  case ${!v} in '' | *[!0-9]* | 0) die "$v must be a positive number, not '${!v}'" ;; esac
done
[ -n "$PROGRAMS" ] || die "BENCH_PROGRAMS is empty"
for p in $PROGRAMS; do
  case " $ALL_PROGRAMS " in *" $p "*) ;; *) die "unknown program '$p' in BENCH_PROGRAMS (known: $ALL_PROGRAMS)" ;; esac
done
for t in "$CLANG" "$READELF" "$OBJDUMP" "$STRIP" valgrind jq awk cksum; do
  command -v "$t" >/dev/null || die "$t not found (scripts/install-deps bench installs what is missing)"
done
for t in "$MIPCC" "$MIPDATA"; do
  [ -x "$t" ] || die "$t missing: run make first"
done
[ -f "$PLUGIN" ] || die "$PLUGIN missing: run make first"
[ -f "$RT_LIB" ] || die "$RT_LIB missing: run make first"
[ -x "$LLVM_DIR/bin/ld.lld" ] || command -v ld.lld >/dev/null ||
  die "ld.lld missing (package lld-19): -fmip-order links with lld"

start=$(date +%s)
mkdir -p "$S/obj" "$S/prof" "$S/out" "$S/work" "$SRC" "$BIN" "$WORK" "$TMP"
rm -rf "${S:?}/out"/* "$S/ctime"
results=$S/out/results.tsv # PROG BUILD KEY VALUE
: >"$results"
record() { printf '%s\t%s\t%s\t%s\n' "$@" >>"$results"; }

"$CLANG" -O2 -Wall -Wextra -Werror "$HERE/cputime.c" -o "$S/cputime"
"$CLANG" -O2 -Wall -Wextra -Werror "$BENCH_DIR/startup/faults.c" -o "$S/faults"

for p in $PROGRAMS; do
  load_program "$p"
  "$BENCH_DIR/fetch.sh" "$PKG"
  prog_prepare "$PROG_DIR"
done

profile() { echo "$S/prof/$1.mip"; }

# ---- builds ----------------------------------------------------------------
# compile PROG BUILD SRC: one object in build/bench/use/obj/PROG/BUILD, kept
# when it was made by the same command and is newer than the source, the
# compiler, MIP's plugin and driver, and the profile.
compile() {
  local p=$1 build=$2 src=$3 obj cmd dep fresh
  load_program "$p"
  obj=$S/obj/$p/$build/$(basename "${src%.c}").o
  case $build in
    gen) cmd=("$MIPCC" "$GEN") ;;
    plain) cmd=("$CLANG") ;;
    use) cmd=("$MIPCC" -fmip-use="$(profile "$p")") ;;
    order) cmd=("$MIPCC" -fmip-use="$(profile "$p")" -fmip-order) ;;
    # use with the compiler's remarks, for counting them only: -R makes
    # clang track debug locations, which changes the code of a few functions
    remarks) cmd=("$MIPCC" -fmip-use="$(profile "$p")" -Rpass=mip -Rpass-missed=mip) ;;
  esac
  # shellcheck disable=SC2206 # PROG_CFLAGS is a list
  cmd+=(-O2 $PROG_CFLAGS -c "$src" -o "$obj")
  if [ -f "$obj" ] && [ "$(cat "$obj.cmd" 2>/dev/null)" = "${cmd[*]}" ]; then
    fresh=1
    for dep in "$PROG_DIR/$src" "$CLANG" "$PLUGIN" "$MIPCC" "$(profile "$p")"; do
      if [ -e "$dep" ] && [ "$dep" -nt "$obj" ]; then fresh=0; fi
    done
    [ "$fresh" = 1 ] && return 0
  fi
  log "compiling $p/$build/$(basename "$src")"
  if ! (cd "$PROG_DIR" && "${cmd[@]}") >"$obj.log" 2>&1; then
    grep -v 'remark:' "$obj.log" | tail -n 20 >&2
    die "compiling $p/$build/$src failed (log: $obj.log)"
  fi
  printf '%s\n' "${cmd[*]}" >"$obj.cmd"
}

# compile_all BUILD...: every source of every program, $JOBS at a time
compile_all() {
  local p b src
  rm -f "$S"/obj/*/*/*.failed
  for p in $PROGRAMS; do
    load_program "$p"
    for b in "$@"; do
      mkdir -p "$S/obj/$p/$b"
      for src in $PROG_SRCS; do
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
        (compile "$p" "$b" "$src" || touch "$S/obj/$p/$b/$(basename "${src%.c}").failed") &
      done
    done
  done
  wait
  if ls "$S"/obj/*/*/*.failed >/dev/null 2>&1; then
    die "compiling failed (see above)"
  fi
}

objs() { # PROG BUILD
  local src
  load_program "$1"
  for src in $PROG_SRCS; do printf '%s ' "$S/obj/$1/$2/$(basename "${src%.c}").o"; done
}

# link PROG BUILD: build/bench/bin/PROG/use.BUILD (where bench/workload.sh
# finds it) and its copy without DWARF for callgrind. plain-lld is the
# plain objects linked with lld, as -fmip-order links.
link() {
  local p=$1 build=$2 out cmd
  load_program "$p"
  out=$BIN/$p/use.$build
  mkdir -p "$BIN/$p"
  # shellcheck disable=SC2207 # the list of objects is meant to be split
  case $build in
    gen) cmd=("$MIPCC" "$GEN" $(objs "$p" gen)) ;;
    plain) cmd=("$CLANG" $(objs "$p" plain)) ;;
    plain-lld) cmd=("$CLANG" -fuse-ld=lld $(objs "$p" plain)) ;;
    use) cmd=("$MIPCC" -fmip-use="$(profile "$p")" $(objs "$p" use)) ;;
    order) cmd=("$MIPCC" -fmip-use="$(profile "$p")" -fmip-order $(objs "$p" order)) ;;
  esac
  # shellcheck disable=SC2206
  cmd+=($PROG_LIBS -o "$out.tmp")
  "${cmd[@]}" >"$out.log" 2>&1 || { cat "$out.log" >&2; die "linking $p/$build failed"; }
  printf '%s\n' "${cmd[*]}" >>"$out.log"
  mv "$out.tmp" "$out"
  "$STRIP" --strip-debug -o "$out.nodebug" "$out"
}

log "compiling instrumented and plain ($JOBS at a time)"
compile_all gen plain
for p in $PROGRAMS; do
  for b in gen plain plain-lld; do link "$p" "$b"; done
  "$BENCH_DIR/workload.sh" "$p" use.plain input
done

# ---- 1. profiles -----------------------------------------------------------
# The workload at full size on the instrumented build, every process writing
# its own raw profile (bzip2's workload is two processes). The profile is
# replaced only when it changed, so that unchanged objects are kept.
for p in $PROGRAMS; do
  load_program "$p"
  log "profiling $p"
  raw=$S/prof/$p.raw scratch=$TMP/use-profile.$p
  rm -rf "$raw" "$scratch" && mkdir -p "$raw" "$scratch"
  MIP_PROFILE_FILE=$raw/%p.mipraw RUNNER='' \
    prog_run "$BIN/$p/use.gen" "$WORK/$p" "$SIZE_FULL" "$scratch/out" "$scratch" ||
    die "$p: the workload failed on the instrumented build"
  record "$p" gen check "$(cksum <"$scratch/out" | awk '{ print $1 "-" $2 }')"
  "$MIPDATA" extract "$BIN/$p/use.gen" -o "$S/prof/$p.mipmap" >/dev/null
  rm -f "$S/prof/$p.new.mip"
  "$MIPDATA" create -p "$S/prof/$p.new.mip" "$S/prof/$p.mipmap"
  "$MIPDATA" merge -p "$S/prof/$p.new.mip" "$raw"/*.mipraw >"$S/prof/$p.merge.log"
  if cmp -s "$S/prof/$p.new.mip" "$(profile "$p")"; then
    rm "$S/prof/$p.new.mip"
  else
    mv "$S/prof/$p.new.mip" "$(profile "$p")"
  fi
  record "$p" gen raw_profiles "$(find "$raw" -name '*.mipraw' | wc -l)"
  "$MIPDATA" annotate -p "$(profile "$p")" --all --format json >"$S/out/$p.annotate.json"
  "$MIPDATA" order -p "$(profile "$p")" -o "$S/out/$p.order.txt" >"$S/out/$p.order.summary"
done

log "compiling with the profiles ($JOBS at a time)"
compile_all use order remarks
for p in $PROGRAMS; do
  for b in use order; do link "$p" "$b"; done
done

# Same output everywhere (this also warms the caches).
for p in $PROGRAMS; do
  want=$(awk -F'\t' -v p="$p" '$1 == p && $2 == "gen" && $3 == "check" { print $4 }' "$results")
  for b in plain use order; do
    sum=$("$BENCH_DIR/workload.sh" "$p" "use.$b" check)
    [ "$sum" = "$want" ] ||
      die "$p/$b computes another output than the instrumented build ($sum, not $want): see $TMP/$p.use.$b/out"
  done
  log "$p: same output in all builds ($want)"
done

# ---- 2. code in hot and unlikely sections ----------------------------------
HEX='function hex(s,   i, n) {
  s = tolower(s); n = 0
  for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
  return n
}'
# functions PROG BUILD: "KEY CLASS SIZE" per function of the program's
# objects, CLASS being hot, unlikely or text by the section it is in. KEY is
# the profile's: the name, or UNIT;NAME (source basename without .c) for a
# local one.
functions() {
  local o
  for o in $(objs "$1" "$2"); do
    "$OBJDUMP" -t "$o" | awk -F'\t' -v unit="$(basename "${o%.o}")" "$HEX"'
      {
        n = split($1, f, " ")
        if (f[n - 1] != "F" || f[n] !~ /^\.text/) next
        ng = split($2, g, " ") # SIZE [.hidden] NAME
        cls = f[n] ~ /^\.text\.hot(\.|$)/ ? "hot" : f[n] ~ /^\.text\.unlikely(\.|$)/ ? "unlikely" : "text"
        key = f[2] == "l" ? unit ";" g[ng] : g[ng]
        printf "%s %s %d\n", key, cls, hex(g[1])
      }'
  done
}
# section_bytes PROG BUILD: "TEXT HOT UNLIKELY", bytes of all .text* sections
# of the objects and of the hot and unlikely ones among them
section_bytes() {
  local o
  for o in $(objs "$1" "$2"); do
    "$READELF" -S -W "$o" | sed -n 's/^ *\[ *[0-9]*\] //p'
  done | awk "$HEX"'
    $1 ~ /^\.text(\.|$)/ {
      n = hex($5); t += n
      if ($1 ~ /^\.text\.hot(\.|$)/) h += n
      if ($1 ~ /^\.text\.unlikely(\.|$)/) u += n
    }
    END { printf "%d %d %d\n", t, h, u }'
}

for p in $PROGRAMS; do
  for b in plain use order; do
    functions "$p" "$b" >"$S/out/$p.$b.functions"
    read -r t h u <<<"$(section_bytes "$p" "$b")"
    record "$p" "$b" code_bytes "$t"
    record "$p" "$b" hot_bytes "$h"
    record "$p" "$b" unlikely_bytes "$u"
    record "$p" "$b" functions "$(wc -l <"$S/out/$p.$b.functions")"
    record "$p" "$b" hot_functions "$(awk '$2 == "hot"' "$S/out/$p.$b.functions" | wc -l)"
    record "$p" "$b" cold_functions "$(awk '$2 == "unlikely"' "$S/out/$p.$b.functions" | wc -l)"
    record "$p" "$b" binary_text "$("$SIZE" -A "$BIN/$p/use.$b" | awk '$1 == ".text" { print $2 }')"
  done
  # Functions the use build found changed since the profile (its warnings).
  record "$p" use stale "$(cat "$S/obj/$p/use"/*.o.log |
    sed -n 's/.*: \([0-9]*\) functions* of .* \(since the profile was taken\|from the profiled build\).*/\1/p' |
    awk '{ n += $1 } END { print n + 0 }')"
  # The compiler's remarks, from the remarks build.
  cat "$S/obj/$p/remarks"/*.o.log >"$S/out/$p.remarks"
  record "$p" use remark_hot "$(grep -c 'remark: marked hot' "$S/out/$p.remarks" || true)"
  record "$p" use remark_cold "$(grep -c 'remark: marked cold' "$S/out/$p.remarks" || true)"
  record "$p" use remark_weights "$(grep -c 'remark: weighed' "$S/out/$p.remarks" || true)"
  record "$p" use remark_missed "$(grep -c '\[-Rpass-missed=mip\]' "$S/out/$p.remarks" || true)"
  grep '\[-Rpass-missed=mip\]' "$S/out/$p.remarks" | sed 's/.*remark: //; s/:.*//' |
    sort | uniq -c | sort -rn >"$S/out/$p.missed" || true
  # The profile's decisions, under the same keys.
  jq -r '.functions[] | [(if .local then (.unit | sub(".*/"; "") | sub("\\.c$"; "")) + ";" + .name
      else .name end), .decision, .calls] | @tsv' "$S/out/$p.annotate.json" >"$S/out/$p.decisions"
done

# ---- 3. run time ------------------------------------------------------------
for r in $(seq 1 "$RUNS"); do
  log "timing run $r of $RUNS"
  for p in $PROGRAMS; do
    for b in $(rotated "$r" plain use order); do
      # bench/workload.sh under cputime: its wall time, and the user and
      # system time of the workload's processes (plus the script's own).
      m=$("$S/cputime" "$S/out/time.log" "$BENCH_DIR/workload.sh" "$p" "use.$b" time) ||
        { cat "$S/out/time.log" >&2; die "$p/$b: timed run failed"; }
      record "$p" "$b" time "$(tail -n 1 "$S/out/time.log")"
      record "$p" "$b" cpu "$(echo "$m" | awk '{ printf "%.4f\n", ($1 + $2) / 1e6 }')"
    done
  done
done

log "counting instructions with callgrind ($JOBS at a time)"
for p in $PROGRAMS; do for b in plain use order; do echo "$p use.$b callgrind"; done; done |
  xargs -P "$JOBS" -n 3 "$BENCH_DIR/workload.sh" >/dev/null || die "a callgrind run failed (see above)"
for p in $PROGRAMS; do
  want=
  for b in plain use order; do
    read -r sum ir <"$OUT/callgrind/$p.use.$b/result"
    record "$p" "$b" ir "$ir"
    [ -z "$want" ] && want=$sum
    [ "$sum" = "$want" ] || die "$p/$b computes another output under callgrind than $p/plain"
  done
  # Functions that ran under callgrind (plain build, every process).
  # A function is named at its first fn= or cfn= line, later by its number.
  awk '
    /^c?fn=\(/ {
      fn = substr($0, 1, 3) == "fn="
      id = $0; sub(/^c?fn=\(/, "", id); rest = id; sub(/\).*/, "", id)
      sub(/^[0-9]*\) ?/, "", rest)
      if (rest != "") name[FILENAME, id] = rest
      if (fn) ran[FILENAME, id] = 1
    }
    END { for (k in ran) print name[k] }' "$OUT/callgrind/$p.use.plain"/callgrind.out.* |
    sort -u >"$S/out/$p.ran"
done

# ---- 4. start-up page faults -----------------------------------------------
# startup_args PROG BINARY: sets ARGS to a start-up-only command
startup_args() {
  case $1 in
    sqlite3) ARGS=("$2" :memory: 'select 1;') ;;
    lua) ARGS=("$2" -e '') ;;
    bzip2) ARGS=("$2" -c "$S/work/small.txt") ;;
  esac
}
startup_text() {
  case $1 in
    sqlite3) echo "\`sqlite3 :memory: 'select 1;'\`" ;;
    lua) echo "\`lua -e ''\`" ;;
    bzip2) echo "\`bzip2 -c small.txt\` (4 KiB)" ;;
  esac
}
case " $PROGRAMS " in
  *" bzip2 "*) (load_program bzip2 && head -c 4096 "$WORK/bzip2/input-$SIZE_CG") >"$S/work/small.txt" ;;
esac
faults=$S/out/faults.tsv # PROG BUILD STATE minflt majflt wall_us cached rss_kb
: >"$faults"
LAYOUTS="plain plain-lld use order"
measure() { # PROG BUILD STATE
  local m opts=()
  [ "$3" = rss ] && opts=(-t)
  startup_args "$1" "$BIN/$1/use.$2"
  m=$("$S/faults" "${opts[@]}" -i /dev/null -o "$S/out/startup.$1.$2.txt" -- "${ARGS[@]}")
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${m// /$'\t'}" >>"$faults"
}
log "start-up page faults: $SRUNS runs per program and build"
for p in $PROGRAMS; do
  for b in $LAYOUTS; do measure "$p" "$b" settle; done
  for b in $LAYOUTS; do
    cmp -s "$S/out/startup.$p.plain.txt" "$S/out/startup.$p.$b.txt" ||
      die "$p/$b prints something else at start-up than $p/plain"
  done
done
for r in $(seq 1 "$SRUNS"); do
  for p in $PROGRAMS; do
    # shellcheck disable=SC2086 # the list is meant to be split
    for b in $(rotated "$r" $LAYOUTS); do
      measure "$p" "$b" warm
      if [ "$r" -le "$RSS_RUNS" ]; then measure "$p" "$b" rss; fi
    done
  done
done

# ---- 5. compile time -------------------------------------------------------
# One compile at a time: clang, clang with the plugin and no profile,
# mipcc -fmip-use; the three back to back for each source, in a rotating
# order, round after round.
ctimes=$S/out/compile.tsv # PROG SRC COMPILER ROUND user_us sys_us wall_us
: >"$ctimes"
: >"$S/out/usepass.tsv" # PROG SRC µs in MIP's passes
mkdir -p "$S/ctime"
ccmd() { # PROG COMPILER SRC: sets CMD
  load_program "$1"
  case $2 in
    clang) CMD=("$CLANG") ;;
    plugin) CMD=("$CLANG" -fplugin="$PLUGIN") ;;
    use) CMD=("$MIPCC" -fmip-use="$(profile "$1")") ;;
  esac
  # shellcheck disable=SC2206
  CMD+=(-O2 $PROG_CFLAGS -c "$3" -o "$S/ctime/out.o")
}
COMPILERS="clang plugin use"
# ctime_round ROUND SRC...: each source of the current program compiled by
# the three compilers, back to back, starting with another one each time
ctime_round() {
  local r=$1 src name i k m
  shift
  for src in "$@"; do
    n=$((n + 1))
    name=$src
    [ "$src" = "$S/work/empty.c" ] && name=-
    for i in 0 1 2; do
      k=$(((i + r + n) % 3))
      k=${COMPILERS_A[k]}
      ccmd "$p" "$k" "$src"
      m=$(cd "$PROG_DIR" && "$S/cputime" "$S/ctime/log" "${CMD[@]}") ||
        { tail -n 20 "$S/ctime/log" >&2; die "compiling $p/$src with $k failed"; }
      printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$name" "$k" "$r" "${m// /$'\t'}" >>"$ctimes"
    done
  done
}
read -r -a COMPILERS_A <<<"$COMPILERS"
ntu=0
for p in $PROGRAMS; do load_program "$p" && ntu=$((ntu + $(echo "$PROG_SRCS" | wc -w))); done
log "compile times: $ntu sources, 3 compilers, $CRUNS rounds, one compile at a time"
n=0
for r in $(seq 1 "$CRUNS"); do
  log "compile round $r of $CRUNS"
  for p in $PROGRAMS; do
    load_program "$p"
    # shellcheck disable=SC2086 # the list is meant to be split
    ctime_round "$r" $PROG_SRCS
  done
done
# What a compile costs whatever the source: a one-line source (recorded as
# "-"), with each program's flags and profile, many times.
printf 'int bench_use_empty;\n' >"$S/work/empty.c"
ERUNS=$((4 * CRUNS + 1))
log "compile times of an empty source: $ERUNS rounds"
for r in $(seq 1 "$ERUNS"); do
  for p in $PROGRAMS; do
    load_program "$p"
    ctime_round "$r" "$S/work/empty.c"
  done
done

# The profile-use pass's own time, from -ftime-report (one compile each).
for p in $PROGRAMS; do
  load_program "$p"
  for src in $PROG_SRCS; do
    ccmd "$p" use "$src"
    t=$(cd "$PROG_DIR" && "${CMD[@]}" -ftime-report 2>&1 >/dev/null | awk '
      / mip::/ { gsub(/\([^)]*\)/, ""); s += $3 } # user+system, seconds
      END { printf "%d\n", s * 1e6 }')
    printf '%s\t%s\t%s\n' "$p" "$src" "$t" >>"$S/out/usepass.tsv"
  done
done

# ---- hot and cold allocations and variables (hotcold.sh, staticdata.sh) ----
# optional NAME: runs bench/use/NAME.sh, if it is there, into
# out/NAME.md; prints none, ok or failed
optional() {
  [ -f "$HERE/$1.sh" ] || { echo none; return; }
  log "running bench/use/$1.sh"
  if bash "$HERE/$1.sh" >"$S/out/$1.md" 2>"$S/out/$1.log"; then
    echo ok
  else
    tail -n 20 "$S/out/$1.log" >&2
    log "bench/use/$1.sh failed (log: $S/out/$1.log)"
    echo failed
  fi
}
export LLVM_DIR CLANG BUILD PLUGIN RT_LIB MIPCC MIPDATA BENCH_JOBS=$JOBS BENCH_USE_RUNS=$RUNS
hotcold=$(optional hotcold)
staticdata=$(optional staticdata)

elapsed=$(($(date +%s) - start))
PROGRAMS=$PROGRAMS RUNS=$RUNS SRUNS=$SRUNS CRUNS=$CRUNS ERUNS=$ERUNS RSS_RUNS=$RSS_RUNS HOTCOLD=$hotcold \
  STATICDATA=$staticdata \
  "$HERE/report.sh" "$elapsed" >"$REPORT"
cat "$REPORT"
log "report written to $REPORT (raw numbers: $S/out)"
[ "$hotcold" != failed ] || die "bench/use/hotcold.sh failed (log: $S/out/hotcold.log)"
[ "$staticdata" != failed ] || die "bench/use/staticdata.sh failed (log: $S/out/staticdata.log)"
