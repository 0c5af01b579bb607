# Shared by the end-to-end, driver, bad-input and allocator test scripts
# (test/README.md). Source it after setting BUILD:
#   BUILD=$(cd "$1" && pwd)
#   . "$(dirname "$0")/lib.sh"
# It sets -eu, the tools' paths, one pass/fail tally per suite, and the
# helpers below: results, the profile pipeline (build, run, extract,
# create, merge, show), and MIP files read through `mipdata dump`. The
# helpers fail as a whole (&&), so they serve in conditions too, where
# -e does not act.
set -eu

# MIP_LLVM=N in the environment: the suite runs against LLVM release N,
# as mipcc does then (docs/llvm.md): its tools, its clang, its plugin.
# Unset: the newest the build has, as for mipcc.
newest_llvm() {
  ls -d "$BUILD"/lib/mip/llvm-*/libmip.so 2>/dev/null | sed 's|.*/llvm-\([0-9]*\)/.*|\1|' |
    sort -n | tail -n 1
}
LLVM_RELEASE=${MIP_LLVM:-$(newest_llvm)}
LLVM_RELEASE=${LLVM_RELEASE:-19}
LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-$LLVM_RELEASE/bin}
MIP_PLUGIN=$BUILD/lib/mip/llvm-$LLVM_RELEASE/libmip.so
[ -e "$MIP_PLUGIN" ] || MIP_PLUGIN=$BUILD/lib/mip/libmip.so
# IR written for opaque pointers (ptr), which LLVM 14 reads only when
# told: the flags its llc, opt and clang need. Its opt also parses its
# options before it loads pass plugins: -load has it load the plugin first,
# so that the plugin's own options (-mip-*) are known.
IR_FLAGS= OPT_FLAGS= CLANG_IR_FLAGS=
if [ "$LLVM_RELEASE" -lt 15 ]; then
  IR_FLAGS=-opaque-pointers CLANG_IR_FLAGS="-mllvm -opaque-pointers"
  OPT_FLAGS="$IR_FLAGS -load=$MIP_PLUGIN"
fi
CLANG=$LLVM_BIN/clang
CLANGXX=$LLVM_BIN/clang++
MIPCC=$BUILD/bin/mipcc
MIPCXX=$BUILD/bin/mipc++
MIPDATA=$BUILD/bin/mipdata
HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=$(basename "$(dirname "$0")")/$(basename "$0" .sh)
SUITE_START=$(date +%s)

# ---- results -----------------------------------------------------------------
# Every check goes through pass or fail, so that finish can count them.

failures=0
checks=0
last_check=

pass() { checks=$((checks + 1)) last_check=$*; echo "ok   $*"; }
fail() {
  checks=$((checks + 1)) failures=$((failures + 1)) last_check=$*
  echo "FAIL $*"
}

# A suite stopped before finish by a failing command (-e), or by an exit
# of its own with a failure's status, says so in a FAIL line of its own,
# after the last check it made: without it a run's log would only end
# there, with no line naming the suite. Then make_tmp's directory goes
# (SUITE_TMP: a suite with a directory of its own sets it too).
SUITE_DONE= SUITE_TMP=
suite_exit() {
  suite_status=$?
  if [ "$suite_status" -ne 0 ] && [ -z "$SUITE_DONE" ]; then
    echo "FAIL $SUITE: stopped by a failing command (exit status $suite_status) after $checks checks${last_check:+, the last: $last_check}"
  fi
  if [ -n "$SUITE_TMP" ] && [ -z "${KEEP_TMP:-}" ]; then rm -rf "$SUITE_TMP"; fi
  exit "$suite_status"
}
trap suite_exit EXIT

# check NAME COMMAND...: runs COMMAND; ok when it succeeds. On a failure,
# the first 20 lines of $CHECK_LOG (when a suite sets it: where its
# commands leave their stderr) say why; the log is emptied after each.
CHECK_LOG=${CHECK_LOG:-}
check() {
  check_name=$1
  shift
  if "$@"; then
    pass "$check_name"
  else
    fail "$check_name"
    if [ -n "$CHECK_LOG" ] && [ -s "$CHECK_LOG" ]; then
      sed 's/^/     | /' "$CHECK_LOG" | head -20
    fi
  fi
  if [ -n "$CHECK_LOG" ]; then : >"$CHECK_LOG"; fi
}

# expect_eq NAME GOT WANT: GOT is WANT, to the letter.
expect_eq() {
  if [ "$2" = "$3" ]; then
    pass "$1: $2"
  else
    fail "$1: got '$2', want '$3'"
  fi
}

# The suite's closing lines: its checks and how long it took. Fails when
# any check did.
finish() {
  SUITE_DONE=1
  echo "$SUITE: $((checks - failures))/$checks checks passed in $(($(date +%s) - SUITE_START)) s"
  [ "$failures" -eq 0 ]
}

# A temporary directory removed on exit, unless KEEP_TMP is set.
make_tmp() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/mip-test.XXXXXX")
  SUITE_TMP=$TMP
}

# ---- the pipeline ---------------------------------------------------------------

# mip_build MODES OUT ARGS...: compiles and links ARGS (sources, flags) with
# -fmip-generate=MODES into OUT, with mipc++ when a source is C++.
mip_build() {
  build_modes=$1 build_out=$2
  shift 2
  build_driver=$MIPCC
  for build_arg in "$@"; do
    case $build_arg in *.cpp | *.cc | *.cxx) build_driver=$MIPCXX ;; esac
  done
  "$build_driver" -fmip-generate="$build_modes" "$@" -o "$build_out"
}

# mip_runs PREFIX COMMAND ARGS...: runs COMMAND once per ARGS, each a list
# of words; run N writes PREFIX.N.mipraw and its stdout to PREFIX.N.out.
mip_runs() {
  runs_prefix=$1 runs_command=$2
  shift 2
  runs_n=0
  for runs_args in "$@"; do
    runs_n=$((runs_n + 1))
    # shellcheck disable=SC2086 # each run's arguments are words
    MIP_PROFILE_FILE=$runs_prefix.$runs_n.mipraw "$runs_command" $runs_args \
      >"$runs_prefix.$runs_n.out" || return
  done
}

# mip_create BINARY PROFILE: BINARY's map extracted into PROFILE's .mipmap
# (PROFILE without its .mip), and PROFILE created from it, with no runs.
mip_create() {
  "$MIPDATA" extract "$1" -o "${2%.mip}.mipmap" >/dev/null &&
    "$MIPDATA" create -p "$2" "${2%.mip}.mipmap"
}

# mip_profile [--debug] BINARY PROFILE RAW...: mip_create, then the raw
# profiles merged (--debug: symbolized with BINARY, for heap data).
mip_profile() {
  profile_debug=
  if [ "$1" = --debug ]; then
    profile_debug=$2
    shift
  fi
  profile_binary=$1 profile_out=$2
  shift 2
  mip_create "$profile_binary" "$profile_out" &&
    "$MIPDATA" merge -p "$profile_out" ${profile_debug:+--debug "$profile_debug"} "$@"
}

# mip_show PROFILE [ARGS...]: `mipdata show --format json` (ARGS: --heap,
# --debug BINARY, ...)
mip_show() {
  show_profile=$1
  shift
  "$MIPDATA" show -p "$show_profile" "$@" --format json
}

# mip_field JSON FUNCTION FIELD: one field of one function of a show JSON
mip_field() {
  jq -r --arg n "$2" --arg f "$3" '.functions[] | select(.name == $n) | .[$f]' "$1"
}

# ---- allocation hints ------------------------------------------------------------

# hint_stats COLD HOT NOTCOLD PLAIN SIZE: the line libmip_alloc.a prints at
# exit under MIP_ALLOC_STATS=1 (docs/alloc.md) for that many calls of each
# kind, every one of SIZE bytes
hint_stats() {
  printf 'mip: allocation hints: cold %s calls %s bytes, hot %s calls %s bytes, notcold %s calls %s bytes, plain %s calls %s bytes\n' \
    "$1" $(($1 * $5)) "$2" $(($2 * $5)) "$3" $(($3 * $5)) "$4" $(($4 * $5))
}

# hint_stats_of FILE: the line hint_stats gives, from a program's stderr
hint_stats_of() { grep '^mip: allocation hints: ' "$1" || :; }

# ---- MIP files, read through mipdata dump ---------------------------------------
# The layouts are defined once (include/mip/layout/*.inc); tests read and
# write the files' fields where `mipdata dump` says they are.

# mip_dump FILE: `mipdata dump --format json`
mip_dump() { "$MIPDATA" dump "$1" --format json; }

# dump_value FILE FILTER: what the jq FILTER gives of FILE's dump
dump_value() { mip_dump "$1" | jq -r "$2"; }

# dump_offset FILE RECORD FIELD: where FIELD of the record the jq filter
# RECORD selects lies in FILE (the record's offset plus the field's, from
# the layout the dump names).
dump_offset() {
  mip_dump "$1" | jq -r --arg f "$3" "($2) as \$r | \$r.at +
    (.layouts[\$r.layout].fields[] | select(.name == \$f) | .offset)"
}

# raw_build_id RAW: the hex build-id a raw profile carries, "" when none
raw_build_id() {
  dump_value "$1" '.header.build_id[0:2 * .header.build_id_size]'
}

# truncated FILE BYTES OUT: the first BYTES bytes of FILE
truncated() {
  cp "$1" "$3"
  truncate -s "$2" "$3"
}

# with_byte FILE OFFSET OCTAL OUT: a copy of FILE with the byte at OFFSET
# replaced
with_byte() {
  cp "$1" "$4"
  printf "\\$3" | dd of="$4" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# copy_bytes FILE FROM TO COUNT OUT: a copy of FILE with COUNT bytes from
# offset FROM written again at offset TO
copy_bytes() {
  cp "$1" "$5"
  dd if="$1" of="$5" bs=1 skip="$2" seek="$3" count="$4" conv=notrunc 2>/dev/null
}

# ---- heap profiles against DHAT --------------------------------------------------

# heap_run NAME ARGS...: runs ./NAME with ARGS into NAME.mip (NAME's own
# debug information), its stdout in NAME.out and show --heap in NAME.json
heap_run() {
  heap_name=$1
  shift
  MIP_PROFILE_FILE=$heap_name.mipraw "./$heap_name" "$@" >"$heap_name.out"
  mip_profile --debug "$heap_name" "$heap_name.mip" "$heap_name.mipraw"
  mip_show "$heap_name.mip" --heap >"$heap_name.json"
}

# heap_contexts JSON: each allocation context of show --heap's JSON, one
# line: its frames, blocks, bytes, reallocations, blocks and bytes live at
# exit; sorted.
heap_contexts() {
  jq -c '.heap[] | [[.frames[].function], .AllocCount, .TotalSize,
                    .ReallocCount, .LiveAtExitCount, .LiveAtExitSize]' "$1" | sort
}

# expect_same_files MIN WANT GOT PASS FAIL: passes PASS (its %n: WANT's
# number of lines) when GOT is WANT and WANT has MIN lines or more; else
# fails FAIL and shows the difference (< WANT, > GOT).
expect_same_files() {
  local n
  n=$(wc -l <"$2")
  if [ "$n" -ge "$1" ] && cmp -s "$2" "$3"; then
    pass "$(printf '%s' "$4" | sed "s/%n/$n/g")"
  else
    fail "$5:"
    diff "$2" "$3" | sed 's/^/     /'
  fi
}

# expect_same_contexts WHAT WANT WANT.json GOT GOT.json: GOT's contexts
# (heap_contexts) are WANT's, at least 3 of them.
expect_same_contexts() {
  heap_contexts "$3" >"$3.contexts"
  heap_contexts "$5" >"$5.contexts"
  expect_same_files 3 "$3.contexts" "$5.contexts" \
    "$1: $2's %n contexts, blocks, bytes and live blocks" \
    "$1: contexts differ from $2's (< $2, > $4)"
}

# expect_dhat_sites LABEL JSON DHAT_JSON SOURCE_DIR: passes when the
# profile's blocks and bytes per site (show --heap JSON) equal DHAT's, at
# three sites at least; otherwise shows the difference
expect_dhat_sites() {
  mip_sites "$2" >"$2.sites"
  dhat_sites "$3" "$4" >"$3.sites"
  expect_same_files 3 "$3.sites" "$2.sites" \
    "$1: blocks and bytes equal DHAT's at all %n sites" \
    "$1: sites differ from DHAT's (< DHAT, > MIP)"
}

# mip_sites JSON...: per allocation site "file:line blocks bytes", from
# the contexts of show --heap --format json (of one profile or several).
mip_sites() { mip_sites_by AllocCount TotalSize "$@"; }

# mip_sites_by BLOCKS BYTES JSON...: the same with two other MemInfoBlock
# fields (AtPeakCount AtPeakSize: at the global peak)
mip_sites_by() {
  blocks_field=$1 bytes_field=$2
  shift 2
  jq -r --arg n "$blocks_field" --arg b "$bytes_field" '.heap[] | select(.site != null)
         | "\(.site.file | split("/") | last):\(.site.line) \(.[$n]) \(.[$b])"' "$@" |
    awk '{ n[$1] += $2; b[$1] += $3 } END { for (s in n) print s, n[s], b[s] }' | sort
}

# dhat_sites DHAT_JSON SOURCE_DIR: the same from valgrind's DHAT: each
# program point under the first frame in one of the files of SOURCE_DIR
# ("0x...: function (file.c:12)"; valgrind names the file with part of
# its directory when the sources and the build directory share a prefix,
# such as /tmp: only the name counts), keeping the lines that call an
# allocator (DHAT also sees libc's own allocations, under the lines that
# call printf and the like).
dhat_sites() { dhat_sites_by tbk tb "$@"; }

# dhat_sites_by BLOCKS BYTES DHAT_JSON SOURCE_DIR: the same with two other
# fields of DHAT's program points (gbk gb: at the global peak, t-gmax)
dhat_sites_by() {
  blocks_field=$1 bytes_field=$2
  shift 2
  ours=$(cd "$2" && ls | tr '\n' '|' | sed 's/|$//; s/\./\\./g')
  jq -r --arg ours "($ours):[0-9]+\\)$" --arg n "$blocks_field" --arg b "$bytes_field" '.ftbl as $f | .pps[]
         | "\(.[$n]) \(.[$b]) " + ([.fs[] | $f[.] | select(test($ours))] | first // "-")' "$1" |
    sed -n 's/^\([0-9]*\) \([0-9]*\) .*(\([^()]*\/\)\{0,1\}\([^()/]*:[0-9]*\))$/\4 \1 \2/p' |
    awk '{ n[$1] += $2; b[$1] += $3 } END { for (s in n) print s, n[s], b[s] }' |
    sort >"$1.all"
  while read -r site blocks bytes; do
    file=${site%:*} line=${site#*:}
    if sed -n "${line}p" "$2/$file" | grep -Eq 'alloc|strn?dup|new |new\(|memalign'; then
      echo "$site $blocks $bytes"
    fi
  done <"$1.all"
}
