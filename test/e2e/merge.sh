#!/bin/sh
# mipdata merge from parallel jobs: merges into one profile at once must
# each add their runs (a CI matrix, a test suite's processes), and never
# deadlock (each merge is given 120 s: a deadlock fails, it does not hang);
# and a merge into several profiles replaces all of them or none.
#   test/e2e/merge.sh BUILD_DIR [MIPDATA]
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
make_tmp
cd "$TMP"

cat >prog.c <<'C'
#ifdef OTHER
__attribute__((noinline)) int odd(int x) { return 2 * x + 3; }
#else
__attribute__((noinline)) int odd(int x) { return 2 * x + 1; }
#endif
int main(int argc, char **argv) {
  (void)argv;
  int r = argc > 1 ? odd(argc) : 0;
  return r == 5 || r == 7 || r == 0 ? 0 : r;
}
C
"$MIPCC" -fmip-generate=counts -O1 prog.c -o prog
"$MIPCC" -fmip-generate=counts -O1 -DOTHER prog.c -o other
"$MIPDATA" extract prog -o prog.mipmap >/dev/null
"$MIPDATA" extract other -o other.mipmap >/dev/null
MIP_PROFILE_FILE=other.mipraw ./other x
for i in $(seq 1 20); do
  if [ $((i % 2)) = 0 ]; then
    MIP_PROFILE_FILE=run$i.mipraw ./prog x
  else
    MIP_PROFILE_FILE=run$i.mipraw ./prog
  fi
done

# runs_and_calls PROFILE: "RUNS CALLS_OF_odd"
runs_and_calls() {
  "$MIPDATA" show -p "$1" --format json |
    jq -r '"\(.runs) \(.functions[] | select(.name == "odd") | .calls)"'
}

# 1. twenty merges of one run each into one profile, all at once
"$MIPDATA" create -p one.mip prog.mipmap
pids=""
for i in $(seq 1 20); do
  timeout 120 "$MIPDATA" merge -p one.mip run$i.mipraw 2>>err.txt &
  pids="$pids $!"
done
failed=0
for pid in $pids; do wait "$pid" || failed=$((failed + 1)); done
got=$(runs_and_calls one.mip)
if [ "$failed" = 0 ] && [ "$got" = "20 10" ] && [ ! -s err.txt ]; then
  pass "20 parallel merges into one profile: 20 runs, odd called 10 times"
else
  fail "20 parallel merges: $failed failed, runs and calls '$got', stderr: $(head -c 300 err.txt)"
fi
if ls ./*.tmp.* ./*.lock >/dev/null 2>&1; then
  fail "files left behind: $(ls ./*.tmp.* ./*.lock 2>/dev/null | tr '\n' ' ')"
else
  pass "nothing left behind"
fi

# 2. two profiles named in both orders, and one under another name: no
#    deadlock, nothing lost
"$MIPDATA" create -p a.mip prog.mipmap
"$MIPDATA" create -p b.mip other.mipmap
pids=""
for i in $(seq 1 10); do
  if [ $((i % 2)) = 0 ]; then
    timeout 120 "$MIPDATA" merge -p a.mip -p b.mip run$i.mipraw other.mipraw &
  else
    timeout 120 "$MIPDATA" merge -p b.mip -p a.mip other.mipraw run$i.mipraw &
  fi
  pids="$pids $!"
  timeout 120 "$MIPDATA" merge -p ./b.mip other.mipraw &
  pids="$pids $!"
done
failed=0
for pid in $pids; do wait "$pid" || failed=$((failed + 1)); done
a=$(runs_and_calls a.mip) b=$(runs_and_calls b.mip)
if [ "$failed" = 0 ] && [ "$a" = "10 5" ] && [ "$b" = "20 20" ]; then
  pass "merges naming profiles in other orders and under other names: a $a, b $b"
else
  fail "merges in other orders: $failed failed, a '$a', b '$b'"
fi

# 3. several profiles, all or nothing: the second one's directory cannot be
#    written, so the first one, which could be, stays as it was. (Root
#    writes anywhere: the merge runs as nobody then.)
mkdir -p dirs/a dirs/b
"$MIPDATA" create -p dirs/a/prog.mip prog.mipmap
"$MIPDATA" create -p dirs/b/other.mip other.mipmap
cp dirs/a/prog.mip prog.before
chmod 755 "$TMP"
chmod 777 dirs/a
chmod 555 dirs/b
as_user() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
  else
    "$@"
  fi
}
set +e
as_user "$MIPDATA" merge -p dirs/a/prog.mip -p dirs/b/other.mip run2.mipraw \
  other.mipraw 2>err3.txt
rc=$?
set -e
left=$(find dirs -name '*.tmp.*' | tr '\n' ' ')
if [ "$rc" = 1 ] && [ "$(wc -l <err3.txt)" = 1 ] &&
  grep -q "^mipdata: dirs/b/other.mip: cannot create: Permission denied" err3.txt &&
  cmp -s prog.before dirs/a/prog.mip && [ -z "$left" ]; then
  pass "a profile that cannot be written leaves the others as they were: $(cat err3.txt)"
else
  fail "second profile unwritable: exit $rc, prog.mip $(cmp -s prog.before dirs/a/prog.mip && echo kept || echo changed), temporaries '$left', stderr: $(cat err3.txt)"
fi
chmod 777 dirs/b
if as_user "$MIPDATA" merge -p dirs/a/prog.mip -p dirs/b/other.mip run2.mipraw \
  other.mipraw 2>err3.txt && [ "$(runs_and_calls dirs/a/prog.mip)" = "1 1" ] &&
  [ "$(runs_and_calls dirs/b/other.mip)" = "1 1" ]; then
  pass "the same merge, the directory writable: both profiles updated"
else
  fail "the same merge, the directory writable: $(cat err3.txt)"
fi

finish
