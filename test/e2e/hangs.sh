#!/bin/sh
# The runtime never hangs the program it is in: a child forked while
# another thread holds the dynamic loader's lock exits (writing its
# profile), and mip_dump() from a signal handler while threads allocate
# never deadlocks; in heap mode, and in the other modes for comparison.
# Each program runs under a timeout: a hang fails, it does not hang the
# test.
#   test/e2e/hangs.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/hangs
INCLUDE=$HERE/../../include
make_tmp
cd "$TMP"

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

finish
