#!/bin/sh
# The runtime inside real programs: when it writes, where, and that it
# never changes what the program does.
#   test/e2e/runtime.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"

cat >prog.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) void in_atexit(void) { puts("atexit ran"); }
__attribute__((noinline)) void in_destructor(void) { puts("destructor ran"); }
__attribute__((destructor)) static void late(void) { in_destructor(); }
int main(int argc, char **argv) {
  atexit(in_atexit);
  if (argc > 1 && strcmp(argv[1], "exit") == 0)
    exit(5);
  puts("main done");
  return 3;
}
C
cat >statics.cpp <<'C'
#include <cstdio>
__attribute__((noinline)) void from_static_destructor() { std::puts("static gone"); }
struct Global { ~Global() { from_static_destructor(); } } global;
int main() { return 0; }
C
"$MIPCC" -fmip-generate -O2 prog.c -o prog
"$MIPCXX" -fmip-generate -O2 statics.cpp -o statics
mip_create prog prog.mip
mip_create statics statics.mip

# covered_in RAW BINARY NAME: prints covered_runs of NAME
covered_in() {
  cp "$2.mip" check.mip
  "$MIPDATA" merge -p check.mip "$1"
  mip_show check.mip >check.json
  mip_field check.json "$3" covered_runs
}

# 1. exit status and output are the program's own, by return and by exit()
set +e
./prog >out.txt 2>err.txt; rc=$?
set -e
if [ "$rc" = 3 ] && [ ! -s err.txt ] && grep -q "main done" out.txt &&
  [ -s default.mipraw ]; then
  pass "return from main: status 3 kept, profile written, stderr empty"
else
  fail "return from main: status $rc, stderr: $(cat err.txt)"
fi
set +e
MIP_PROFILE_FILE=exit.mipraw ./prog exit >/dev/null; rc=$?
set -e
[ "$rc" = 5 ] && [ -s exit.mipraw ] &&
  pass "exit(5): status kept, profile written" || fail "exit(5): status $rc"

# 2. written after atexit handlers, C destructors and C++ static destructors
n=$(covered_in default.mipraw prog in_atexit)
[ "$n" = 1 ] && pass "atexit handler counted" || fail "atexit handler: $n"
n=$(covered_in default.mipraw prog in_destructor)
[ "$n" = 1 ] && pass "destructor counted" || fail "destructor: $n"
MIP_PROFILE_FILE=statics.mipraw ./statics >/dev/null
n=$(covered_in statics.mipraw statics _Z22from_static_destructorv)
[ "$n" = 1 ] && pass "C++ static destructor counted" || fail "static destructor: $n"

# 3. file name patterns; parent directories are made; no temporary left
MIP_PROFILE_FILE='out/%h/run-%p-%%.mipraw' ./prog >/dev/null || true
host=$(uname -n)
found=$(ls out/"$host"/ 2>/dev/null | tr '\n' ' ')
case "$found" in
run-[0-9]*-%.mipraw" ") pass "%h/%p/%% expanded: out/$host/$found" ;;
*) fail "pattern expansion gave: '$found'" ;;
esac
if ls ./*.tmp.* out/*/*.tmp.* >/dev/null 2>&1; then
  fail "temporary files left behind"
else
  pass "no temporary files left behind"
fi

# 4. a profile that cannot be written: one stderr line, behaviour unchanged
set +e
MIP_PROFILE_FILE=/proc/no/such/dir/x.mipraw ./prog >out.txt 2>err.txt; rc=$?
set -e
if [ "$rc" = 3 ] && [ "$(wc -l <err.txt)" = 1 ] &&
  grep -q "^mip: cannot write profile '/proc/no/such/dir/x.mipraw': " err.txt &&
  grep -q "atexit ran" out.txt; then
  pass "unwritable: $(cat err.txt); status 3 kept"
else
  fail "unwritable: status $rc, stderr: $(cat err.txt)"
fi

# 5. the raw profile belongs to this build
if cp statics.mip other.mip &&
  ! "$MIPDATA" merge -p other.mip default.mipraw 2>/dev/null; then
  pass "raw profile refused by another build's profile"
else
  fail "raw profile accepted by another build's profile"
fi

# 6. MIP_PROFILE_FILE naming a device or a FIFO: written into, never
#    replaced by a regular file
mknod null c 1 3 2>/dev/null || cp -a /dev/null null 2>/dev/null || true
if [ -c null ]; then
  set +e
  MIP_PROFILE_FILE=$TMP/null ./prog >/dev/null 2>err.txt; rc=$?
  set -e
  if [ "$rc" = 3 ] && [ -c null ] && [ ! -s err.txt ]; then
    pass "character device: written into, still a device, status 3"
  else
    fail "character device: status $rc, device $(ls -l null), stderr: $(cat err.txt)"
  fi
else
  pass "character device: cannot make one here (skipped)"
fi
mkfifo fifo
cat fifo >from-fifo.mipraw &
reader=$!
exec 4>fifo # returns once the reader has the FIFO open
set +e
MIP_PROFILE_FILE=$TMP/fifo ./prog >/dev/null 2>err.txt; rc=$?
set -e
exec 4>&- # the reader sees the end once the program's end is closed too
wait "$reader"
if [ "$rc" = 3 ] && [ -p fifo ] && [ ! -s err.txt ] &&
  [ "$(covered_in from-fifo.mipraw prog main)" = 1 ]; then
  pass "FIFO with a reader: the whole profile went through it, still a FIFO"
else
  fail "FIFO: status $rc, $(ls -l fifo), stderr: $(cat err.txt)"
fi
set +e
MIP_PROFILE_FILE=$TMP/fifo ./prog >/dev/null 2>err.txt; rc=$?
set -e
if [ "$rc" = 3 ] && [ -p fifo ] && [ "$(wc -l <err.txt)" = 1 ] &&
  grep -q "^mip: cannot write profile '.*fifo': it is a FIFO that nobody reads" err.txt; then
  pass "FIFO without a reader: no hang, $(cat err.txt)"
else
  fail "FIFO without a reader: status $rc, stderr: $(cat err.txt)"
fi

# 7. a symbolic link: the file it names is written, the link stays
mkdir -p real
ln -s real/target.mipraw link.mipraw
MIP_PROFILE_FILE=link.mipraw ./prog >/dev/null || true
if [ -L link.mipraw ] && [ -s real/target.mipraw ] &&
  [ "$(covered_in link.mipraw prog main)" = 1 ]; then
  pass "symbolic link kept, its target written"
else
  fail "symbolic link: $(ls -l link.mipraw real)"
fi

# 8. a file size limit below the profile's size: the program is not
#    killed (SIGXFSZ), its status is kept, one line, no temporary left.
#    (stderr goes through a pipe: a file would be under the limit too)
set +e
(ulimit -f 0 && MIP_PROFILE_FILE=big.mipraw ./prog 2>&1 >/dev/null
  echo "status $?") | cat >err.txt
if [ "$(tail -n 1 err.txt)" = "status 3" ] && [ "$(wc -l <err.txt)" = 2 ] &&
  grep -q "^mip: cannot write profile 'big.mipraw': it is larger than the file size limit" err.txt &&
  ! ls big.mipraw* >/dev/null 2>&1; then
  pass "file size limit: $(head -n 1 err.txt); status 3 kept"
else
  fail "file size limit: $(cat err.txt), files: $(ls big.mipraw* 2>&1)"
fi
status=$( (ulimit -f 0 && MIP_PROFILE_FILE=/proc/no/such/dir/x.mipraw ./prog \
  >/dev/null 2>err.txt; echo "status $?") )
set -e
if [ "$status" = "status 3" ]; then
  pass "stderr a file at the size limit: the runtime's line does not kill the program"
else
  fail "stderr a file at the size limit: $status"
fi

# 9. started with stderr closed, the program opens a data file (it gets
#    fd 2): the runtime's line must not land in it
cat >datafile.c <<'C'
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
int main(void) {
  int fd = open("data.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const char *line = "the program's data\n";
  write(fd, line, strlen(line));
  return fd == 2 ? 0 : 1;
}
C
"$MIPCC" -fmip-generate -O2 datafile.c -o datafile
set +e
MIP_PROFILE_FILE=/proc/no/such/dir/x.mipraw ./datafile 2>&-; rc=$?
set -e
if [ "$rc" = 0 ] && [ "$(cat data.txt)" = "the program's data" ]; then
  pass "stderr closed at start: the data file on fd 2 holds only the program's data"
else
  fail "stderr closed at start: status $rc, data file: $(cat data.txt)"
fi

finish
