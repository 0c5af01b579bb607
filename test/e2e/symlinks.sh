#!/bin/sh
# What another user can plant where root runs an instrumented program: the
# runtime writes only what the program's own open() of the profile's name
# could write, whatever fs.protected_symlinks says (the suite reads it,
# never sets it). In a sticky world-writable directory (mode 1777, like
# /tmp) an unprivileged user plants, before root runs there:
#   a. a link at the profile's name (default.mipraw, a MIP_PROFILE_FILE
#      name) to a root-only file or to nothing, a file or a FIFO of
#      their own there;
#   b. a link at a pooled file's name (%1m, foreseeable from the
#      build-id, the file its lock is taken on) to a path that does not
#      exist, and at the names its fall-back file gets (with the pid:
#      planted while it runs); a pooled file of their own there;
#   c. a link at a continuous-mode file's name (%c) to a root-only file;
#   d. links at the names the temporary files used to get
#      (<name>.tmp.<pid>) for the program's pid and the next ones, planted
#      while it runs.
# The root-only files stay as they were, nothing is created where the
# links lead, the program's exit status and output are a plain build's,
# and stderr has one `mip:` line naming the file. Then what must still
# work: a link in the user's own directory, a link of root's in the shared
# directory (followed by the kernel, the file it names written in place,
# or counted into in continuous mode).
#   test/e2e/symlinks.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"

if [ "$(id -u)" != 0 ] || ! command -v runuser >/dev/null ||
  ! id nobody >/dev/null 2>&1; then
  pass "needs root, runuser and the user nobody (skipped)"
  finish
  exit
fi
echo "fs.protected_symlinks=$(cat /proc/sys/fs/protected_symlinks 2>/dev/null)," \
  "fs.protected_regular=$(cat /proc/sys/fs/protected_regular 2>/dev/null) (left as they are)"
chmod 755 "$TMP" # mktemp's 0700 keeps nobody out

cat >prog.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
  if (getenv("PAUSE")) { /* says its pid, then waits for a line */
    printf("pid %d\n", (int)getpid());
    fflush(stdout);
    getchar();
  }
  puts("the program's output");
  return 3;
}
C
"$CLANG" -O2 prog.c -o plain
"$MIPCC" -fmip-generate -O2 prog.c -o prog
"$MIPCC" -fmip-generate -fmip-pool -O2 prog.c -o prog-pool
"$MIPCC" -fmip-generate -fmip-continuous -O2 prog.c -o prog-cont
mip_create prog prog.mip
set +e
./plain >plain.out
plain_rc=$?
set -e

ROOT_DATA="root's data, not a profile"
# root_file NAME: a file only root may read or write, holding ROOT_DATA
root_file() {
  echo "$ROOT_DATA" >"$1"
  chmod 600 "$1"
}

# shared: a fresh sticky world-writable directory owned by root
shared() {
  rm -rf shared
  mkdir shared
  chmod 1777 shared
}

# as_user COMMAND...: COMMAND run by nobody
as_user() { runuser -u nobody -- "$@"; }

# plant_range DIR TO PREFIX SUFFIX FIRST: nobody plants in DIR the links
# PREFIX<i>SUFFIX to TO/PREFIX<i>SUFFIX for the 100 i from FIRST on (the
# program's pid, and those of threads it might start), with one ln
plant_range() {
  as_user sh -c '
    dir=$1 to=$2 prefix=$3 suffix=$4 i=$5 end=$(($5 + 100))
    set --
    while [ "$i" -lt "$end" ]; do
      set -- "$@" "$to/$prefix$i$suffix"
      i=$((i + 1))
    done
    cd "$dir" && ln -s "$@" .' - "$@"
}

# run PROGRAM [VAR=VALUE...]: PROGRAM run by root in shared/ with the
# environment given; $rc, out.txt, err.txt
run() {
  run_prog=$1
  shift
  set +e
  (cd shared && env "$@" "$TMP/$run_prog" >"$TMP/out.txt" 2>"$TMP/err.txt")
  rc=$?
  set -e
}

# run_paused PLANT PROGRAM [VAR=VALUE...]: as run, but the program waits
# once it has started, with its pid in $pid, until the command PLANT has
# run (names that depend on the pid are planted then); its "pid" line is
# not kept in out.txt
run_paused() {
  paused_plant=$1 paused_prog=$2
  shift 2
  rm -f go out.txt rc.txt
  mkfifo go
  (cd shared && if env "$@" PAUSE=1 "$TMP/$paused_prog" <"$TMP/go" \
    >"$TMP/out.txt" 2>"$TMP/err.txt"; then echo 0; else echo $?; fi \
    >"$TMP/rc.txt") &
  exec 5>go
  pid=
  while [ -z "$pid" ]; do
    sleep 0.1
    pid=$(sed -n 's/^pid //p' out.txt 2>/dev/null)
  done
  $paused_plant
  echo >&5
  exec 5>&-
  wait
  rc=$(cat rc.txt)
  sed -i '/^pid /d' out.txt
}

# as_plain NAME: the run's status and stdout are the plain build's
as_plain() {
  if [ "$rc" = "$plain_rc" ] && cmp -s out.txt plain.out; then
    pass "$1: exit status $rc and output as a plain build's"
  else
    fail "$1: status $rc (plain: $plain_rc), output: $(cat out.txt)"
  fi
}

# one_line NAME TEXT: stderr is one `mip:` line holding TEXT
one_line() {
  if [ "$(wc -l <err.txt)" = 1 ] && grep -q "^mip: .*$2" err.txt; then
    pass "$1: $(cat err.txt)"
  else
    fail "$1: stderr: $(cat err.txt)"
  fi
}

# untouched NAME FILE: FILE still holds ROOT_DATA, mode 0600, root's
untouched() {
  if [ "$(cat "$2")" = "$ROOT_DATA" ] &&
    [ "$(stat -c '%a %U' "$2")" = "600 root" ]; then
    pass "$1: $2 untouched"
  else
    fail "$1: $2 is now $(stat -c '%a %U %s bytes' "$2")"
  fi
}

# ---- a. a link at the profile's name -------------------------------------
root_file root-only
shared
as_user ln -s "$TMP/root-only" shared/default.mipraw
run prog
untouched "default name, another user's link" root-only
as_plain "default name, another user's link"
one_line "default name, another user's link" \
  "'default.mipraw': it is another user's link or file in a sticky"
[ -L shared/default.mipraw ] && [ "$(ls shared)" = default.mipraw ] &&
  pass "default name: the link left as it was, nothing beside it" ||
  fail "default name: shared/ holds $(ls -l shared)"

shared
as_user ln -s "$TMP/root-only" shared/named.mipraw
run prog MIP_PROFILE_FILE="$TMP/shared/named.mipraw"
untouched "MIP_PROFILE_FILE, another user's link" root-only
as_plain "MIP_PROFILE_FILE, another user's link"
one_line "MIP_PROFILE_FILE, another user's link" "'$TMP/shared/named.mipraw': it is another user's"

# A link to a file that does not exist: not created.
shared
as_user ln -s "$TMP/made-by-root" shared/default.mipraw
run prog
[ ! -e made-by-root ] && pass "another user's link to nothing: nothing created" ||
  fail "another user's link to nothing: $(ls -l made-by-root)"
as_plain "another user's link to nothing"

# A regular file of the user's at the name: neither written nor replaced
# (the rule of fs.protected_regular).
shared
as_user sh -c 'echo "the user'"'"'s file" >shared/default.mipraw'
run prog
[ "$(cat shared/default.mipraw)" = "the user's file" ] &&
  [ "$(stat -c %U shared/default.mipraw)" = nobody ] &&
  pass "another user's file at the name: left as it was" ||
  fail "another user's file at the name: $(ls -l shared/default.mipraw)"
as_plain "another user's file at the name"
one_line "another user's file at the name" "'default.mipraw': it is another user's"

# A FIFO of the user's: not opened (the rule of fs.protected_fifos), so
# neither read from nor waited for.
shared
as_user mkfifo shared/default.mipraw
run prog
[ -p shared/default.mipraw ] && as_plain "another user's FIFO at the name"
one_line "another user's FIFO at the name" "'default.mipraw': it is another user's"

# ---- b. pool mode: the pooled file's name, foreseeable --------------------
ID=$(readelf -n prog-pool | sed -n 's/.*Build ID: //p' | cut -c1-16)
POOL=${ID}_0.mipraw
shared
as_user ln -s "$TMP/pool-made-by-root" "shared/$POOL"
# and the names of the file of its own the run falls back to, which
# hold the pid
rm -rf made
mkdir made
plant_fallbacks() { plant_range shared "$TMP/made" "${ID}_0." .mipraw "$pid"; }
run_paused plant_fallbacks prog-pool MIP_PROFILE_FILE=%1m.mipraw
[ ! -e pool-made-by-root ] && [ -z "$(ls made)" ] &&
  pass "pooled file, another user's links: nothing created" ||
  fail "pooled file, another user's links: $(ls pool-made-by-root made)"
as_plain "pooled file, another user's link"
one_line "pooled file, another user's link" "into '$POOL': it is a symbolic link"
[ -L "shared/$POOL" ] && pass "pooled file: the link left as it was" ||
  fail "pooled file: $(ls -l "shared/$POOL")"

# A pooled file of the user's: not merged into, locked or replaced.
shared
as_user sh -c "echo \"the user's file\" >shared/$POOL"
run prog-pool MIP_PROFILE_FILE=%1m.mipraw
[ "$(cat "shared/$POOL")" = "the user's file" ] &&
  pass "another user's pooled file: left as it was" ||
  fail "another user's pooled file: $(ls -l "shared/$POOL")"
as_plain "another user's pooled file"
one_line "another user's pooled file" "into '$POOL': it is another user's"

# ---- c. continuous mode ----------------------------------------------------
root_file root-only
shared
as_user ln -s "$TMP/root-only" shared/counted.mipraw
run prog-cont MIP_PROFILE_FILE=counted%c.mipraw
untouched "continuous mode, another user's link" root-only
as_plain "continuous mode, another user's link"
one_line "continuous mode, another user's link" "'counted.mipraw': it is another user's"

# ---- d. links at the temporary files' old names --------------------------
# Planted once the program has started, for its pid and the next ones;
# each names a file of root's.
plant_temporaries() {
  (umask 077 && i=$pid && while [ "$i" -lt $((pid + 100)) ]; do
    echo "$ROOT_DATA" >"victims/default.mipraw.tmp.$i"
    i=$((i + 1))
  done)
  plant_range shared "$TMP/victims" default.mipraw.tmp. "" "$pid"
  [ -L "shared/default.mipraw.tmp.$pid" ] && planted=$pid
}
rm -rf victims
mkdir victims
shared
planted=
run_paused plant_temporaries prog
[ "$planted" = "$pid" ] &&
  pass "temporary names: links planted for the program's pid $pid" ||
  fail "temporary names: no link for pid $pid: $(ls shared | head)"
changed=$(for f in victims/*; do
  [ "$(cat "$f")" = "$ROOT_DATA" ] || echo "$f"
done)
[ -z "$changed" ] && [ "$(ls victims | wc -l)" = 100 ] &&
  pass "temporary names: the 100 files the links name untouched" ||
  fail "temporary names: changed: $changed"
[ "$rc" = "$plain_rc" ] && [ ! -s err.txt ] && [ -f shared/default.mipraw ] &&
  [ ! -L shared/default.mipraw ] &&
  [ "$(ls shared | grep -c '\.tmp\.')" = 100 ] &&
  pass "temporary names: the profile written under a name of its own, renamed into place" ||
  fail "temporary names: status $rc, stderr $(cat err.txt), $(ls -l shared/default.mipraw)"
cp prog.mip check.mip
"$MIPDATA" merge -p check.mip shared/default.mipraw &&
  pass "temporary names: the profile merges" || fail "temporary names: profile refused"

# ---- what still works --------------------------------------------------
# A link of the user's in their own directory (not sticky): the kernel
# follows it and the file it names is written in place (their own file, so
# written by root: root may write it), the link stays.
rm -rf mine
mkdir mine
chown nobody mine
as_user sh -c 'echo old >mine/theirs.mipraw && ln -s theirs.mipraw mine/link.mipraw'
set +e
(cd mine && MIP_PROFILE_FILE=link.mipraw "$TMP/prog" >"$TMP/out.txt" 2>"$TMP/err.txt")
rc=$?
set -e
cp prog.mip check.mip
if [ "$rc" = "$plain_rc" ] && [ ! -s err.txt ] && [ -L mine/link.mipraw ] &&
  "$MIPDATA" merge -p check.mip mine/theirs.mipraw 2>/dev/null; then
  pass "a link in the user's own directory: followed, the file it names written in place"
else
  fail "a link in the user's own directory: status $rc, stderr $(cat err.txt), $(ls -l mine)"
fi

# A link of root's (the directory's owner and this process's user) in the
# shared directory: followed, even to a file that does not exist yet.
shared
ln -s "$TMP/roots-own.mipraw" shared/default.mipraw
run prog
cp prog.mip check.mip
if [ "$rc" = "$plain_rc" ] && [ ! -s err.txt ] && [ -L shared/default.mipraw ] &&
  "$MIPDATA" merge -p check.mip roots-own.mipraw 2>/dev/null; then
  pass "root's own link in the shared directory: followed, its file created"
else
  fail "root's own link: status $rc, stderr $(cat err.txt), $(ls -l roots-own.mipraw 2>&1)"
fi

# The same in continuous mode: the counters are mapped onto the file the
# link names, which holds the profile.
shared
ln -s "$TMP/roots-counted.mipraw" shared/counted.mipraw
run prog-cont MIP_PROFILE_FILE=counted%c.mipraw MIP_OPTIONS=verbose=1
"$MIPDATA" extract prog-cont -o cont.mipmap >/dev/null
"$MIPDATA" create -p cont.mip cont.mipmap
if [ "$rc" = "$plain_rc" ] && [ -L shared/counted.mipraw ] &&
  grep -q "^mip: counting into profile 'counted.mipraw'" err.txt &&
  "$MIPDATA" merge -p cont.mip roots-counted.mipraw 2>/dev/null; then
  pass "root's own link, continuous mode: counted into the file it names"
else
  fail "root's own link, continuous mode: status $rc, stderr $(cat err.txt), $(ls -l roots-counted.mipraw 2>&1)"
fi

finish
