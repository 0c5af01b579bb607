#!/bin/sh
# fork(): the child writes its own file (".<pid>" inserted when the pattern
# has no %p) holding only what it ran after the fork; the parent's keeps
# all of its own calls, before and after, and nothing of the child's.
# A child that ends with _exit writes nothing; one that execs is a new
# program with a profile of its own.
#   test/e2e/fork.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/fork
make_tmp
cd "$TMP"

"$MIPCC" -fmip-generate=counts,order -O2 "$PROGS/main.c" -o forker
mip_create forker empty.mip

# calls_of RAW...: merges the raws into a new profile and prints
# "name=calls/covered_runs" for each function, sorted, then "runs=N"
calls_of() {
  cp empty.mip check.mip
  "$MIPDATA" merge -p check.mip "$@"
  mip_show check.mip |
    jq -r '(.functions[] | "\(.name)=\(.calls)/\(.covered_runs)"), "runs=\(.runs)"' |
    tr '\n' ' ' | sed 's/ $//'
}

PARENT="before=3/1 both=6/1 child_main=0/0 child_only=0/0 exec_only=0/0 main=1/1 parent_after=6/1 runs=1"
CHILD="before=0/0 both=5/1 child_main=1/1 child_only=7/1 exec_only=0/0 main=0/0 parent_after=0/0 runs=1"
BOTH="before=3/1 both=11/2 child_main=1/1 child_only=7/1 exec_only=0/0 main=1/1 parent_after=6/1 runs=2"
EXECD="before=0/0 both=1/1 child_main=0/0 child_only=0/0 exec_only=9/1 main=1/1 parent_after=0/0 runs=1"

# 1. the child exits normally: two files, the child's named by its pid
mkdir normal
(cd normal && ../forker exit >out.txt 2>err.txt)
child=$(sed -n 's/^child //p' normal/out.txt)
files=$(cd normal && ls -- *.mipraw | sort | tr '\n' ' ')
want=$(printf '%s\n' default.mipraw "default.$child.mipraw" | sort | tr '\n' ' ')
expect_eq "two raw files" "$files" "$want"
[ ! -s normal/err.txt ] && pass "nothing on stderr" || fail "stderr: $(cat normal/err.txt)"
expect_eq "parent: its own calls, before and after the fork" \
  "$(calls_of normal/default.mipraw)" "$PARENT"
expect_eq "child: only its calls after the fork" \
  "$(calls_of "normal/default.$child.mipraw")" "$CHILD"
expect_eq "both merged: the sum; child_only covered in the child's run only" \
  "$(calls_of normal/default.mipraw "normal/default.$child.mipraw")" "$BOTH"
pid=$(dump_value "normal/default.$child.mipraw" .header.pid)
expect_eq "the child's raw header holds the child's pid" "$pid" "$child"

# 2. with %p in the pattern nothing is inserted
mkdir withpid
(cd withpid && MIP_PROFILE_FILE='run-%p.raw' ../forker exit >out.txt)
child=$(sed -n 's/^child //p' withpid/out.txt)
n=$(ls withpid/run-*.raw | wc -l)
[ "$n" = 2 ] && [ -s "withpid/run-$child.raw" ] &&
  pass "with %p: run-<pid>.raw for each: $(cd withpid && ls run-*.raw | tr '\n' ' ')" ||
  fail "with %p: $(ls withpid | tr '\n' ' ')"
parent=$(cd withpid && ls run-*.raw | grep -v "run-$child.raw")
expect_eq "with %p: parent" "$(calls_of "withpid/$parent")" "$PARENT"
expect_eq "with %p: child" "$(calls_of "withpid/run-$child.raw")" "$CHILD"

# 3. the child ends with _exit: nothing from it, the parent unaffected
mkdir quick
(cd quick && ../forker _exit >out.txt)
expect_eq "_exit child writes nothing" "$(cd quick && ls -- *.mipraw | tr '\n' ' ')" "default.mipraw "
expect_eq "_exit child: parent unaffected" "$(calls_of quick/default.mipraw)" "$PARENT"

# 4. the child execs (itself, as a new program writing exec.mipraw)
mkdir exec
(cd exec && ../forker exec >out.txt)
files=$(cd exec && ls -- *.mipraw | sort | tr '\n' ' ')
expect_eq "exec: the parent's file and the new program's" "$files" "default.mipraw exec.mipraw "
expect_eq "exec: parent unaffected" "$(calls_of exec/default.mipraw)" "$PARENT"
expect_eq "exec: the new program counts from zero" "$(calls_of exec/exec.mipraw)" "$EXECD"

# 5. a child that gives itself a new environment (nginx's workers keep TZ
# alone) writes where the process was started to write
mkdir newenv
(cd newenv && MIP_PROFILE_FILE='run-%p.raw' ../forker newenv >out.txt)
child=$(sed -n 's/^child //p' newenv/out.txt)
files=$(cd newenv && ls | grep -v out.txt | sort | tr '\n' ' ')
parent=$(cd newenv && ls run-*.raw | grep -v "run-$child.raw")
expect_eq "new environment: the child's file named by the pattern it started with" \
  "$files" "$(printf '%s\n' "$parent" "run-$child.raw" | sort | tr '\n' ' ')"
expect_eq "new environment: child" "$(calls_of "newenv/run-$child.raw")" "$CHILD"

# 6. a shared library in a forked child: ".%m.%p" (an instrumented
# library preloaded into the program is enough)
"$MIPCC" -fmip-generate -O2 -shared -fPIC "$HERE/progs/images/foo.c" -o libfoo.so
FOO_ID=$(readelf -n libfoo.so | sed -n 's/.*Build ID: //p' | cut -c1-16)
mkdir preload
(cd preload && LD_PRELOAD=../libfoo.so ../forker exit >out.txt)
child=$(sed -n 's/^child //p' preload/out.txt)
files=$(cd preload && ls -- *.mipraw | sort | tr '\n' ' ')
want=$(printf '%s\n' default.mipraw "default.$child.mipraw" "default.$FOO_ID.mipraw" \
  "default.$FOO_ID.$child.mipraw" | sort | tr '\n' ' ')
expect_eq "library in a forked child" "$files" "$want"

# 7. a fork after an instrumented library is unloaded: its fork handlers
# went with it (registered under the library's __dso_handle), so the
# fork runs none of its code, which is no longer mapped
cat >unload.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  (void)argc;
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h)
    return 1;
  dlclose(h);
  pid_t pid = fork();
  if (pid == 0)
    _exit(0);
  int status;
  if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
    return 2;
  puts("forked");
  return 0;
}
C
"$CLANG" -O2 unload.c -o unload -ldl
mkdir unload.d
if out=$(cd unload.d && ../unload "$TMP/libfoo.so" 2>&1) && [ "$out" = forked ]; then
  pass "fork after the library's dlclose: none of its handlers run"
else
  fail "fork after the library's dlclose: $out"
fi

if ls ./*/*.tmp.* >/dev/null 2>&1; then
  fail "temporary files left behind"
else
  pass "no temporary files left behind"
fi

finish
