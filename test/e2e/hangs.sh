#!/bin/sh
# The runtime never hangs the program it is in: a fork never waits for
# the dynamic loader's lock, a child forked while another thread holds
# that lock exits (writing its profile), and mip_dump() from a signal
# handler while threads allocate never deadlocks; in heap mode, and in the
# other modes for comparison.
# Each program runs under a timeout: a hang fails, it does not hang the
# test.
#   test/e2e/hangs.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/hangs
INCLUDE=$HERE/../../include
make_tmp
cd "$TMP"

# locked_forks MODES [static]: fork_locked.c built with -fmip-generate=MODES
# (and -static): every fork made while a thread holds the loader's lock,
# every child's profile written, one child's read back: its calls, or in
# heap mode its allocation's stack, symbolized through the objects the
# child listed without the lock.
locked_forks() {
  name=$1${2:+-$2}
  "$MIPCC" -fmip-generate="$1" ${2:+-$2} -O1 -g -pthread "$PROGS/fork_locked.c" -o "locked_$name"
  mkdir "children_$name"
  set +e
  out=$(cd "children_$name" && timeout 120 "../locked_$name" 2>&1)
  rc=$?
  set -e
  children=$(ls "children_$name" | grep -c '^default\.[0-9]*\.mipraw$' || true)
  if [ "$rc" = 0 ] && [ "$out" = "20 of 20 forks made, 20 children exited" ] &&
    [ "$children" = 20 ]; then
    pass "$name: 20 forks while a thread holds the loader's lock: none waits, each child exits with its profile"
  else
    fail "$name: forks while a thread holds the loader's lock: status $rc, '$out', $children child profiles"
  fi
  child=$(ls "children_$name" | grep -m 1 '^default\.[0-9]*\.mipraw$' || true)
  case $name in
  heap) want="child_work forker libc.so.6" what="its allocation's stack, its library named" ;;
  heap-static) want="child_work forker" what="its allocation's stack in the executable" ;;
  *) want=1 what="child_work's calls" ;;
  esac
  got=
  if [ -n "$child" ] &&
    mip_profile --debug "locked_$name" "locked_$name.mip" "children_$name/$child"; then
    if [ "$1" = heap ]; then
      mip_show "locked_$name.mip" --heap >"locked_$name.json"
      # Statically linked, the frames past forker are glibc's own.
      frames=.frames
      [ "$name" = heap-static ] && frames='.frames[0:2]'
      got=$(jq -r ".heap[] | [$frames[].function | sub(\".*/\"; \"\")] | join(\" \")" \
        "locked_$name.json")
    else
      mip_show "locked_$name.mip" >"locked_$name.json"
      got=$(mip_field "locked_$name.json" child_work calls)
    fi
  fi
  expect_eq "$name: a child forked under the loader's lock: $what" "$got" "$want"
}

for modes in all heap; do
  "$MIPCC" -fmip-generate=$modes -O1 -g -pthread "$PROGS/fork_loader.c" -o fork_$modes
  "$MIPCC" -fmip-generate=$modes -O1 -g -pthread -I"$INCLUDE" "$PROGS/dump_signal.c" \
    -o dump_$modes
  mkdir -p "forks_$modes" "dumps_$modes"

  set +e
  out=$(cd "forks_$modes" && timeout 120 "../fork_$modes" 2>&1)
  rc=$?
  set -e
  children=$(ls "forks_$modes" | grep -c '^default\.[0-9]*\.mipraw$' || true)
  if [ "$rc" = 0 ] && [ "$out" = "200 children exited" ] && [ "$children" = 200 ]; then
    pass "$modes: 200 children forked beside dl_iterate_phdr exit, each with its profile"
  else
    fail "$modes: forks beside dl_iterate_phdr: status $rc, '$out', $children child profiles"
  fi

  locked_forks $modes

  set +e
  out=$(cd "dumps_$modes" && MIP_PROFILE_FILE=dump.mipraw timeout 120 "../dump_$modes" 2>&1)
  rc=$?
  set -e
  if [ "$rc" = 0 ] && [ "$out" = done ] &&
    mip_profile --debug "dump_$modes" "dump_$modes.mip" "dumps_$modes/dump.mipraw"; then
    pass "$modes: mip_dump() from a 1 ms timer while 4 threads allocate: no deadlock, the profile merges"
  else
    fail "$modes: mip_dump() from a signal handler: status $rc (124: timed out), '$out'"
  fi
done
locked_forks heap static

finish
