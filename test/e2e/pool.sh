#!/bin/sh
# Pool mode (MIP_PROFILE_FILE with %Nm): processes started together add
# their runs to a few pooled raw profiles per image, and merging those
# gives, to the byte, what merging every run's own raw profile gives, in
# every mode. The ground truth is the same runs' own files: each process
# writes its profiles with mip_dump() under %p first, then the exit-time
# write merges the same counts into the pool (progs/pool/main.c).
# Then what must not merge: a pooled file of another build, a corrupt
# one, one of another format version (each: one line, the file kept, the
# run in a file of its own), a read-only directory, a lock held too long;
# and what must not stop it: a forked child, a second mip_dump(), a
# process killed with SIGKILL while it holds the lock. Last, images
# linked without pool mode (no -fmip-pool): a file per process, one line.
#   test/e2e/pool.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/pool
INCLUDE=$HERE/../../include
RUNS=${POOL_RUNS:-200}
make_tmp
cd "$TMP"

check() {
  [ "$2" = "$3" ] && pass "$1" || fail "$1: got '$2', want '$3'"
}

# build MODE [NAME POOL]: libpool-NAME.so and app-NAME (NAME: MODE), with
# their empty profiles, linked with POOL (-fmip-pool: pool mode's merge)
build() {
  name=${2:-$1} pool=${3:--fmip-pool}
  flags="-fmip-generate=$1 $pool -g -O2 -I$INCLUDE -I$PROGS"
  [ "$1" = coverage ] && flags="-fmip-generate $pool -g -O2 -I$INCLUDE -I$PROGS"
  "$MIPCC" $flags -shared -fPIC "$PROGS/lib.c" -o "libpool-$name.so"
  "$MIPCC" $flags "$PROGS/main.c" "$PROGS/work.c" -L. "-lpool-$name" \
    -Wl,-rpath,'$ORIGIN' -o "app-$name"
  for image in "app-$name" "libpool-$name.so"; do
    "$MIPDATA" extract "$image" -o "$image.mipmap" >/dev/null
    "$MIPDATA" create -p "$image.mip" "$image.mipmap"
  done
}

# merge_into DIR MODE RAW...: DIR/app.mip and DIR/lib.mip from the raws
merge_into() {
  dir=$1 mode=$2
  shift 2
  mkdir -p "$dir"
  cp "app-$mode.mip" "$dir/app.mip"
  cp "libpool-$mode.so.mip" "$dir/lib.mip"
  "$MIPDATA" merge -p "$dir/app.mip" -p "$dir/lib.mip" \
    --debug "app-$mode" --debug "libpool-$mode.so" "$@"
}

# shown DIR [ARGS]: `mipdata show` of both profiles of DIR, in full
shown() {
  (cd "$1" && shift && for p in app.mip lib.mip; do
    "$MIPDATA" show -p "$p" --format json "$@"
  done)
}

# runs_in FILE...: the run counts of raw profiles' headers, summed
runs_in() {
  for f in "$@"; do dump_value "$f" .header.runs; done | awk '{ s += $1 } END { print s + 0 }'
}

# ---- 1. every mode: RUNS processes at once, %4m against %p --------------
for mode in coverage counts order blocks edges all heap; do
  build "$mode"
  mkdir "$mode"
  (
    cd "$mode"
    i=1
    while [ "$i" -le "$RUNS" ]; do
      MIP_PROFILE_FILE="$TMP/$mode/own/%m.%p.mipraw" \
        "../app-$mode" "$i" dump "MIP_PROFILE_FILE=$TMP/$mode/pool/%4m.mipraw" \
        2>>err.txt &
      i=$((i + 1))
    done
    wait
  )
  [ ! -s "$mode/err.txt" ] || fail "$mode: stderr: $(head -3 "$mode/err.txt")"
  pooled=$(ls "$mode/pool" | sed 's/^[0-9a-f]\{16\}_[0-3]\.mipraw$/ok/' | sort -u)
  check "$mode: pooled files named <identity>_<slot>.mipraw" "$pooled" ok
  check "$mode: at most 8 pooled files (4 per image)" \
    "$(ls "$mode/pool" | wc -l | awk '{ print ($1 <= 8) }')" 1
  check "$mode: the pooled files hold $RUNS runs of each image" \
    "$(runs_in "$mode"/pool/*.mipraw)" $((2 * RUNS))
  merge_into "$mode/a" "$mode" "$mode"/pool/*.mipraw
  merge_into "$mode/b" "$mode" "$mode"/own/*.mipraw
  check "$mode: merged pool has $RUNS runs" \
    "$(shown "$mode/a" | jq -r .runs | sort -u)" "$RUNS"
  if [ "$(shown "$mode/a")" = "$(shown "$mode/b")" ]; then
    pass "$mode: mipdata show of the pool = of the $RUNS own files"
  else
    fail "$mode: mipdata show differs: $(shown "$mode/a" >a.txt; shown "$mode/b" >b.txt; diff a.txt b.txt | head -5)"
  fi
  if [ "$mode" = heap ]; then
    [ "$(shown "$mode/a" --heap)" = "$(shown "$mode/b" --heap)" ] &&
      [ "$(shown "$mode/a" --heap | jq '.heap | length' | sort -u)" != 0 ] &&
      pass "heap: mipdata show --heap of the pool = of the own files" ||
      fail "heap: show --heap differs"
  fi
  cmp -s "$mode/a/app.mip" "$mode/b/app.mip" &&
    cmp -s "$mode/a/lib.mip" "$mode/b/lib.mip" &&
    pass "$mode: the merged profiles are byte-identical" ||
    fail "$mode: the merged profiles differ"
done

# The other cases use the program built with every mode but heap.
APP=app-all
LIB=libpool-all.so
APP_ID=$(readelf -n $APP | sed -n 's/.*Build ID: //p' | cut -c1-16)
LIB_ID=$(readelf -n $LIB | sed -n 's/.*Build ID: //p' | cut -c1-16)

# one_run FILE: whether FILE is a raw profile of one run of the program's
# images that mipdata merges
one_run() {
  rm -rf one && merge_into one all "$1" 2>/dev/null &&
    [ "$(shown one | jq -r .runs | sort -u | tr '\n' ' ')" = "0 1 " ]
}

# ---- 2. fork: parent and child each add a run -----------------------------
mkdir forked
(cd forked && for i in 1 2 3 4 5 6 7 8 9 10; do
  MIP_PROFILE_FILE="$TMP/forked/own/%m.%p.mipraw" \
    "../$APP" "$i" fork "MIP_PROFILE_FILE=$TMP/forked/pool/%2m.mipraw" 2>>err.txt &
done; wait)
[ ! -s forked/err.txt ] || fail "fork: stderr: $(head -3 forked/err.txt)"
check "fork: no .<pid> name for the child" \
  "$(ls forked/pool | grep -cv '^[0-9a-f]\{16\}_[01]\.mipraw$')" 0
check "fork: 20 runs of each image in the pool" "$(runs_in forked/pool/*.mipraw)" 40
merge_into forked/a all forked/pool/*.mipraw
merge_into forked/b all forked/own/*.mipraw
[ "$(shown forked/a)" = "$(shown forked/b)" ] &&
  pass "fork: the pool = the parents' and children's own files" ||
  fail "fork: show differs"

# ---- 3. a second mip_dump() in one process adds nothing -------------------
mkdir twice
(cd twice && MIP_OPTIONS=verbose=1 MIP_PROFILE_FILE=pool/%1m.mipraw \
  "../$APP" 3 dump2 >out.txt 2>err.txt)
check "mip_dump twice, then exit: one run" "$(runs_in twice/pool/*.mipraw)" 2
check "mip_dump twice: the later writes say so" \
  "$(grep -c 'already merged into .* by this process' twice/err.txt)" 4

# a bad pool_wait: one line per process, and the default wait
(cd twice && MIP_OPTIONS=pool_wait=61s MIP_PROFILE_FILE=pool/%1m.mipraw \
  "../$APP" 4 2>err2.txt)
check "pool_wait=61s: one line, ignored" "$(cat twice/err2.txt)" \
  "mip: MIP_OPTIONS: pool_wait wants 0 to 3600, not '61s' (ignored)"
check "pool_wait=61s: merged all the same" "$(runs_in twice/pool/*.mipraw)" 4

# pool_of DIR IMAGE_ID: DIR's pooled file of an image (pattern %1m)
pool_of() { echo "$1/$2_0.mipraw"; }

# refused NAME DIR NEEDLE [ENV...]: a run of the program into DIR
# (pattern %1m), whose pooled file of the program it must not touch: its
# exit status kept, one line containing NEEDLE, the old file as it was,
# the run in <name>.<pid>
refused() {
  name=$1 dir=$2 needle=$3
  shift 3
  old=$(pool_of "$dir" "$APP_ID")
  cp "$old" keep
  set +e
  (cd "$dir" && env MIP_PROFILE_FILE=%1m.mipraw "$@" "../$APP" 5 none x 3 \
    >out.txt 2>err.txt)
  rc=$?
  set -e
  line=$(cat "$dir/err.txt")
  fallback=$(echo "$line" | sed -n "s/.*; wrote '\(.*\)' instead$/\1/p")
  check "$name: the program's exit status is kept" "$rc" 3
  case $line in
  "mip: cannot merge profile into '${APP_ID}_0.mipraw': "*"$needle"*) pass "$name: $line" ;;
  *) fail "$name: line '$line'" ;;
  esac
  check "$name: one line" "$(echo "$line" | wc -l)" 1
  cmp -s keep "$old" && pass "$name: the pooled file is untouched" ||
    fail "$name: the pooled file changed"
  [ "$fallback" = "${APP_ID}_0.$(dump_value "$dir/$fallback" .header.pid 2>/dev/null).mipraw" ] &&
    one_run "$dir/$fallback" &&
    pass "$name: the run is in $fallback, a raw profile of one run" ||
    fail "$name: fallback '$fallback'"
}

# ---- 4. a pooled file of another build --------------------------------------
"$MIPCC" -fmip-generate=all -fmip-pool -O2 -I"$INCLUDE" -I"$PROGS" -DOTHER_BUILD \
  "$PROGS/main.c" "$PROGS/work.c" -L. -lpool-all -Wl,-rpath,'$ORIGIN' -o other
OTHER_ID=$(readelf -n other | sed -n 's/.*Build ID: //p' | cut -c1-16)
mkdir otherbuild
(cd otherbuild && MIP_PROFILE_FILE=%1m.mipraw ../other 4)
mv "otherbuild/${OTHER_ID}_0.mipraw" "$(pool_of otherbuild "$APP_ID")"
refused "another build" otherbuild "it holds the profile of another build"

# ---- 5. corrupt pooled files, another format version, not a profile ---------
mkdir good
(cd good && MIP_PROFILE_FILE=%1m.mipraw "../$APP" 6 && MIP_PROFILE_FILE=%1m.mipraw "../$APP" 7)
GOOD=$(pool_of good "$APP_ID")
check "two runs pooled" "$(runs_in "$GOOD")" 2
size=$(wc -c <"$GOOD")
for case in "truncated:head -c $((size - 16))" "short:head -c 60" \
  "section:dd bs=1 seek=135 count=1 conv=notrunc" \
  "runs:dd bs=1 seek=104 count=1 conv=notrunc" \
  "version:dd bs=1 seek=8 count=1 conv=notrunc" \
  "text:cat /dev/null"; do
  name=${case%%:*}
  mkdir "$name"
  file=$(pool_of "$name" "$APP_ID")
  case $name in
  truncated | short) ${case#*:} "$GOOD" >"$file" ;;
  text) echo "not a profile at all, but long enough to hold a header of some sort" >"$file" ;;
  *) cp "$GOOD" "$file" && printf '\143' | ${case#*:} of="$file" 2>/dev/null ;;
  esac
  case $name in
  version) refused "format version 99" "$name" "format version 99, which this MIP does not merge" ;;
  text) refused "not a raw profile" "$name" "it is not a MIP raw profile" ;;
  *) refused "corrupt ($name)" "$name" "it is not a valid raw profile" ;;
  esac
done

# ---- 6. a read-only directory: nothing written, one line per image ----------
mkdir -p ro/dir
chmod 555 ro/dir
as_user=
if [ "$(id -u)" = 0 ]; then
  chmod 755 "$TMP"
  as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
set +e
(cd ro && MIP_PROFILE_FILE=dir/%2m.mipraw $as_user "../$APP" 2 none x 3 >out.txt 2>err.txt)
rc=$?
set -e
check "read-only directory: exit status kept" "$rc" 3
check "read-only directory: nothing written" "$(ls ro/dir | wc -l)" 0
check "read-only directory: one line per image" \
  "$(grep -c "^mip: cannot merge profile into 'dir/[0-9a-f]*_[01].mipraw': Permission denied; cannot write 'dir/[0-9a-f]*_[01]\.[0-9]*\.mipraw' either: Permission denied$" ro/err.txt) $(wc -l <ro/err.txt)" "2 2"

# ---- 7. a lock held too long: bounded wait, then a file of its own ----------
mkdir locked
(cd locked && MIP_PROFILE_FILE=%1m.mipraw "../$APP" 8)
flock "$(pool_of locked "$APP_ID")" sh -c 'echo $$ >holder; exec sleep 60' &
n=0
while [ ! -s holder ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
refused "lock held" locked \
  "its lock was not released within 1 s (MIP_OPTIONS=pool_wait)" \
  MIP_OPTIONS=pool_wait=1
kill "$(cat holder)"
wait

# ---- 8. killed with SIGKILL while holding the lock -------------------------
"$CLANG" -shared -fPIC -O1 "$PROGS/stall.c" -o stall.so -ldl
mkdir killed
(cd killed && MIP_PROFILE_FILE=%1m.mipraw "../$APP" 9)
POOL=$(pool_of killed "$APP_ID")
cp "$POOL" keep
(cd killed && LD_PRELOAD=../stall.so POOL_STALL_ON="${APP_ID}_0" \
  POOL_STALL_MARKER=stalled MIP_PROFILE_FILE=%1m.mipraw exec "../$APP" 10) &
victim=$!
n=0
while [ ! -e killed/stalled ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
[ -e killed/stalled ] && pass "a merge stopped right before its rename, lock held" ||
  fail "the merge never reached its rename"
kill -KILL "$victim"
wait "$victim" 2>/dev/null || true
cmp -s keep "$POOL" && pass "killed mid-merge: the pooled file is the old one, whole" ||
  fail "killed mid-merge: the pooled file changed"
(cd killed && MIP_OPTIONS=verbose=1 MIP_PROFILE_FILE=%1m.mipraw "../$APP" 11 2>err.txt)
grep -q "^mip: merged profile into '${APP_ID}_0.mipraw' (2 runs)$" killed/err.txt &&
  ! grep -q "lock" killed/err.txt &&
  pass "the next process takes the lock the killed one held, and merges" ||
  fail "after the kill: $(cat killed/err.txt)"
check "after the kill: the runs that finished" "$(runs_in "$POOL")" 2

# ---- 9. a child forked while its parent holds the lock -------------------
# The parent stops in its merge, lock held; another thread forks; the
# parent is killed. The child's copy of the lock's descriptor must not
# keep the lock: the child merges its run at exit without waiting.
(cd killed && rm -f stalled && LD_PRELOAD=../stall.so POOL_STALL_ON="${APP_ID}_0" \
  POOL_STALL_MARKER=stalled MIP_OPTIONS=verbose=1:pool_wait=10 \
  MIP_PROFILE_FILE=%1m.mipraw exec "../$APP" 12 forkstall 2>child.txt) &
parent=$!
n=0
while [ ! -e killed/forked ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
kill -KILL "$parent"
wait "$parent" 2>/dev/null || true
n=0
while [ "$(grep -c merged killed/child.txt)" -lt 2 ] && ! grep -q lock killed/child.txt &&
  [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
grep -q "^mip: merged profile into '${APP_ID}_0.mipraw' (3 runs)$" killed/child.txt &&
  ! grep -q "lock" killed/child.txt &&
  pass "a child forked while its parent held the lock merges once the parent is gone" ||
  fail "forked under the lock: $(cat killed/child.txt)"


# ---- 10. linked without -fmip-pool ---------------------------------------
# Images built as for coverage but linked without pool mode's merge carry
# none of its code; a pool pattern then gets each image's run under the
# pool's name with ".<pid>" (a forked child's its own), the same profile
# as the run's own file, one line per image and process, the exit status
# kept.
build coverage nopool -fno-mip-pool
has_merge() { nm "$1" | grep -q ' mip_rt_pool_lock$'; }
has_merge app-coverage && has_merge libpool-coverage.so &&
  ! has_merge app-nopool && ! has_merge libpool-nopool.so &&
  pass "without -fmip-pool: no merge code in the images (with it: there)" ||
  fail "without -fmip-pool: merge code linked, or not with it"
NAPP_ID=$(readelf -n app-nopool | sed -n 's/.*Build ID: //p' | cut -c1-16)
NLIB_ID=$(readelf -n libpool-nopool.so | sed -n 's/.*Build ID: //p' | cut -c1-16)
mkdir nopool
set +e
(cd nopool && MIP_PROFILE_FILE="$TMP/nopool/own/%m.%p.mipraw" \
  ../app-nopool 5 dump "MIP_PROFILE_FILE=%1m.mipraw" 3 2>err.txt)
rc=$?
set -e
check "without -fmip-pool: the program's exit status is kept" "$rc" 3
pid=$(ls nopool/own | sed -n "s/^$NAPP_ID\.\([0-9]*\)\.mipraw$/\1/p")
want_line() { # IMAGE_ID PID
  echo "mip: cannot pool profile into '$1_0.mipraw': linked without pool mode (mipcc -fmip-pool); wrote '$1_0.$2.mipraw' instead"
}
check "without -fmip-pool: one line per image" "$(sort nopool/err.txt)" \
  "$( (want_line "$NAPP_ID" "$pid"; want_line "$NLIB_ID" "$pid") | sort)"
merge_into nopool/a nopool "nopool/${NAPP_ID}_0.$pid.mipraw" "nopool/${NLIB_ID}_0.$pid.mipraw"
merge_into nopool/b nopool nopool/own/*.mipraw
[ "$(shown nopool/a | jq -r .runs | sort -u)" = 1 ] &&
  [ "$(shown nopool/a)" = "$(shown nopool/b)" ] &&
  pass "without -fmip-pool: each file is the run, as its own file has it" ||
  fail "without -fmip-pool: the files differ from the run's own"

# Its own file not writable (under a regular file): the default mode's
# line, one per image, no file, the exit status kept.
mkdir nopool/unwritable
: >nopool/unwritable/afile
set +e
(cd nopool/unwritable && MIP_PROFILE_FILE=afile/%1m.mipraw ../../app-nopool 2 "" "" 4 2>err.txt)
rc=$?
set -e
check "without -fmip-pool, unwritable: the exit status is kept" "$rc" 4
check "without -fmip-pool, unwritable: the default mode's line per image" \
  "$(sed "s/_0\.[0-9]*\./_0.PID./" nopool/unwritable/err.txt | sort)" \
  "$(printf "mip: cannot write profile 'afile/%s_0.PID.mipraw': Not a directory\n" "$NAPP_ID" "$NLIB_ID" | sort)"

# mip_dump() twice, then exit: three writes per image, one line each; a
# forked child writes and says its own (its and its parent's mip_dump()
# go to the default name, before the pool pattern is set).
(cd nopool && rm -f ./*.mipraw && MIP_PROFILE_FILE=%1m.mipraw ../app-nopool 3 dump2 2>err2.txt)
check "without -fmip-pool, mip_dump twice: one line per image" "$(wc -l <nopool/err2.txt)" 2
check "without -fmip-pool, mip_dump twice: one file per image" "$(ls nopool/*.mipraw | wc -l)" 2
(cd nopool && rm -f ./*.mipraw && ../app-nopool 2 fork "MIP_PROFILE_FILE=%1m.mipraw" 2>err3.txt)
check "without -fmip-pool, fork: a line per image and process" \
  "$(sed -n "s/.*wrote '\(.*\)' instead$/\1/p" nopool/err3.txt | sort | tr '\n' ' ')" \
  "$(ls nopool | grep '_0\.[0-9]*\.mipraw$' | sort | tr '\n' ' ')"
check "without -fmip-pool, fork: 4 files (2 processes, 2 images)" \
  "$(ls nopool | grep -c '_0\.[0-9]*\.mipraw$')" 4

finish
