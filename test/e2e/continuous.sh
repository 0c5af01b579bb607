#!/bin/sh
# Continuous mode (%c in MIP_PROFILE_FILE): every image's counters are
# mapped onto its raw profile, so a process that dies in any way leaves
# the counts of that instant. The ground truth is the program's own count
# of its calls and of the order of its first calls (progs/continuous/
# truth.c, not instrumented): after kill -9, abort() and a crash the
# profile must hold exactly those, in every image (the program, a library
# it links, a plug-in it dlopens), with blocks and call edges; a forked
# child counts into its own file, never its parent's; a file that cannot be
# made costs one line per image and the profile is written at exit; a
# normal exit gives the same profile as the default mode; heap payloads,
# written at each dump, survive a kill after it. Images linked without
# mipcc -fmip-continuous carry no page padding and say so in one line,
# written at exit; a pool pattern (%Nm) with %c pools.
#   test/e2e/continuous.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/continuous
INCLUDE=$HERE/../../include
make_tmp
cd "$TMP"

"$CLANG" -O2 -fPIC -fvisibility=hidden -c "$PROGS/truth.c" -o truth.o
MODES="-fmip-generate=all -fmip-continuous -fmip-pool"
"$MIPCC" $MODES -O2 -g -shared -fPIC "$PROGS/lib.c" truth.o -o libcw.so
"$MIPCC" $MODES -O2 -g -shared -fPIC "$PROGS/plug.c" truth.o -o libplug.so
"$MIPCC" $MODES -O2 -g "$PROGS/main.c" "$PROGS/work.c" truth.o -L. -lcw \
  -Wl,-rpath,'$ORIGIN' -ldl -o cont
# The same program linked without -fmip-continuous (its library with it)
"$MIPCC" -fmip-generate=all -O2 -g "$PROGS/main.c" "$PROGS/work.c" truth.o \
  -L. -lcw -Wl,-rpath,'$ORIGIN' -ldl -o plain
for image in cont plain libcw.so libplug.so; do
  "$MIPDATA" extract "$image" -o "$image.mipmap" >/dev/null
  "$MIPDATA" create -p "$image.empty.mip" "$image.mipmap"
done
id16() { readelf -n "$1" | sed -n 's/.*Build ID: //p' | cut -c1-16; }
LIB_ID=$(id16 libcw.so)
PLUG_ID=$(id16 libplug.so)

check() { # WHAT GOT WANT
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi
}

# json IMAGE RAW: the profile of one run, as show prints it
json() {
  cp "$1.empty.mip" "$1.run.mip"
  "$MIPDATA" merge -p "$1.run.mip" -- "$2" >/dev/null &&
    "$MIPDATA" show -p "$1.run.mip" --debug "$1" --format json
}

# calls IMAGE RAW: "function calls rank" of every function that ran, and
# "never calls covered_runs", in the program's truth format
calls() {
  json "$1" "$2" | jq -r '.functions[] | select(.calls > 0 or .name == "never")
    | if .name == "never" then "never \(.calls) \(.covered_runs)"
      else "\(.name) \(.calls) \(.order)" end' | sort
}

# want TRUTH [never]: the truth file sorted, with never's line if asked
want() {
  { cat "$1"; [ -z "${2:-}" ] || echo "never 0 0"; } | sort
}

# edges IMAGE RAW CALLERS TRUTH: the sampled edges against what the
# truth's call counts give: each callee has the one caller CALLERS names
# ("callee:caller ..."), and a sample on its first call and every 1024th
edges() {
  got=$(json "$1" "$2" | jq -r '.edges[] | "\(.caller) \(.callee) \(.samples)"' | sort)
  exp=$(for pair in $3; do
    awk -v f="${pair%%:*}" -v c="${pair#*:}" \
      '$1 == f { print c, f, int(($2 + 1023) / 1024) }' "$4"
  done | sort)
  check "$5: edges as the calls give them ($(echo "$exp" | tr '\n' ',' | sed 's/,$//'))" "$got" "$exp"
}

# blocks RAW: the lines marked HOT in work.c are covered, COLD ones not
blocks() {
  json cont "$1" | jq -r '.functions[] | .file as $f | .blocks // [] | .[]
    | select(.line != null) | "\($f | split("/") | last):\(.line) \(.covered)"' |
    sort -u >block-lines
  bad=$(grep -n 'HOT \*/\|COLD \*/' "$PROGS/work.c" | while IFS=: read -r line text; do
    case "$text" in *HOT*) w=true o=false ;; *) w=false o=true ;; esac
    grep -qx "work.c:$line $w" block-lines && ! grep -qx "work.c:$line $o" block-lines ||
      echo "work.c:$line"
  done)
  check "$2: blocks marked HOT covered, COLD not" "$bad" ""
}

EXE_CALLERS="main:null setup:main step:main leaf:step tick:step rare:main plugin:main"

# run DIR MODE N [PLUGIN]: runs cont in DIR (made) with the pattern
# prof%c.mipraw, waits for its "ready" line when it blocks, and kills it
# with SIGKILL. Sets pid (and child, for fork) and status.
run() {
  dir=$1 mode=$2 n=$3
  shift 3
  mkdir "$dir"
  case $mode in
    block | fork)
      mkfifo "$dir/fifo"
      (cd "$dir" && MIP_PROFILE_FILE=prof%c.mipraw exec ../cont "$mode" "$n" fifo truth "$@" \
        >out.txt 2>err.txt) &
      pid=$!
      exec 3<"$dir/fifo"
      read -r line1 <&3 || line1=
      child=
      if [ "$mode" = fork ]; then
        read -r line2 <&3 || line2=
        for l in "$line1" "$line2"; do
          [ "${l#ready }" = "$pid" ] || child=${l#ready }
        done
      fi
      kill -KILL "$pid" $child 2>/dev/null
      status=0
      wait "$pid" 2>/dev/null || status=$?
      exec 3<&-
      ;;
    *)
      status=0
      # (waited for in the subshell, whose report of the signal is dropped)
      (cd "$dir" && MIP_PROFILE_FILE=prof%c.mipraw ../cont "$mode" "$n" - truth "$@" \
        >out.txt 2>err.txt; exit $?) 2>/dev/null || status=$?
      ;;
  esac
}

# ---- a normal exit: the same profile as the default mode ---------------
mkdir default
(cd default && MIP_PROFILE_FILE=prof.mipraw ../cont exit 3000 - truth >out.txt 2>err.txt) ||
  [ $? = 3 ] || fail "default mode run"
run normal exit 3000
check "normal exit: status 3 kept" "$status" 3
check "normal exit: nothing on stderr" "$(cat normal/err.txt)" ""
check "normal exit: the files of the default mode" \
  "$(cd normal && ls -- *.mipraw | tr '\n' ' ')" "$(cd default && ls -- *.mipraw | tr '\n' ' ')"
for pair in "cont prof.mipraw" "libcw.so prof.$LIB_ID.mipraw"; do
  set -- $pair
  for d in default normal; do
    cp "$1.empty.mip" "$d.$1.mip"
    "$MIPDATA" merge -p "$d.$1.mip" "$d/$2" || :
  done
  if cmp -s "default.$1.mip" "normal.$1.mip"; then
    pass "normal exit: $1's profile identical to the default mode's"
  else
    fail "normal exit: $1's profile differs from the default mode's"
  fi
done
if [ ! -s default/prof.mipraw ]; then
  # The program does not run: the runs below would wait for it forever.
  finish
  exit 1
fi

# ---- kill -9, with a library linked and a plug-in loaded ----------------
run kill block 5000 "$TMP/libplug.so"
check "kill -9: killed by SIGKILL" "$status" 137
check "kill -9: the program's calls and first-call order" \
  "$(calls cont kill/prof.mipraw)" "$(want kill/truth never)"
check "kill -9: the linked library's" \
  "$(calls libcw.so "kill/prof.$LIB_ID.mipraw")" "$(want kill/truth.lib)"
check "kill -9: the dlopened plug-in's" \
  "$(calls libplug.so "kill/prof.$PLUG_ID.mipraw")" "$(want kill/truth.plug)"
blocks kill/prof.mipraw "kill -9"
edges cont kill/prof.mipraw "$EXE_CALLERS" kill/truth "kill -9"
edges libcw.so "kill/prof.$LIB_ID.mipraw" "lib_work:null lib_leaf:lib_work lib_truth:null" \
  kill/truth.lib "kill -9, library"

# ---- abort() and a crash -----------------------------------------------
for how in abort:134 segv:139; do
  mode=${how%:*}
  run "$mode" "$mode" 3000
  check "$mode: status as without MIP" "$status" "${how#*:}"
  check "$mode: the program's calls and first-call order" \
    "$(calls cont "$mode/prof.mipraw")" "$(want "$mode/truth" never)"
  check "$mode: the library's" \
    "$(calls libcw.so "$mode/prof.$LIB_ID.mipraw")" "$(want "$mode/truth.lib")"
  blocks "$mode/prof.mipraw" "$mode"
  edges cont "$mode/prof.mipraw" "$EXE_CALLERS" "$mode/truth" "$mode"
done

# ---- fork: the child counts into a file of its own ---------------------
run fork fork 4000
[ -n "$child" ] && pass "fork: both processes ready (child $child)" || fail "fork: no child"
check "fork: the parent's file holds the parent's calls only" \
  "$(calls cont fork/prof.mipraw)" "$(want fork/truth never)"
check "fork: the parent's library file the parent's calls only" \
  "$(calls libcw.so "fork/prof.$LIB_ID.mipraw")" "$(want fork/truth.lib)"
check "fork: the child's file (.<pid>) its calls after the fork" \
  "$(calls cont "fork/prof.$child.mipraw")" "$(want fork/truth.child never)"
edges cont "fork/prof.$child.mipraw" \
  "child_work:main step:child_work leaf:step tick:step" fork/truth.child "fork, child"
pid_field=$(dump_value "fork/prof.$child.mipraw" .header.pid)
check "fork: the child's header holds its pid" "$pid_field" "$child"

# ---- a profile that cannot be made: one line, written at exit ----------
mkdir unwritable
(cd unwritable && MIP_PROFILE_FILE=/proc/no/such/dir/x%c.mipraw ../cont exit 10 - truth \
  >out.txt 2>err.txt) && status=0 || status=$?
check "unwritable: status 3 kept" "$status" 3
lines=$(grep -c '^mip: ' unwritable/err.txt)
check "unwritable: one line per image" "$lines $(wc -l <unwritable/err.txt | tr -d ' ')" "2 2"
grep -q "^mip: cannot count into profile '/proc/no/such/dir/x.mipraw': .* (it is written at exit instead)$" \
  unwritable/err.txt && grep -q "^mip: cannot count into profile '/proc/no/such/dir/x.$LIB_ID.mipraw'" \
  unwritable/err.txt && pass "unwritable: each line names its file" ||
  fail "unwritable: $(cat unwritable/err.txt)"
# A mapped file larger than the file size limit, the profile written at
# exit (smaller) is not: one line each, then the complete profile.
mkdir limit
(cd limit && ulimit -f 64 && MIP_PROFILE_FILE=prof%c.mipraw ../cont exit 3000 - truth \
  >out.txt 2>err.txt) && status=0 || status=$?
check "file size limit: status 3 kept" "$status" 3
check "file size limit: one line per image" \
  "$(grep -c "^mip: cannot count into profile .*: it is larger than the file size limit (ulimit -f) (it is written at exit instead)$" limit/err.txt) $(wc -l <limit/err.txt | tr -d ' ')" "2 2"
check "file size limit: the profile written at exit" \
  "$(calls cont limit/prof.mipraw)" "$(want limit/truth never)"
if ls ./*/*.tmp.* >/dev/null 2>&1; then
  fail "temporary files left behind: $(ls ./*/*.tmp.*)"
else
  pass "no temporary files left behind"
fi

# ---- linked without -fmip-continuous: no padding, one line, at exit -----
# cov_size IMAGE: the size of the image's coverage section, in hex
cov_size() { readelf -SW "$1" | sed -n 's/.* __mip_cov *[A-Z]* *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1/p'; }
check "without -fmip-continuous: counters not padded to pages (with: padded)" \
  "$(($(printf %d "0x$(cov_size plain)") % 4096 != 0)) $(($(printf %d "0x$(cov_size cont)") % 4096))" "1 0"
mkdir plain-run
(cd plain-run && MIP_PROFILE_FILE=prof%c.mipraw ../plain exit 100 - truth \
  >out.txt 2>err.txt) && status=0 || status=$?
check "without -fmip-continuous: status 3 kept" "$status" 3
check "without -fmip-continuous: one line, the program's" \
  "$(cat plain-run/err.txt)" \
  "mip: cannot count into profile 'prof.mipraw': linked without -fmip-continuous (it is written at exit instead)"
check "without -fmip-continuous: the profile written at exit" \
  "$(calls plain plain-run/prof.mipraw)" "$(want plain-run/truth never)"
check "without -fmip-continuous: its library (linked with it) counts into its file" \
  "$(calls libcw.so "plain-run/prof.$LIB_ID.mipraw")" "$(want plain-run/truth.lib)"

# ---- %c with a pool (%Nm): one line per image, pooled ----------------------
mkdir pool
for run in 1 2; do
  (cd pool && MIP_PROFILE_FILE=prof%c%1m.mipraw ../cont exit 10 - "truth$run" \
    >out.txt 2>"err$run.txt") || true
done
check "%c with %1m: one line per image" \
  "$(sort -u pool/err1.txt) $(wc -l <pool/err1.txt | tr -d ' ')" \
  "mip: MIP_PROFILE_FILE 'prof%c%1m.mipraw' pools (%Nm) and asks for continuous mode (%c), which would replace the pooled file: pooled only 2"
check "%c with %1m: both runs pooled" \
  "$(dump_value "pool/prof$(id16 cont)_0.mipraw" '.header.runs')" 2
check "%c with %1m: the pooled calls the two runs' sum" \
  "$(json cont "pool/prof$(id16 cont)_0.mipraw" |
    jq -r '.functions[] | select(.calls > 0) | "\(.name) \(.calls)"' | sort)" \
  "$(cat pool/truth1 pool/truth2 | awk '{n[$1] += $2} END {for (f in n) print f, n[f]}' | sort)"

# ---- every linker keeps the runtime's page padding last ----------------
# (with the sections of unused functions dropped, and for a library)
for ld in bfd lld gold; do
  "$MIPCC" $MODES -O2 -g -ffunction-sections -Wl,--gc-sections -fuse-ld=$ld \
    "$PROGS/main.c" "$PROGS/work.c" truth.o -L. -lcw -Wl,-rpath,'$ORIGIN' -ldl -o "cont-$ld"
  "$MIPDATA" extract "cont-$ld" -o "cont-$ld.mipmap" >/dev/null
  "$MIPDATA" create -p "cont-$ld.empty.mip" "cont-$ld.mipmap"
  mkdir "ld-$ld"
  (cd "ld-$ld" && MIP_OPTIONS=verbose=1 MIP_PROFILE_FILE=prof%c.mipraw "../cont-$ld" exit 100 - truth \
    >out.txt 2>err.txt) || true
  check "$ld: the counters mapped" \
    "$(grep -c "^mip: counting into profile 'prof.mipraw'" "ld-$ld/err.txt") $(grep -c cannot "ld-$ld/err.txt")" "1 0"
  check "$ld: the program's calls and first-call order" \
    "$(calls "cont-$ld" "ld-$ld/prof.mipraw" | grep -v '^never ')" "$(want "ld-$ld/truth")"
done
"$MIPCC" $MODES -O2 -shared -fPIC -fuse-ld=gold "$PROGS/lib.c" truth.o -o libcw-gold.so
mkdir lib-gold
(cd lib-gold && LD_PRELOAD=../libcw-gold.so MIP_OPTIONS=verbose=1 MIP_PROFILE_FILE=prof%c.mipraw \
  ../cont exit 100 - truth >out.txt 2>err.txt) || true
check "gold, a library: its counters mapped" \
  "$(grep -c "^mip: counting into profile 'prof\.$(id16 libcw-gold.so)\.mipraw'" lib-gold/err.txt)" 1

# ---- heap: the payloads of the last dump survive a kill ----------------
"$MIPCC" -fmip-generate=heap -fmip-continuous -O2 -g -I"$INCLUDE" "$PROGS/heap.c" -o heapcont
"$MIPDATA" extract heapcont -o heapcont.mipmap >/dev/null
line_a=$(grep -n 'site A' "$PROGS/heap.c" | cut -d: -f1)
line_b=$(grep -n 'site B' "$PROGS/heap.c" | cut -d: -f1)
sites() { # RAW
  "$MIPDATA" create -p heapcont.mip heapcont.mipmap
  "$MIPDATA" merge -p heapcont.mip --debug heapcont "$1" &&
    "$MIPDATA" show -p heapcont.mip --heap --format json >heap.json &&
    mip_sites heap.json | tr '\n' ',' | sed 's/,$//'
}
SITES="heap.c:$line_a 10 1000,heap.c:$line_b 5 1000"
mkdir heap
mkfifo heap/fifo
(cd heap && MIP_PROFILE_FILE=prof%c.mipraw exec ../heapcont fifo >out.txt 2>err.txt) &
pid=$!
exec 3<heap/fifo
read -r line <&3 || line=
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
exec 3<&-
check "heap, kill -9 after two dumps: the second dump's contexts" "$(sites heap/prof.mipraw)" "$SITES"
mkdir heap-exit
(cd heap-exit && MIP_PROFILE_FILE=prof%c.mipraw ../heapcont - >out.txt 2>err.txt) ||
  fail "heap, normal exit: status $?"
check "heap, normal exit: the contexts" "$(sites heap-exit/prof.mipraw)" "$SITES"

finish
