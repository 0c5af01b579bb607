#!/bin/sh
# Every mipdata command against missing, empty, truncated, wrong-magic,
# newer-version and other-build files. Each case must exit non-zero with
# exactly one stderr line that names the file, and leave no output behind
# (no new file, no temporary file, an input profile byte-identical).
#
#   test/bad-input/run.sh BUILD_DIR [MIPDATA]
# MIPDATA defaults to BUILD_DIR/bin/mipdata; the sanitizer pass gives a
# mipdata built with ASan and UBSan.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/../e2e/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
make_tmp
cd "$TMP"

# ---- fixtures: a real program, its map, a profile, a raw profile, and the
# same for a second program (another build).
cat >prog.c <<'C'
#include <stdio.h>
__attribute__((noinline)) int twice(int x) { return 2 * x; }
int main(int argc, char **argv) { (void)argv; printf("%d\n", twice(argc)); return 0; }
C
cat >other.c <<'C'
int main(void) { return 0; }
C
"$MIPCC" -fmip-generate -g -O1 prog.c -o prog
"$MIPCC" -fmip-generate -O1 other.c -o other
"$CLANG" -O1 other.c -o plain
"$LLVM_BIN/llvm-strip" --strip-debug --keep-section=.debug_mip prog -o prog-nodebug
MIP_PROFILE_FILE=good.mipraw ./prog >/dev/null
MIP_PROFILE_FILE=other.mipraw ./other
"$MIPDATA" extract prog -o good.mipmap >/dev/null
"$MIPDATA" create -p good.mip good.mipmap
cp good.mip fresh.mip
"$LLVM_BIN/llvm-objcopy" --dump-section=.debug_mip=good.section prog /dev/null

# truncate FILE BYTES OUT
truncated() { head -c "$2" "$1" >"$3"; }
# with_byte FILE OFFSET OCTAL OUT: a copy with one byte replaced
with_byte() {
  cp "$1" "$4"
  printf "\\$3" | dd of="$4" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

: >empty
printf 'this is not a MIP file at all, just text\n' >text
truncated good.mipraw 60 trunc.mipraw
truncated good.mipraw "$(($(wc -c <good.mipraw) - 3))" trunc-payload.mipraw
with_byte good.mipraw 1 130 magic.mipraw        # 'X'
with_byte good.mipraw 8 143 newer.mipraw        # version 99
truncated good.mipmap 40 trunc.mipmap
truncated good.mipmap "$(($(wc -c <good.mipmap) - 8))" trunc-section.mipmap
with_byte good.mipmap 8 143 newer.mipmap
with_byte good.section 2 143 newer.section      # first record's version
truncated good.section 13 trunc.section
truncated good.mip 50 trunc.mip
truncated good.mip "$(($(wc -c <good.mip) - 9))" trunc-tail.mip
with_byte good.mip 1 130 magic.mip
with_byte good.mip 8 143 newer.mip
truncated prog 1000 trunc-elf
with_byte prog 1 130 magic-elf
cp prog newer-map-elf
"$LLVM_BIN/llvm-objcopy" --update-section=.debug_mip=newer.section newer-map-elf
cp prog.c not-a-binary.c

# expect_failure NAME NEEDLE FILE_NAMED -- mipdata ARGS...
# The command must fail with one stderr line containing NEEDLE and
# FILE_NAMED, and must not crash.
expect_failure() {
  name=$1 needle=$2 named=$3
  shift 4
  set +e
  "$MIPDATA" "$@" >stdout 2>stderr
  rc=$?
  set -e
  lines=$(wc -l <stderr)
  if [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then
    fail "$name: exit status $rc"
  elif [ "$lines" -ne 1 ]; then
    fail "$name: $lines stderr lines: $(head -c 300 stderr)"
  elif ! grep -qF "$needle" stderr || ! grep -qF "$named" stderr; then
    fail "$name: message lacks '$needle' or '$named': $(cat stderr)"
  else
    pass "$name: $(cat stderr)"
  fi
}

# no_output OUT: the failed command left neither OUT nor a temporary file.
no_output() {
  if [ -e "$1" ] || ls ./*.tmp.* >/dev/null 2>&1; then
    fail "left output behind: $(ls "$1" ./*.tmp.* 2>/dev/null | tr '\n' ' ')"
    rm -f "$1" ./*.tmp.*
  fi
}

# ---- extract
for case in "missing:cannot open:absent" "empty:not an ELF:empty" \
  "text:not an ELF:text" "magic-elf:not an ELF:magic-elf" \
  "trunc-elf:ELF:trunc-elf" "plain:no MIP map:plain" \
  "newer-map-elf:newer:newer-map-elf" "not-a-binary.c:not an ELF:not-a-binary.c"; do
  file=${case%%:*} rest=${case#*:} needle=${rest%%:*}
  [ "$file" = missing ] && file=absent
  expect_failure "extract $file" "$needle" "$file" -- extract "$file" -o out.mipmap
  no_output out.mipmap
done

# ---- create
for case in "absent:cannot open" "empty:empty file" "text:not a MIP map" \
  "trunc.mipmap:truncated" "trunc-section.mipmap:truncated" \
  "newer.mipmap:newer" "newer.section:newer" "trunc.section:not a MIP map" \
  "good.mipraw:raw profile" "good.mip:indexed profile"; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "create $file" "$needle" "$file" -- create -p out.mip "$file"
  no_output out.mip
done

# ---- merge: bad profile
for case in "absent:cannot open" "empty:empty file" "text:bad magic" \
  "trunc.mip:truncated" "trunc-tail.mip:truncated" "magic.mip:bad magic" \
  "newer.mip:newer" "good.mipraw:raw profile"; do
  file=${case%%:*} needle=${case#*:}
  [ -e "$file" ] && cp "$file" before
  expect_failure "merge into $file" "$needle" "$file" -- merge -p "$file" good.mipraw
  if [ -e "$file" ] && ! cmp -s before "$file"; then fail "merge changed $file"; fi
  no_output absent
done

# ---- merge: bad inputs; the profile must stay as it was
cp good.mip before
for case in "absent:cannot open" "empty:empty file" "text:bad magic" \
  "trunc.mipraw:truncated" "trunc-payload.mipraw:truncated" \
  "magic.mipraw:bad magic" "newer.mipraw:newer" \
  "other.mipraw:another build" "good.mipmap:map file" "newer.mip:newer"; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "merge $file" "$needle" "$file" -- merge -p good.mip good.mipraw "$file"
  if ! cmp -s before good.mip; then
    fail "merge of $file changed good.mip"
    cp before good.mip
  fi
  no_output absent
done
# another build names both build-ids
expect_failure "merge other build names both ids" "build-id" "good.mip" -- \
  merge -p good.mip other.mipraw

# ---- show
for case in "absent:cannot open" "empty:empty file" "trunc.mip:truncated" \
  "magic.mip:bad magic" "newer.mip:newer" "good.mipmap:map file"; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "show $file" "$needle" "$file" -- show -p "$file"
  [ -s stdout ] && fail "show $file printed output"
done
expect_failure "show --debug other build" "does not match" "other" -- \
  show -p good.mip --debug other
expect_failure "show --debug without DWARF" "debug information" "prog-nodebug" -- \
  show -p good.mip --debug prog-nodebug
expect_failure "show --debug not ELF" "not an ELF" "text" -- \
  show -p good.mip --debug text

# ---- the good files really are good
if "$MIPDATA" merge -p fresh.mip good.mipraw && "$MIPDATA" show -p fresh.mip \
  --debug prog --format json | jq -e '.runs == 1 and ([.functions[] | select(.covered)] | length) == 2' >/dev/null; then
  pass "good files merge and show"
else
  fail "good files do not merge and show"
fi

finish
