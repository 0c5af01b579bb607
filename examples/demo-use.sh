#!/bin/bash
# Rebuilding with a profile, end to end (make demo-use):
#   1. examples/hotcold (C, then C++): profile the heap, see what the
#      profile decides, rebuild with -fmip-use, and compare the output and
#      the time with and without the allocation hints;
#   2. examples/startup: profile the start-up, rebuild with -fmip-order,
#      and compare where the start-up code lies.
#   examples/demo-use.sh BUILD_DIR
set -eu
BUILD=$(cd "$1" && pwd)
EXAMPLES=$(cd "$(dirname "$0")" && pwd)
WORK=$BUILD/demo-use
RUNS=${DEMO_RUNS:-3}
LLVM_DIR=${LLVM_DIR:-/usr/lib/llvm-19}
rm -rf "$WORK"
mkdir -p "$WORK"
PATH=$BUILD/bin:$LLVM_DIR/bin:$PATH

# The thresholds for runs of a few seconds (the defaults, 200 s and 1000
# accesses per byte per second, are for long-running servers).
THRESHOLDS="-fmip-cold-min-lifetime=0.1 -fmip-hot-min-density=10"
ANNOTATE_THRESHOLDS="--cold-min-lifetime 0.1 --hot-min-density 10"

# step COMMAND: shows it, runs it; file names in its output are shown
# relative to the directory it runs in
step() {
  printf '$ %s\n' "$*"
  bash -o pipefail -c "$*" 2>&1 | sed -e "s|$PWD/||g" -e 's|\([ /]\)\./|\1|g' -e 's|^\./||'
}
section() { printf '\n== %s ==\n' "$*"; }
note() { printf '# %s\n' "$*"; }

# seconds CMD...: the wall time of one run, in seconds (output discarded)
seconds() {
  local t0 t1
  t0=$(date +%s%N)
  "$@" >/dev/null
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000)) | awk '{ printf "%.2f\n", $1 / 1000 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# hinted_calls BINARY: each call of a hinted allocation function, with the
# function it is in and the hint byte it passes (the second argument)
hinted_calls() {
  objdump -d --no-show-raw-insn "$1" | awk '
    function hex(s,  i, v) {
      v = 0; s = tolower(s); sub(/^0x/, "", s)
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v }
    /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); hint = "" }
    /mov +\$0x[0-9a-f]+,%esi/ { split($0, m, "$"); split(m[2], v, ","); hint = hex(v[1]) }
    /call.*<(__mip_[a-z_]*_hint|_Zn[wa][^>]*__hot_cold_t)>/ {
      callee = $NF; gsub(/[<>]/, "", callee)
      what = hint == 1 ? "cold" : hint == 254 ? "hot" : "?"
      printf "  in %s: %s, hint %s (%s)\n", fn, callee, hint, what }'
}

# timings LABEL NAME COMMAND [NAME COMMAND]...: the wall time of each
# command, run in turn $RUNS times, the median of each
timings() {
  local label=$1
  shift
  local -a names cmds
  while [ $# -gt 0 ]; do
    names+=("$1")
    cmds+=("$2")
    shift 2
  done
  local i r
  for i in "${!cmds[@]}"; do : >"$WORK/t.$i"; done
  for ((r = 0; r < RUNS; r++)); do
    for i in "${!cmds[@]}"; do
      # shellcheck disable=SC2086 # the commands are meant to be split
      seconds ${cmds[$i]} >>"$WORK/t.$i"
    done
  done
  note "$label: wall time, median of $RUNS runs"
  for i in "${!cmds[@]}"; do
    printf '  %-48s %5s s\n' "${names[$i]}" "$(median <"$WORK/t.$i")"
  done
}

# same_output: hotcold-plain, hotcold and hotcold with MIP_ALLOC_HINTS=0
# print the same; stops the demo if not.
same_output() {
  ./hotcold-plain >plain.out
  ./hotcold >use.out
  MIP_ALLOC_HINTS=0 ./hotcold >nohints.out
  if cmp -s plain.out use.out && cmp -s plain.out nohints.out; then
    note "the same output from all three: $(cat use.out)"
  else
    note "OUTPUTS DIFFER:"
    diff plain.out use.out || true
    diff plain.out nohints.out || true
    exit 1
  fi
}

# ---- 1. hotcold: allocation hints ------------------------------------------
section "hotcold: hot and cold allocations (examples/hotcold)"
cd "$WORK"
cp -r "$EXAMPLES/hotcold" hotcold
cd hotcold
SRCS="main.c table.c journal.c"
note "profiled with jemalloc, the allocator the rebuild runs with"
step "mipcc -fmip-generate=counts,order,blocks,edges,heap -O2 -g $SRCS -o hotcold-gen -ljemalloc"
step "MIP_PROFILE_FILE=hotcold.mipraw ./hotcold-gen"
step "mipdata extract hotcold-gen -o hotcold.mipmap"
step "mipdata create -p hotcold.mip hotcold.mipmap"
step "mipdata merge -p hotcold.mip --debug hotcold-gen hotcold.mipraw"
step "mipdata annotate -p hotcold.mip --debug hotcold-gen $ANNOTATE_THRESHOLDS | sed '/^Contexts/,\$d'"
step "mipcc -fmip-use=hotcold.mip -fmip-order $THRESHOLDS -Rpass=mip -O2 -g $SRCS -o hotcold 2>&1 | grep -E 'marked|allocation'"
step "clang -O2 -g $SRCS -o hotcold-plain"
note "the allocation calls the profile rewrote:"
hinted_calls hotcold
same_output
timings "hotcold" \
  "hotcold, hints (hot and cold arenas)" "./hotcold" \
  "hotcold, MIP_ALLOC_HINTS=0 (jemalloc, no hints)" "env MIP_ALLOC_HINTS=0 ./hotcold" \
  "hotcold-plain (clang, glibc malloc)" "./hotcold-plain"

section "hotcold++: the same with new and delete (examples/hotcold/cxx)"
cd cxx
SRCS="main.cpp journal.cpp"
step "mipc++ -fmip-generate=counts,order,blocks,edges,heap -O2 -g $SRCS -o hotcold-gen -ljemalloc"
step "MIP_PROFILE_FILE=hotcold.mipraw ./hotcold-gen"
step "mipdata extract hotcold-gen -o hotcold.mipmap && mipdata create -p hotcold.mip hotcold.mipmap"
step "mipdata merge -p hotcold.mip --debug hotcold-gen hotcold.mipraw"
step "mipc++ -fmip-use=hotcold.mip -fmip-order $THRESHOLDS -Rpass=mip -O2 -g $SRCS -o hotcold 2>&1 | grep -E 'allocation'"
step "clang++ -O2 -g $SRCS -o hotcold-plain"
note "the allocation calls the profile rewrote:"
hinted_calls hotcold | c++filt
same_output
timings "hotcold++" \
  "hotcold++, hints" "./hotcold" \
  "hotcold++, MIP_ALLOC_HINTS=0" "env MIP_ALLOC_HINTS=0 ./hotcold" \
  "hotcold++ plain (clang++, glibc malloc)" "./hotcold-plain"

# ---- 2. startup: function order --------------------------------------------
section "startup: laid out in the order it runs (examples/startup)"
cd "$WORK"
cp -r "$EXAMPLES/startup" startup
cd startup
SRCS="codec.c main.c numbers.c store.c text.c"
OBJS="codec.o main.o numbers.o store.o text.o"
step "mipcc -fmip-generate=counts,order,edges -O2 $SRCS -o startup-gen"
step "MIP_PROFILE_FILE=startup.mipraw ./startup-gen"
step "mipdata extract startup-gen -o startup.mipmap && mipdata create -p startup.mip startup.mipmap"
step "mipdata merge -p startup.mip startup.mipraw"
step "mipdata order -p startup.mip -o startup.order"
# Compiled, then linked: a link that compiles too would get jemalloc, in
# case the compile made hinted calls (this profile has no heap data).
step "for f in $SRCS; do mipcc -fmip-use=startup.mip -fmip-order -O2 -c \$f; done"
step "mipcc -fmip-use=startup.mip -fmip-order $OBJS -o startup"
step "clang -O2 -fuse-ld=lld $SRCS -o startup-default"
note "the first functions of each, by address (nm -n):"
first_functions() {
  nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 !~ /^(_init|_start|deregister_tm_clones|register_tm_clones|__do_global_dtors_aux|frame_dummy)$/ { printf " %s", $3; if (++n == 8) exit }'
}
printf '  %-16s%s ...\n' "startup-default:" "$(first_functions startup-default)"
printf '  %-16s%s ...\n' "startup:" "$(first_functions startup)"
# Which text pages hold the functions that ran at start-up
mipdata show -p startup.mip --covered --format json | jq -r '.functions[].name' >ran.txt
startup_pages() {
  nm -S --radix=d "$1" | awk 'NR == FNR { ran[$1] = 1; next }
    ($3 == "t" || $3 == "T") && ($4 in ran) {
      lo = $1 + 0; hi = $1 + $2 - 1; n++; bytes += $2
      for (p = int(lo / 4096); p <= int(hi / 4096); p++) pages[p] = 1
      if (!first || lo < first) first = lo
      if (hi > last) last = hi }
    END { c = 0; for (p in pages) c++
          printf "%d functions, %d bytes, on %d pages, spread over %d bytes\n", n, bytes, c, last - first + 1 }' ran.txt -
}
note "the code that ran at start-up:"
printf '  %-16s %s\n' "startup-default:" "$(startup_pages startup-default)"
printf '  %-16s %s\n' "startup:" "$(startup_pages startup)"
./startup-default >default.out
./startup >use.out
cmp -s default.out use.out && note "the same output: $(cat use.out)" ||
  { note "OUTPUTS DIFFER"; diff default.out use.out; exit 1; }
faults() { for ((r = 0; r < 5; r++)); do "./$1" --faults 2>&1 >/dev/null | awk '{ print $1 }'; done | median; }
note "minor page faults of a run, median of 5: startup-default $(faults startup-default), startup $(faults startup)"
note "(the kernel maps text up to 64 KiB at a time: in a program this small the layout"
note "changes the pages used, not the faults; make bench-startup measures them on sqlite3)"
printf '\nFiles are in %s\n' "$WORK"
