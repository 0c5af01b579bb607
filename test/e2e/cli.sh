#!/bin/sh
# mipdata's command line and output, the same for every command:
#   1. --version: MIP's version (include/mip/version.h) and the LLVM it is
#      built for (llvm-config)
#   2. CMD --help, made from the option table, names what docs/mipdata.md's
#      synopsis names, and nothing else
#   3. one parser: the same messages, the same syntax, for every command
#   4. no partial output: a command that fails after its output began
#      leaves stdout empty and no -o file (nor a temporary one); -o onto a
#      device or a directory is refused
#   test/e2e/cli.sh BUILD_DIR [MIPDATA]
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
SRC=$(cd "$HERE/../.." && pwd)
make_tmp
cd "$TMP"

COMMANDS="extract create merge show order annotate symbolize export diff"

cat >prog.c <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int twice(int x) { return 2 * x; }
int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(16);
  p[0] = (char)twice(argc);
  printf("%d\n", p[0]);
  free(p);
  return 0;
}
C
"$MIPCC" -fmip-generate=all,heap -g -O1 prog.c -o prog
MIP_PROFILE_FILE=run.mipraw ./prog >/dev/null
"$MIPDATA" extract prog -o prog.mipmap >/dev/null
"$MIPDATA" create -p prog.mip prog.mipmap
"$MIPDATA" merge -p prog.mip --debug prog run.mipraw
head -c 50 prog.mip >trunc.mip
ADDR=$("$LLVM_BIN/llvm-nm" prog | sed -n 's/^0*\([0-9a-f]*\) T twice$/0x\1/p')

# run NAME ARGS...: mipdata ARGS with stdout in NAME.out, stderr in
# NAME.err, the status in RC
run() {
  name=$1
  shift
  set +e
  "$MIPDATA" "$@" >"$name.out" 2>"$name.err"
  RC=$?
  set -e
}

# leftovers: temporary files anywhere below here
leftovers() { find . -name '*.tmp.*' | tr '\n' ' '; }

# ---- 1. --version -----------------------------------------------------------
version=$(sed -n 's/^#define MIP_VERSION "\(.*\)"$/\1/p' "$SRC/include/mip/version.h")
llvm=$("$LLVM_BIN/llvm-config" --version)
run version --version
if [ "$RC" = 0 ] && [ -n "$version" ] && [ ! -s version.err ] &&
  [ "$(cat version.out)" = "mipdata (MIP) $version, built for LLVM $llvm" ]; then
  pass "--version: $(cat version.out)"
else
  fail "--version: exit $RC, '$(cat version.out)' (want MIP $version, LLVM $llvm), $(cat version.err)"
fi

# ---- 2. --help against the documented synopsis ------------------------------
# documented CMD: the long options docs/mipdata.md's synopsis gives CMD
documented() {
  awk -v cmd="$1" '/^## / { exit } /^    mipdata / { on = ($2 == cmd) }
    /^$/ { on = 0 } on' \
    "$SRC/docs/mipdata.md" | grep -oE -- '(^|[[ |])--?[a-z][a-z-]*' |
    sed 's/^[[ |]//; s/^-p$/--profile/; s/^-o$/--output/' | sort -u
}
# listed FILE: the long options a --help output lists
listed() {
  grep -oE -- '^  (-[a-z], |    )--[a-z][a-z-]*' "$1" | grep -oE -- '--[a-z-]+' | sort -u
}
for cmd in $COMMANDS; do
  run help "$cmd" --help
  listed help.out >listed.txt
  documented "$cmd" >documented.txt
  if [ "$RC" = 0 ] && [ ! -s help.err ] &&
    head -n 1 help.out | grep -q "^usage: mipdata $cmd " &&
    [ -s documented.txt ] && cmp -s listed.txt documented.txt; then
    pass "$cmd --help lists what docs/mipdata.md names: $(tr '\n' ' ' <listed.txt)"
  else
    fail "$cmd --help: exit $RC, lists '$(tr '\n' ' ' <listed.txt)', docs '$(tr '\n' ' ' <documented.txt)'"
  fi
done

# ---- 3. one parser ----------------------------------------------------------
# An unknown option: two lines (the problem, where the help is), status 2,
# nothing on stdout, for every command.
for cmd in $COMMANDS; do
  run bogus "$cmd" --bogus
  want="mipdata $cmd: unknown or ambiguous option '--bogus'
Try 'mipdata $cmd --help'."
  if [ "$RC" = 2 ] && [ ! -s bogus.out ] && [ "$(cat bogus.err)" = "$want" ]; then
    pass "$cmd --bogus: $(head -n 1 bogus.err)"
  else
    fail "$cmd --bogus: exit $RC, stderr: $(cat bogus.err)"
  fi
done

# The same syntax everywhere: -pFILE, --profile=FILE, an abbreviation,
# options after operands, "--".
"$MIPDATA" show -p prog.mip --format json >plain.json
for form in "-pprog.mip --format json" "--profile=prog.mip --format=json" \
  "--prof prog.mip --form json"; do
  # shellcheck disable=SC2086
  run form show $form
  if [ "$RC" = 0 ] && cmp -s form.out plain.json; then
    pass "show $form: as show -p prog.mip --format json"
  else
    fail "show $form: exit $RC, $(cat form.err)"
  fi
done
"$MIPDATA" create -p a.mip prog.mipmap
"$MIPDATA" create -p b.mip prog.mipmap
"$MIPDATA" merge -p a.mip --debug prog run.mipraw
"$MIPDATA" merge run.mipraw -p b.mip --debug prog
if cmp -s a.mip b.mip; then
  pass "merge: options after the inputs read as before them"
else
  fail "merge: options after the inputs give another profile"
fi
run dashdash merge -p b.mip -- --debug
if [ "$RC" = 1 ] && grep -q "^mipdata: --debug: cannot open" dashdash.err; then
  pass "after --, an option is an input: $(cat dashdash.err)"
else
  fail "--: exit $RC, $(cat dashdash.err)"
fi

# Ranged numbers, parsed in one place: the same setting, the same message.
run order order -p prog.mip --explain --hot-share 2
run annotate annotate -p prog.mip --hot-share 2
if [ "$RC" = 2 ] && [ "$(head -n 1 order.err | sed 's/^mipdata order: //')" = \
  "$(head -n 1 annotate.err | sed 's/^mipdata annotate: //')" ]; then
  pass "order and annotate --hot-share 2: $(head -n 1 order.err)"
else
  fail "--hot-share 2: order '$(head -n 1 order.err)', annotate '$(head -n 1 annotate.err)'"
fi
for case in "cluster-size:0:whole number from 1 up" "startup:1x:whole number from 0 up" \
  "startup:-3:whole number from 0 up" "startup::whole number from 0 up"; do
  option=${case%%:*} rest=${case#*:} value=${rest%%:*} want=${rest#*:}
  run range order -p prog.mip --explain "--$option" "$value"
  if [ "$RC" = 2 ] && [ ! -s range.out ] &&
    [ "$(head -n 1 range.err)" = "mipdata order: --$option wants a $want, not '$value'" ]; then
    pass "order --$option '$value': $(head -n 1 range.err)"
  else
    fail "order --$option '$value': exit $RC, $(head -n 1 range.err)"
  fi
done

# ---- 4. nothing partial -------------------------------------------------------
# fails NAME [--stdout-full] ARGS...: exit 1 with one stderr line naming
# WHAT; no stdout (not checked when it was /dev/full), no OUT file, no
# temporary file
fails() {
  name=$1 what=$2 out=$3
  shift 3
  if [ "$1" = --stdout-full ]; then
    shift
    set +e
    "$MIPDATA" "$@" >/dev/full 2>"$name.err"
    RC=$?
    set -e
    : >"$name.out"
  else
    run "$name" "$@"
  fi
  left=$(leftovers)
  if [ "$RC" = 1 ] && [ "$(wc -l <"$name.err")" = 1 ] &&
    grep -q "^mipdata: $what" "$name.err" && [ ! -s "$name.out" ] &&
    [ ! -e "$out" ] && [ -z "$left" ]; then
    pass "$name: nothing written: $(cat "$name.err")"
  else
    fail "$name: exit $RC, stdout $(wc -c <"$name.out") bytes, $out $( [ -e "$out" ] && echo left || echo absent), temporaries '$left', stderr: $(cat "$name.err")"
    rm -f "$out"
    find . -name '*.tmp.*' -exec rm -f {} +
  fi
}

# extract: the map file is made, then its summary cannot be printed
fails extract "stdout: cannot write" out.mipmap --stdout-full extract prog -o out.mipmap
# create: its one output cannot be placed
fails create "nodir/new.mip: cannot create" nodir/new.mip create -p nodir/new.mip prog.mipmap
# show, annotate: the report is made, its -o file cannot be placed
fails show "nodir/show.txt: cannot create" nodir/show.txt show -p prog.mip -o nodir/show.txt
fails annotate "nodir/annotate.txt: cannot create" nodir/annotate.txt \
  annotate -p prog.mip --debug prog -o nodir/annotate.txt
# order: the ordering file is made, then the explanation cannot be printed
fails order "stdout: cannot write" order.txt --stdout-full order -p prog.mip -o order.txt --explain
# symbolize: the first address is printed, the second is none
printf '%s\nbogus\n' "$ADDR" >addrs.txt
fails symbolize "stdin: line 2: 'bogus' is not an address" none.txt \
  symbolize --debug prog <addrs.txt
fails "symbolize -o" "stdin: line 2: 'bogus' is not an address" sym.txt \
  symbolize --debug prog -o sym.txt <addrs.txt
# (merge: test/e2e/merge.sh, profiles of which one cannot be written)

# A command that fails leaves an existing -o file as it was.
printf 'old\n' >keep.txt
run keep show -p trunc.mip -o keep.txt
if [ "$RC" = 1 ] && [ "$(cat keep.txt)" = old ] && [ ! -s keep.out ] &&
  grep -q "^mipdata: trunc.mip: truncated" keep.err; then
  pass "show -p trunc.mip -o keep.txt: keep.txt as it was"
else
  fail "show -o over a file, failing: exit $RC, keep.txt '$(cat keep.txt)', $(cat keep.err)"
fi

# -o FILE holds what stdout would have.
for cmd in show annotate; do
  "$MIPDATA" "$cmd" -p prog.mip --debug prog >stdout.txt
  run report "$cmd" -p prog.mip --debug prog -o report.txt
  if [ "$RC" = 0 ] && [ ! -s report.out ] && [ -s stdout.txt ] &&
    cmp -s report.txt stdout.txt; then
    pass "$cmd -o report.txt: what stdout gets"
  else
    fail "$cmd -o report.txt: exit $RC, $(cat report.err)"
  fi
done
"$MIPDATA" symbolize --debug prog "$ADDR" >stdout.txt
run report symbolize --debug prog -o report.txt "$ADDR"
if [ "$RC" = 0 ] && [ ! -s report.out ] && grep -q '^twice$' stdout.txt &&
  cmp -s report.txt stdout.txt; then
  pass "symbolize -o report.txt: what stdout gets"
else
  fail "symbolize -o report.txt: exit $RC, $(cat report.err)"
fi

# -o onto something that is no regular file: refused, left as it is (a
# rename would put a file in a device's place)
mkdir adir
run dir order -p prog.mip -o adir
if [ "$RC" = 1 ] && [ -d adir ] && [ "$(cat dir.err)" = "mipdata: adir: cannot write: not a regular file" ]; then
  pass "order -o DIRECTORY: $(cat dir.err)"
else
  fail "order -o DIRECTORY: exit $RC, $(cat dir.err)"
fi
if mknod null c 1 3 2>/dev/null; then
  for cmd in "order -p prog.mip -o null" "create -p null prog.mipmap" \
    "extract prog -o null" "show -p prog.mip -o null"; do
    # shellcheck disable=SC2086
    run dev $cmd
    if [ "$RC" = 1 ] && [ -c null ] && [ "$(cat dev.err)" = "mipdata: null: cannot write: not a regular file" ]; then
      pass "$cmd (a device): refused, the device stays"
    else
      fail "$cmd (a device): exit $RC, $(ls -l null), $(cat dev.err)"
      rm -f null
      mknod null c 1 3
    fi
  done
else
  echo "skip -o onto a device: mknod needs root"
fi

finish
