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
"$MIPCC" -fmip-generate -fmip-pool -g -O1 prog.c -o prog
"$MIPCC" -fmip-generate -O1 other.c -o other
"$CLANG" -O1 other.c -o plain
"$LLVM_BIN/llvm-strip" --strip-debug --keep-section=.debug_mip prog -o prog-nodebug
MIP_PROFILE_FILE=good.mipraw ./prog >/dev/null
MIP_PROFILE_FILE=other.mipraw ./other
"$MIPDATA" extract prog -o good.mipmap >/dev/null
"$MIPDATA" create -p good.mip good.mipmap
cp good.mip fresh.mip
"$LLVM_BIN/llvm-objcopy" --dump-section=.debug_mip=good.section prog /dev/null

# Broken copies, cut and changed where `mipdata dump` says the fields
# are: inside each header, in a payload, a version, a magic.
header_size() { dump_value "$1" '.header.header_size'; }
version_at() { dump_offset "$1" .header version; }
magic_at() { dump_offset "$1" .header magic; }
size_of() { wc -c <"$1"; }

: >empty
printf 'this is not a MIP file at all, just text\n' >text
truncated good.mipraw "$(($(header_size good.mipraw) / 2))" trunc.mipraw
truncated good.mipraw "$(($(size_of good.mipraw) - 3))" trunc-payload.mipraw
with_byte good.mipraw "$(($(magic_at good.mipraw) + 1))" 130 magic.mipraw # 'X'
with_byte good.mipraw "$(version_at good.mipraw)" 143 newer.mipraw          # 99
truncated good.mipmap "$(($(header_size good.mipmap) / 2))" trunc.mipmap
truncated good.mipmap "$(($(size_of good.mipmap) - 8))" trunc-section.mipmap
with_byte good.mipmap "$(version_at good.mipmap)" 143 newer.mipmap
# the first record's version; cut inside the first record's body
with_byte good.section "$(dump_offset good.section '.section.records[0]' version)" \
  143 newer.section
truncated good.section "$(($(dump_value good.section '.section.records[0].body.at') + 5))" \
  trunc.section
truncated good.mip "$(($(header_size good.mip) / 2))" trunc.mip
truncated good.mip "$(($(size_of good.mip) - 9))" trunc-tail.mip
with_byte good.mip "$(($(magic_at good.mip) + 1))" 130 magic.mip
with_byte good.mip "$(version_at good.mip)" 143 newer.mip
truncated prog 1000 trunc-elf
with_byte prog 1 130 magic-elf
cp prog newer-map-elf
"$LLVM_BIN/llvm-objcopy" --update-section=.debug_mip=newer.section newer-map-elf
cp prog.c not-a-binary.c
# An edge-counts record (map_edge_counts.inc, 48 bytes: count 1, name "f")
# after the records of a program built without block counts, whose units
# name no BCNT section to hold its counters; and that record in a version
# this MIP does not know.
edge_counts_record() { # VERSION (an octal escape)
  printf '\006\000%b\000\060\000\000\000' "$1"
  printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000'
  printf '\001\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000'
  printf 'f\000\000\000\000\000\000\000'
}
{ cat good.section; edge_counts_record '\001'; } >bcnt-nosection.section
{ cat good.section; edge_counts_record '\002'; } >bcnt-newer.section

# expect_failure NAME NEEDLE FILE_NAMED -- mipdata ARGS...
# The command must fail with one stderr line containing NEEDLE and
# FILE_NAMED, and must not crash.
expect_failure() {
  name=$1 needle=$2 named=$3
  shift 4
  set +e
  timeout 10 "$MIPDATA" "$@" >stdout 2>stderr
  rc=$?
  set -e
  lines=$(wc -l <stderr)
  if [ "$rc" -eq 124 ]; then
    fail "$name: still running after 10 s"
  elif [ "$rc" -eq 0 ] || [ "$rc" -ge 128 ]; then
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
  "good.mipraw:raw profile" "good.mip:indexed profile" \
  "bcnt-nosection.section:no unit has an edge counter section" \
  "bcnt-newer.section:map record version 2 is newer"; do
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

# ---- merge: pooled raw profiles (pool mode, %1m) no set of runs gives
MIP_PROFILE_FILE=pool-%1m.mipraw ./prog >/dev/null
MIP_PROFILE_FILE=pool-%1m.mipraw ./prog >/dev/null
mv pool-*_0.mipraw pooled.mipraw
cp fresh.mip pooled.mip
if "$MIPDATA" merge -p pooled.mip pooled.mipraw &&
  [ "$("$MIPDATA" show -p pooled.mip --format json | jq .runs)" = 2 ]; then
  pass "a pooled raw profile of two runs merges as two runs"
else
  fail "the pooled raw profile does not merge"
fi
# where the fields are, from the dump: the header's runs and flags, the
# first section's kind and the first total of its payload
runs_at=$(dump_offset pooled.mipraw .header runs)
flags_at=$(dump_offset pooled.mipraw .header flags)
kind_at=$(dump_offset pooled.mipraw '.sections[0]' kind)
cov_at=$(dump_value pooled.mipraw '.sections[] | select(.name == "POOL_COV") | .offset')
with_byte pooled.mipraw "$runs_at" 000 pool-none.mipraw   # runs: 0
with_byte pooled.mipraw "$cov_at" 003 pool-cov.mipraw     # entered in 3 runs of 2
with_byte pooled.mipraw "$flags_at" 000 pool-flag.mipraw  # not pooled, 2 runs
with_byte pooled.mipraw "$kind_at" 001 pool-kind.mipraw   # a run's counters
with_byte pooled.mipraw "$flags_at" 003 pool-covzero.mipraw # + COV_ZERO
with_byte pooled.mipraw "$flags_at" 005 pool-unknown.mipraw # + bit 2
for case in "pool-none.mipraw:0 runs in a pooled file" \
  "pool-covzero.mipraw:coverage bytes in a pooled file" \
  "pool-unknown.mipraw:unknown flags 0x5" \
  "pool-cov.mipraw:function 0 ran in 3 runs of 2" \
  "pool-flag.mipraw:2 runs in a one-run file" \
  "pool-kind.mipraw:counters of kind 1 in a pooled file"; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "merge $file" "$needle" "$file" -- merge -p good.mip "$file"
  if ! cmp -s before good.mip; then
    fail "merge of $file changed good.mip"
    cp before good.mip
  fi
  no_output absent
done

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

# ---- diff: a bad profile on either side; nothing written
for case in "absent:cannot open" "empty:empty file" "trunc.mip:truncated" \
  "magic.mip:bad magic" "newer.mip:newer" "good.mipmap:map file" \
  "good.mipraw:raw profile" "text:bad magic"; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "diff base $file" "$needle" "$file" -- diff "$file" good.mip -o out.txt
  no_output out.txt
  expect_failure "diff new $file" "$needle" "$file" -- diff good.mip "$file" --format json
  [ -s stdout ] && fail "diff new $file printed output"
done

# ---- symbolize: the reader of --debug binaries that show, annotate and
# merge use too
for case in "missing:cannot open:absent" "empty:not an ELF:empty" \
  "text:not an ELF:text" "magic-elf:not an ELF:magic-elf" \
  "trunc-elf:truncated ELF:trunc-elf" "plain:no debug information:plain" \
  "prog-nodebug:no debug information:prog-nodebug"; do
  file=${case%%:*} rest=${case#*:} needle=${rest%%:*}
  [ "$file" = missing ] && file=absent
  expect_failure "symbolize --debug $file" "$needle" "$file" -- \
    symbolize --debug "$file" 0x1000
  [ -s stdout ] && fail "symbolize --debug $file printed output"
done

# ---- annotate
# A heap profile to break: two malloc sites (0 and 1), each with a context.
cat >heap.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  volatile char *a = malloc(8), *b = malloc(16);
  a[0] = 1, b[0] = 2;
  printf("%d\n", a[0] + b[0]);
  free((void *)a), free((void *)b);
  return 0;
}
C
"$MIPCC" -fmip-generate=counts,heap -g -O1 heap.c -o heap
MIP_PROFILE_FILE=heap.mipraw ./heap >/dev/null
"$MIPDATA" extract heap -o heap.mipmap >/dev/null
"$MIPDATA" create -p heap.mip heap.mipmap
cp heap.mip heap-fresh.mip # its sites, no run
"$MIPDATA" merge -p heap.mip --debug heap heap.mipraw
# The heap sections, as `mipdata dump` shows them
CONTEXTS='.sections[] | select(.name == "HEAP_CONTEXTS") | .entries'
FRAMES='.sections[] | select(.name == "HEAP_FRAMES") | .entries'
expect_eq "heap fixture: the first two contexts' sites" \
  "$(dump_value heap.mip "[$CONTEXTS | .[0:2][] | .site] | map(tostring) | join(\" \")")" "0 1"
# the last context names a site past 65535 (still in order: its third
# byte); context 0 names site 3, before context 1's site 1
last=$(dump_value heap.mip "$CONTEXTS | length - 1")
with_byte heap.mip $(($(dump_offset heap.mip "$CONTEXTS | last" site) + 2)) 001 site-range.mip
with_byte heap.mip "$(dump_offset heap.mip "$CONTEXTS | first" site)" 003 context-order.mip
truncated heap.mip "$(($(size_of heap.mip) - 40))" trunc-heap.mip
# A frame's object (profile version 2): out of range (its last byte), and
# on a frame outside the image (flags bit 1; whose function already names
# the object: libc's), the function's string given as its object too.
with_byte heap.mip $(($(dump_offset heap.mip "$FRAMES | first" object) + 3)) 177 object-range.mip
i=$(dump_value heap.mip "[$FRAMES | .[] | .flags % 4 >= 2] | index(true)")
copy_bytes heap.mip "$(dump_offset heap.mip "$FRAMES | .[$i]" function)" \
  "$(dump_offset heap.mip "$FRAMES | .[$i]" object)" 4 object-outside.mip
# A block no function takes (function 0's count of blocks set to 0), its
# dependencies out of range: the whole-profile reader reads every block
# of the table, so the view must check them all too.
"$MIPCC" -fmip-generate=blocks -O1 prog.c -o prog-blocks
"$MIPDATA" extract prog-blocks -o blocks.mipmap >/dev/null
"$MIPDATA" create -p blocks.mip blocks.mipmap
BLOCKS='.sections[] | select(.name == "BLOCKS") | .entries'
orphan=$(dump_value blocks.mip "$BLOCKS | first | .first_block")
with_byte blocks.mip "$(dump_offset blocks.mip "$BLOCKS | first" block_count)" 000 unowned.mip
with_byte unowned.mip "$(dump_offset blocks.mip \
  ".sections[] | select(.name == \"BLOCK_TABLE\") | .entries[$orphan]" dep_count)" \
  001 orphan-deps.mip
# and that block run in more runs than the profile has: a merge writes it,
# where a function's range may take it
with_byte unowned.mip "$(dump_offset blocks.mip \
  ".sections[] | select(.name == \"BLOCK_TABLE\") | .entries[$orphan]" covered_runs)" \
  005 orphan-runs.mip

# The heap timeline (raw TIMELINE payload, indexed HEAP_PEAKS and
# HEAP_TIMELINE): a point's event set back to 0 (out of order), a peak's
# interval made 3, a point's bytes above the peak.
RAW_TL='.sections[] | select(.name == "HEAP_TIMELINE")'
PEAKS='.sections[] | select(.name == "HEAP_PEAKS") | .entries'
POINTS='.sections[] | select(.name == "HEAP_TIMELINE") | .entries'
with_byte heap.mipraw "$(dump_offset heap.mipraw "$RAW_TL | .points[1]" event)" 000 tl-order.mipraw
with_byte heap.mipraw "$(dump_offset heap.mipraw "$RAW_TL | .peak" interval)" 003 tl-interval.mipraw
with_byte heap.mip "$(dump_offset heap.mip "$PEAKS | first" interval)" 003 peak-interval.mip
with_byte heap.mip $(($(dump_offset heap.mip "$POINTS | first" bytes) + 5)) 001 point-above.mip
for case in "tl-order.mipraw:heap timeline has points out of order" \
  "tl-interval.mipraw:heap timeline has an interval that is not a power of two"; do
  file=${case%%:*} needle=${case#*:}
  cp heap.mip before
  expect_failure "merge $file" "corrupt raw profile: $needle" "$file" -- \
    merge -p heap.mip --debug heap "$file"
  cmp -s before heap.mip || fail "merge of $file changed heap.mip"
done

for case in "absent:cannot open" "empty:empty file" "text:bad magic" \
  "trunc.mip:truncated" "trunc-tail.mip:truncated" "trunc-heap.mip:truncated" \
  "magic.mip:bad magic" "newer.mip:newer" "good.mipmap:map file" \
  "good.mipraw:raw profile" "site-range.mip:heap context $last names site 655" \
  "context-order.mip:heap contexts out of order" \
  "object-range.mip:heap frame 0 names a string out of range" \
  "object-outside.mip:heap frame $i is outside the image and names an object" \
  "orphan-deps.mip:a block's dependencies are out of range" \
  "orphan-runs.mip:block $orphan of the table ran in 5 runs of 0" \
  "peak-interval.mip:heap peak 0 has an interval that is not a power of two" \
  "point-above.mip:heap timeline has a point above its peak"; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "annotate $file" "$needle" "$file" -- annotate -p "$file" --format json
  [ -s stdout ] && fail "annotate $file printed output"
done
for file in object-range.mip object-outside.mip; do
  expect_failure "show --heap $file" "corrupt profile: heap frame" "$file" -- \
    show -p "$file" --heap --format json
  [ -s stdout ] && fail "show --heap $file printed output"
  cp heap.mip before
  expect_failure "merge $file into a profile" "corrupt profile: heap frame" "$file" -- \
    merge -p heap.mip "$file"
  cmp -s before heap.mip || fail "merge of $file changed heap.mip"
done
expect_failure "annotate --debug other build" "does not match" "other" -- \
  annotate -p good.mip --debug other
# One validator: show, annotate (which reads through the compiler's view),
# merge and dump refuse each broken profile with the same line
for file in trunc.mip trunc-tail.mip trunc-heap.mip newer.mip \
  site-range.mip context-order.mip object-range.mip object-outside.mip \
  orphan-deps.mip peak-interval.mip point-above.mip; do
  cp "$file" target.mip
  show=$("$MIPDATA" show -p "$file" 2>&1 >/dev/null || true)
  annotate=$("$MIPDATA" annotate -p "$file" 2>&1 >/dev/null || true)
  merged=$("$MIPDATA" merge -p heap.mip "$file" 2>&1 >/dev/null || true)
  updated=$( ("$MIPDATA" merge -p target.mip heap.mipraw --debug heap 2>&1 >/dev/null || true) |
    sed 's/target\.mip/'"$file"'/')
  dumped=$("$MIPDATA" dump "$file" 2>&1 >/dev/null || true)
  if [ -n "$show" ] && [ "$show" = "$annotate" ] && [ "$show" = "$merged" ] &&
    [ "$show" = "$updated" ] && [ "$show" = "$dumped" ]; then
    pass "$file: show, annotate, merge (input or profile) and dump say the same: $show"
  else
    fail "$file: show '$show', annotate '$annotate', merge '$merged', into '$updated', dump '$dumped'"
  fi
done

# ---- dump: each kind of file refused as its reader refuses it, nothing
# printed (merge's raw profile reader, the profile validator, the map
# reader of create, extract's ELF reading)
for case in "absent:cannot open" "empty:empty file" "text:not a MIP map file" \
  "trunc.mipraw:truncated raw profile" "trunc-payload.mipraw:truncated raw profile" \
  "magic.mipraw:not a MIP map file" "newer.mipraw:raw profile version 99" \
  "trunc.mip:truncated indexed profile" "trunc-tail.mip:truncated profile" \
  "trunc-heap.mip:truncated profile" "newer.mip:profile version 99" \
  "site-range.mip:names site 655" "object-range.mip:heap frame 0 names a string" \
  "trunc.mipmap:truncated map file" "trunc-section.mipmap:truncated map file" \
  "newer.mipmap:map file version 99" "newer.section:map record version 99" \
  "trunc.section:not a MIP map file" "plain:no MIP map" "trunc-elf:ELF" \
  "magic-elf:not a MIP map file" "newer-map-elf:map record version 99"; do
  file=${case%%:*} needle=${case#*:}
  for format in text json; do
    expect_failure "dump $file ($format)" "$needle" "$file" -- dump "$file" --format $format
    [ -s stdout ] && fail "dump $file printed output"
  done
done

# ---- flamegraph: the profile and the base read as show reads them; a
# profile without heap data has nothing to draw; no page, no folded stacks
for case in "absent:cannot open" "empty:empty file" "text:bad magic" \
  "trunc-heap.mip:truncated" "newer.mip:newer" "good.mipmap:map file" \
  "site-range.mip:heap context $last names site 655" \
  "object-range.mip:heap frame 0 names a string out of range" \
  "good.mip:no heap data: this image has no allocation site ("; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "flamegraph $file" "$needle" "$file" -- flamegraph -p "$file" -o out.html
  no_output out.html
  expect_failure "flamegraph --base $file" "$needle" "$file" -- \
    flamegraph -p heap.mip --base "$file" -o out.html
  no_output out.html
  expect_failure "flamegraph --format folded $file" "$needle" "$file" -- \
    flamegraph -p "$file" --format folded -o out.folded
  no_output out.folded
done
expect_failure "flamegraph --debug other build" "does not match" "other" -- \
  flamegraph -p heap.mip --debug other -o out.html
no_output out.html

expect_failure "annotate --debug without DWARF" "debug information" "prog-nodebug" -- \
  annotate -p good.mip --debug prog-nodebug
expect_failure "annotate --debug not ELF" "not an ELF" "text" -- \
  annotate -p good.mip --debug text
expect_failure "annotate --debug missing" "cannot open" "absent" -- \
  annotate -p heap.mip --debug absent
[ -s stdout ] && fail "annotate --debug missing printed output"

# expect_usage NAME NEEDLE -- mipdata ARGS...: a usage error (status 2)
# whose message, on the first stderr line, names the problem; no output.
expect_usage() {
  name=$1 needle=$2
  shift 3
  set +e
  "$MIPDATA" "$@" >stdout 2>stderr
  rc=$?
  set -e
  if [ "$rc" -ne 2 ]; then
    fail "$name: exit status $rc"
  elif [ -s stdout ] || ! head -1 stderr | grep -qF -e "$needle"; then
    fail "$name: stdout $(wc -c <stdout) bytes; stderr lacks '$needle': $(head -1 stderr)"
  else
    pass "$name: $(head -1 stderr)"
  fi
}
expect_usage "annotate without -p" "-p PROFILE is required" -- annotate --format json
expect_usage "annotate --format xml" "unknown format 'xml'" -- annotate -p heap.mip --format xml
for case in "hot-share:1.5" "hot-share:-0.1" "hot-share:abc" "hot-share:" \
  "cold-max-density:-1" "cold-max-density:nan" "cold-min-lifetime:inf" \
  "cold-min-lifetime:1e10" "hot-min-density:0x" "hot-min-density:1e13"; do
  option=${case%%:*} value=${case#*:}
  expect_usage "annotate --$option '$value'" "--$option wants" -- \
    annotate -p heap.mip "--$option" "$value"
done
# The heap filters (report_filter.c), refused before any file is read
expect_usage "show --heap --alloc bogus" "--alloc: unknown allocator 'bogus'" -- \
  show -p heap.mip --heap --alloc malloc,bogus
expect_usage "annotate --alloc ''," "--alloc: unknown allocator ''" -- \
  annotate -p heap.mip --alloc ,malloc
expect_usage "show --heap --frame '('" "--frame: bad regular expression '('" -- \
  show -p heap.mip --heap --frame '('
expect_usage "show --heap sizes crossed" "--min-size is above --max-size" -- \
  show -p heap.mip --heap --min-size 10 --max-size 9
expect_usage "show --heap --min-size -1" "--min-size wants" -- \
  show -p heap.mip --heap --min-size -1
expect_usage "show --live without --heap" "go with --heap" -- show -p heap.mip --live
expect_usage "annotate ambiguous option" "ambiguous option '--hot'" -- annotate -p heap.mip --hot
expect_usage "annotate unknown option" "unknown or ambiguous option '--sort'" -- annotate -p heap.mip --sort size
expect_usage "annotate option without its value" "option '--debug' needs a value" -- \
  annotate -p heap.mip --debug
expect_usage "annotate extra argument" "unexpected argument 'x'" -- annotate -p heap.mip x
expect_usage "flamegraph --metric" "unknown metric 'size'" -- \
  flamegraph -p heap.mip --metric size
expect_usage "flamegraph --band without --base" "--band goes with --base" -- \
  flamegraph -p heap.mip --band 10
expect_usage "flamegraph --base with folded stacks" "--base goes with --format html" -- \
  flamegraph -p heap.mip --base heap.mip --format folded
expect_usage "flamegraph --merge-below 2" "--merge-below wants" -- \
  flamegraph -p heap.mip --merge-below 2
expect_usage "flamegraph --normalize" "unknown normalization 'pages'" -- \
  flamegraph -p heap.mip --base heap.mip --normalize pages
for expr in "total.byte>5%|unknown subject 'total.byte'" "bytes>5%|'>5%': unit '%' does not go" \
  "coverage>5KiB|'>5KiB': unit 'KiB' does not go" "total.bytes>|'>' is not a comparison" \
  "total.bytes=5|unknown subject 'total.bytes=5'" "total.bytes>5%&|nothing after '&'" \
  ">5%|no subject" "context.bytes>5pt|'>5pt': unit 'pt' does not go" \
  "live-bytes>x|'>x' is not a comparison" "bytes>1&&<2|'' is not a comparison"; do
  e=${expr%%|*} needle=${expr#*|}
  expect_usage "diff --fail-on '$e'" "--fail-on '$e': $needle" -- \
    diff good.mip good.mip --fail-on "$e" -o out.txt
  no_output out.txt
done
expect_usage "diff of one profile" "expects two profiles" -- diff good.mip
expect_usage "diff of three profiles" "expects two profiles" -- diff good.mip good.mip good.mip
expect_usage "diff --format yaml" "unknown format 'yaml'" -- diff good.mip good.mip --format yaml
expect_usage "diff --normalize" "unknown normalization 'bytes'" -- diff good.mip good.mip --normalize bytes
expect_usage "dump without a file" "expects one file" -- dump
expect_usage "dump --format xml" "unknown format 'xml'" -- dump heap.mip --format xml

# ---- a report that cannot be written (a full disk, a closed stdout) is a
# failure: one line, exit 1
# expect_write_error NAME -- mipdata ARGS...: against /dev/full and >&-
expect_write_error() {
  name=$1
  shift 2
  for target in full closed; do
    set +e
    if [ "$target" = full ]; then
      "$MIPDATA" "$@" >/dev/full 2>stderr
    else
      "$MIPDATA" "$@" >&- 2>stderr
    fi
    rc=$?
    set -e
    # (order's notes about the profile may come first)
    if [ "$rc" -ne 1 ] || [ "$(grep -cv ': note: ' stderr)" -ne 1 ] ||
      ! grep -q "^mipdata: stdout: cannot write: " stderr; then
      fail "$name, stdout $target: exit status $rc, stderr: $(head -c 300 stderr)"
    else
      pass "$name, stdout $target: $(grep -v ': note: ' stderr)"
    fi
  done
}
expect_write_error "show" -- show -p good.mip --debug prog
expect_write_error "show --format json" -- show -p good.mip --format json
expect_write_error "show --heap --format yaml" -- show -p heap.mip --heap --format yaml
expect_write_error "order --explain" -- order -p heap.mip -o order.txt --explain
expect_write_error "annotate" -- annotate -p heap.mip --debug heap
expect_write_error "symbolize" -- symbolize --debug prog 0x1000
expect_write_error "dump" -- dump heap.mip
expect_write_error "dump --format json" -- dump heap.mipraw --format json
expect_write_error "help" -- --help

# ---- names and paths that are not UTF-8 (a source directory named in
# Latin-1): JSON and YAML stay valid UTF-8, the byte becomes U+FFFD
latin1=$(printf 'caf\351')
mkdir "$latin1"
cp prog.c "$latin1/prog.c"
(cd "$latin1" && "$MIPCC" -fmip-generate=heap -g -O1 prog.c -o prog &&
  MIP_PROFILE_FILE=run.mipraw ./prog >/dev/null &&
  "$MIPDATA" extract prog -o prog.mipmap >/dev/null &&
  "$MIPDATA" create -p prog.mip prog.mipmap &&
  "$MIPDATA" merge -p prog.mip --debug prog run.mipraw)
for format in json yaml; do
  "$MIPDATA" show -p "$latin1/prog.mip" --debug "$latin1/prog" --format $format >names.$format
  # iconv refuses input that is not well-formed UTF-8
  if iconv -f UTF-8 -t UTF-8 names.$format >/dev/null 2>err.txt &&
    { [ $format = yaml ] || jq -e '[.functions[] | .file // empty] | length > 0 and
        all(contains("caf\ufffd/prog.c"))' names.$format >/dev/null; } &&
    grep -qF 'caf\ufffd/prog.c' names.$format; then
    pass "a Latin-1 directory name: $format is valid UTF-8, the byte shown as U+FFFD"
  else
    fail "a Latin-1 directory name, $format: $(cat err.txt) $(grep -a prog.c names.$format | head -n 2)"
  fi
done

# ---- the good files really are good
if "$MIPDATA" merge -p fresh.mip good.mipraw && "$MIPDATA" show -p fresh.mip \
  --debug prog --format json | jq -e '.runs == 1 and ([.functions[] | select(.covered)] | length) == 2' >/dev/null; then
  pass "good files merge and show"
else
  fail "good files do not merge and show"
fi
for file in good.mipraw good.mip good.mipmap good.section prog heap.mipraw heap.mip; do
  if "$MIPDATA" dump "$file" >dump.txt && mip_dump "$file" | jq -e '.kind' >/dev/null; then
    pass "$file dumps: $(head -2 dump.txt | tr '\n' ' ')"
  else
    fail "$file does not dump"
  fi
done
# ---- export: broken profiles, and profiles without what the format
# carries (a coverage-only profile: no heap data, no call counts; no
# --debug for the formats that name source files). Nothing written.
for format in pprof dhat lcov cobertura speedscope callgrind; do
  for case in "absent:cannot open" "empty:empty file" "text:bad magic" \
    "trunc.mip:truncated" "trunc-heap.mip:truncated" "magic.mip:bad magic" \
    "newer.mip:newer" "good.mipraw:raw profile"; do
    file=${case%%:*} needle=${case#*:}
    expect_failure "export --format $format $file" "$needle" "$file" -- \
      export -p "$file" --debug heap --format "$format" -o out.export
    no_output out.export
  done
  expect_failure "export --format $format --debug other build" "does not match" \
    "other" -- export -p heap.mip --debug other --format "$format" -o out.export
  no_output out.export
done
# What the profile lacks, and why (good.mip's map has no allocation site).
NO_SITE="this image has no allocation site ("
NO_CALLS="no call counts (build with -fmip-generate=counts) and no heap data"
for case in "pprof:$NO_CALLS to export as pprof: $NO_SITE" \
  "dhat:no heap data to export as DHAT: $NO_SITE" \
  "speedscope:$NO_CALLS to export as speedscope: $NO_SITE" \
  "callgrind:no call counts" \
  "lcov:give the profiled binary with --debug" \
  "cobertura:give the profiled binary with --debug"; do
  format=${case%%:*} needle=${case#*:}
  expect_failure "export --format $format of a coverage-only profile" "$needle" \
    good.mip -- export -p good.mip --format "$format" -o out.export
  no_output out.export
done
expect_failure "export --format dhat without heap data" "no heap data" "fresh.mip" -- \
  export -p fresh.mip --debug prog --format dhat -o out.export
no_output out.export
expect_failure "export --format dhat of a heap profile without runs" \
  "no heap data to export as DHAT: no run merged yet" "heap-fresh.mip" -- \
  export -p heap-fresh.mip --format dhat -o out.export
no_output out.export
expect_failure "flamegraph of a heap profile without runs" \
  "no heap data: no run merged yet" "heap-fresh.mip" -- \
  flamegraph -p heap-fresh.mip -o out.html
no_output out.html
expect_usage "export without --format" "--format pprof|dhat|lcov|cobertura|speedscope|callgrind|folded is required" -- export -p heap.mip
expect_usage "export --format xml" "unknown format 'xml'" -- export -p heap.mip --format xml
expect_usage "export without -p" "-p PROFILE is required" -- export --format pprof

# ---- data mode: broken DATA entries, refused by every reader ----------------
cat >data.c <<'C'
int counter, unused = 3;
int main(int argc, char **argv) { (void)argv; counter += argc; return counter > 5 ? unused : 0; }
C
"$MIPCC" -fmip-generate=data -O1 data.c -o data
MIP_PROFILE_FILE=data.mipraw ./data
"$MIPDATA" extract data -o data.mipmap >/dev/null
"$MIPDATA" create -p data.mip data.mipmap
"$MIPDATA" merge -p data.mip data.mipraw
DATA_ENTRIES='.sections[] | select(.name == "DATA") | .entries'
with_byte data.mip $(($(dump_offset data.mip "$DATA_ENTRIES | .[0]" counter_offset) + 7)) 001 data-range.mip
with_byte data.mip $(($(dump_offset data.mip "$DATA_ENTRIES | .[0]" name) + 3)) 001 data-string.mip
with_byte data.mip "$(dump_offset data.mip "$DATA_ENTRIES | .[1]" counter_offset)" 000 data-order.mip
for case in "data-range.mip:corrupt profile: variable 0 lies outside the data counters" \
  "data-string.mip:corrupt profile: variable 0 names a string out of range" \
  "data-order.mip:corrupt profile: variables out of order"; do
  file=${case%%:*} needle=${case#*:}
  expect_failure "show --data $file" "$needle" "$file" -- show -p "$file" --data
  [ -s stdout ] && fail "show --data $file printed output"
  expect_failure "order --data $file" "$needle" "$file" -- order -p "$file" --data -o out.txt
  no_output out.txt
  cp data.mip before
  expect_failure "merge $file into a profile" "$needle" "$file" -- merge -p data.mip "$file"
  cmp -s before data.mip || fail "merge of $file changed data.mip"
done
expect_failure "order --data of a profile without data" \
  "no data accesses in this profile: order --data needs a build with -fmip-generate=data" \
  "good.mip" -- order -p good.mip --data -o out.txt
no_output out.txt
expect_usage "show --data --heap" "--data takes no --heap, --covered or --uncovered" -- \
  show -p data.mip --data --heap
expect_usage "show --hot-share without --data" "--hot-share goes with --data" -- \
  show -p data.mip --hot-share 0.5

if "$MIPDATA" annotate -p heap.mip --debug heap --format json | jq -e \
  '.runs == 1 and (.allocations | length) == 2 and .summary.sites.total == 2' >/dev/null; then
  pass "the heap profile annotates"
else
  fail "the heap profile does not annotate"
fi


# ---- inputs that are not regular files: refused at once, not read (a
# FIFO's open would wait for a writer for ever)
mkfifo fifo
mkdir adir
cp good.mip before
for input in fifo adir; do
  kind="a FIFO"
  [ "$input" = adir ] && kind="a directory"
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086 # the arguments, split
    expect_failure "$name of $kind" "not a regular file ($kind)" "$input" -- $args
    no_output out.any
  done <<EOF
dump|dump $input
show|show -p $input
show --debug|show -p good.mip --debug $input
diff base|diff $input good.mip
diff new|diff good.mip $input -o out.any
merge into|merge -p $input good.mipraw
merge input|merge -p good.mip $input
merge --debug|merge -p heap.mip --debug $input heap.mipraw
extract|extract $input -o out.any
create|create -p out.any $input
symbolize|symbolize --debug $input 0x1000
annotate|annotate -p $input
annotate --debug|annotate -p good.mip --debug $input
export|export -p $input --format lcov -o out.any
export --debug|export -p good.mip --debug $input --format lcov -o out.any
flamegraph|flamegraph -p heap.mip --base $input -o out.any
order|order -p $input -o out.any
EOF
done
if ! cmp -s before good.mip; then fail "a refused input changed good.mip"; fi

# ---- no output over an input: -o naming one, by its name, another path,
# a symbolic or a hard link, is refused before anything is written
cp good.mip same.mip
cp heap.mip same-heap.mip
cp prog same-prog
cp good.mipmap same.mipmap
ln -s same.mip symlink.mip
ln same.mip hardlink.mip
for out in same.mip ./same.mip symlink.mip hardlink.mip; do
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086 # the arguments, split
    expect_failure "$name -o $out" "not written over" "$out" -- $args -o "$out"
    if ! cmp -s good.mip same.mip; then
      fail "$name -o $out changed the input"
      cp good.mip same.mip
    fi
    no_output absent
  done <<EOF
show|show -p same.mip
annotate|annotate -p same.mip
dump|dump same.mip
diff base|diff same.mip good.mip
diff new|diff good.mip same.mip
order|order -p same.mip
EOF
done
while IFS='|' read -r name input args; do
  cp "$input" before-out
  # shellcheck disable=SC2086 # the arguments, split
  expect_failure "$name over its input" "not written over" "$input" -- $args
  if ! cmp -s before-out "$input"; then
    fail "$name changed its input $input"
    cp before-out "$input"
  fi
  no_output absent
done <<EOF
show --debug|same-prog|show -p good.mip --debug same-prog -o same-prog
export|same-heap.mip|export -p same-heap.mip --format pprof -o same-heap.mip
export --debug|same-prog|export -p good.mip --debug same-prog --format lcov -o same-prog
flamegraph|same-heap.mip|flamegraph -p same-heap.mip -o same-heap.mip
symbolize|same-prog|symbolize --debug same-prog 0x1000 -o same-prog
extract|same-prog|extract same-prog -o same-prog
create|same.mipmap|create -p same.mipmap same.mipmap
EOF
# merge replaces its profile on purpose, but takes it once
for args in "-p same.mip same.mip" "-p same.mip ./hardlink.mip" \
  "-p same.mip -p symlink.mip good.mipraw"; do
  # shellcheck disable=SC2086 # the arguments, split
  expect_failure "merge $args" "same.mip" "same.mip" -- merge $args
  if ! cmp -s good.mip same.mip; then
    fail "merge $args changed same.mip"
    cp good.mip same.mip
  fi
done

# ---- a corrupt .debug_rnglists (DWARF 5 range lists) or line table in
# the --debug binary: refused in one line, where libdwarf read out of the
# section (SIGSEGV), freed its tables twice or read past its array of
# directories. The binary is a real build, its
# inlined calls in pieces: range lists through the table of offsets.
cp "$HERE/../e2e/progs/ranges/ranges.cpp" .
"$MIPCXX" -fmip-generate -gdwarf-5 -O2 ranges.cpp -o ranges
MIP_PROFILE_FILE=ranges.mipraw ./ranges || true
"$MIPDATA" extract ranges -o ranges.mipmap >/dev/null
"$MIPDATA" create -p ranges.mip ranges.mipmap
"$MIPDATA" merge -p ranges.mip ranges.mipraw
# section_offset BINARY NAME: where the section's bytes start in the file
section_offset() {
  "$LLVM_BIN/llvm-readelf" -S -W "$1" | sed 's/^ *\[ *[0-9]*\] *//' |
    awk -v name="$2" '$1 == name { print $4 }' | { read -r hex && echo $((0x$hex)); }
}
rnglists=$(section_offset ranges .debug_rnglists)
# the header: unit length (4), version (2), address size, selector size,
# offset count (4), then the offsets (4 each), then the lists
with_byte ranges $((rnglists + 15)) 377 ranges-offset  # offset 0: 0xff......
with_byte ranges $((rnglists + 4)) 004 ranges-version  # version 4
with_byte ranges $((rnglists + 6)) 003 ranges-address  # addresses of 3 bytes
with_byte ranges $((rnglists + 3)) 377 ranges-length   # past the section's end
with_byte ranges $((rnglists + 20)) 377 ranges-entry   # the first list's kind
# and the section names' section no longer a string table, which
# libdwarf's own ELF reader did not mind, with the version broken too
shoff=$("$LLVM_BIN/llvm-readelf" -h ranges | awk '/Start of section headers/ { print $5 }')
shstrndx=$("$LLVM_BIN/llvm-readelf" -h ranges | awk '/string table index/ { print $NF }')
with_byte ranges-version $((shoff + shstrndx * 64 + 4)) 177 ranges-names
# and the first line table's (the program's, DWARF 5) first file naming
# a directory past its directories, which libdwarf takes as an index
# without checking it: after the header's fixed part (30 bytes, 12 opcode
# lengths), a directory format of one pair, the count of directories (one
# byte) and their names (4 bytes each), a file format of pairs, the count
# of files, and the first file's name (4 bytes): its directory index
byte_at() { od -A n -t u1 -j "$2" -N 1 "$1" | tr -d ' '; }
line=$(section_offset ranges .debug_line)
dirs=$(byte_at ranges $((line + 33)))
formats=$(byte_at ranges $((line + 34 + 4 * dirs)))
with_byte ranges $((line + 34 + 4 * dirs + 1 + 2 * formats + 1 + 4)) \
  "$(printf '%03o' "$dirs")" ranges-directory
if ! "$LLVM_BIN/llvm-dwarfdump" --debug-line ranges-directory 2>/dev/null |
  grep -q "dir_index: $dirs$"; then
  fail "ranges-directory: the first file's directory is not $dirs"
fi
if "$MIPDATA" show -p ranges.mip --debug ranges >/dev/null; then
  pass "the binary with range lists, unbroken, is read"
else
  fail "the binary with range lists, unbroken, is refused"
fi
for case in "offset:starts outside its table" "version:version 4, not 5" \
  "address:addresses of 3 bytes" "length:past the section's end" \
  "entry:unknown entry" "names:DWARF" \
  "directory:.debug_line: the line table at 0x0 names directory"; do
  binary=ranges-${case%%:*} needle=${case#*:}
  while IFS='|' read -r name args; do
    # shellcheck disable=SC2086 # the arguments, split
    expect_failure "$name --debug $binary" "$needle" "$binary" -- $args
    no_output out.any
  done <<EOF
symbolize|symbolize --debug $binary 0x1000
show|show -p ranges.mip --debug $binary
export|export -p ranges.mip --debug $binary --format lcov -o out.any
annotate|annotate -p ranges.mip --debug $binary
EOF
done

finish
