#!/bin/sh
# mipdata dump against what else reads the same files: a program built
# with every mode, run twice; its map (the binary, an object file, the
# .mipmap), raw profiles and indexed profile dumped. The layouts the dump
# names are the X-macros' (read through the C preprocessor), every layout
# shows up; the values agree with the program itself (its pid), readelf
# (the build-id), show (calls, order, coverage, runs) and extract (the
# functions); a byte written where the dump says a field is changes what
# show reads; text, JSON and YAML say the same.
#   test/e2e/mipdata_dump.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$HERE/../.." && pwd)
make_tmp
cd "$TMP"

cat >prog.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static int hidden(int x) { return x * 3; }
int twice_calls; /* a global variable, for data mode's records */
__attribute__((noinline)) int twice(int x) {
  twice_calls++;
  return x > 2 ? 2 * x : hidden(x);
}
__attribute__((noinline)) int never(int x) { return x - 1; }
int main(int argc, char **argv) {
  (void)argv;
  volatile char *p = malloc(16);
  p[0] = 1;
  int s = 0;
  for (int i = 0; i < argc * 3; i++)
    s += twice(i);
  printf("pid %d sum %d\n", (int)getpid(), s + p[0]);
  free((void *)p);
  return argc > 5 ? never(argc) : 0;
}
C
MODES=counts,order,blocks,edges,heap,data,block-counts
mip_build $MODES prog -fmip-pool -O1 -g prog.c
mip_runs run ./prog "" "a b"
"$MIPDATA" extract prog -o prog.mipmap >extract.txt
"$MIPDATA" create -p prog.mip prog.mipmap
"$MIPDATA" merge -p prog.mip --debug prog run.1.mipraw run.2.mipraw
mip_show prog.mip >show.json
"$CLANG" -c prog.c -o plain.o
mip_build $MODES prog.o -c -O1 -g prog.c
# the same two runs pooled into one raw file (%1m: one slot)
MIP_PROFILE_FILE=pool-%1m.mipraw ./prog >/dev/null
MIP_PROFILE_FILE=pool-%1m.mipraw ./prog a b >/dev/null
POOLED=$(ls pool-*.mipraw)
for f in run.1.mipraw "$POOLED" prog.mip prog.mipmap prog prog.o; do
  mip_dump "$f" >"$f.dump.json"
done
if jq -e '.header.runs == 2 and .header.flags == 1 and
    ([.sections[].name] | index("POOL_CNT") != null and index("POOL_BLK") != null)' \
    "$POOLED.dump.json" >/dev/null; then
  pass "a pooled raw file: POOLED, 2 runs, its totals and patterns"
else
  fail "a pooled raw file: $(jq -c '{header, sections: [.sections[].name]}' "$POOLED.dump.json")"
fi

# ---- 1. the layouts are the X-macros' --------------------------------------
# inc_fields NAME: "field type" per field of include/mip/layout/NAME.inc
inc_fields() {
  "$CLANG" -E -P -I"$ROOT/include" -x c "$ROOT/include/mip/layout/$1.inc" |
    sed -n 's/^MIP_\(U16\|U32\|U64\|BYTES\)(\([a-z_]*\).*/\2 \1/p' |
    tr 'A-Z' 'a-z'
}
jq -r '.layouts | keys[]' ./*.dump.json | sort -u >printed
ls "$ROOT/include/mip/layout" | sed -n 's/\.inc$//p' | grep -vx 'mib\|raw_kinds' >all
bad=
while read -r layout; do
  got=$(jq -r --arg l "$layout" '.layouts[$l] // empty | .fields[] | "\(.name) \(.type)"' \
    ./*.dump.json | awk '!seen[$0]++')
  [ "$got" = "$(inc_fields "$layout")" ] || bad="$bad $layout"
done <all
if [ -z "$bad" ] && cmp -s printed all; then
  pass "every layout of include/mip/layout ($(wc -l <all)), each field named and typed as its X-macro says"
else
  fail "layouts: differ from their .inc:$bad; not printed: $(comm -13 printed all | tr '\n' ' ')"
fi
# the layouts' sizes and offsets add up
jq -e '[.layouts[] | .size == ([.fields[].size] | add) and
        ([.fields[] | .offset] == ([foreach .fields[] as $f (0; . + $f.size; . - $f.size)]))] | all' \
  ./*.dump.json >/dev/null && pass "each layout's fields follow each other, and fill its size" ||
  fail "layout offsets or sizes do not add up"

# ---- 2. the raw profile against the program and the binary ------------------
raw=run.1.mipraw.dump.json
expect_eq "raw header: the pid the program printed" "$(jq .header.pid $raw)" \
  "$(sed -n 's/^pid \([0-9]*\) .*/\1/p' run.1.out)"
expect_eq "raw header: the binary's build-id" "$(raw_build_id run.1.mipraw)" \
  "$(readelf -n prog | sed -n 's/.*Build ID: //p')"
got=$(jq '[.sections[] | .offset + ((.size + 7) / 8 | floor) * 8] | max' $raw)
expect_eq "raw payloads: the last one, padded, ends the file" "$got" "$(wc -c <run.1.mipraw)"
got=$(jq -r '[.sections[].name] | join(" ")' $raw)
expect_eq "raw sections: the counters and payloads of $MODES" "$got" \
  "COV CNT ORD BLK SITE DATA BCNT EDGES STATS HEAP_MIBS HEAP_STACKS HEAP_SEGMENTS HEAP_TIMELINE"
got=$(jq '.header.modes as $m | [.sections[] | pow(2; .kind)] | add == $m' $raw)
expect_eq "raw header: modes has the bit of each section" "$got" true

# ---- 3. the indexed profile against show ------------------------------------
# name FIELD: a filter giving the string that string offset field names
strings='(.sections[] | select(.name == "STRINGS") | .entries | map({key: (.string_offset | tostring), value: .string}) | from_entries) as $s'
section() { printf '.sections[] | select(.name == "%s") | .entries' "$1"; }
jq -r "$strings | [$(section FUNCTIONS)] as [\$f] | [$(section CALLS)] as [\$c] |
  [$(section ORDER)] as [\$o] | range(\$f | length) as \$i |
  \"\(\$s[\$f[\$i].name | tostring]) \(\$f[\$i].covered_runs) \(\$c[\$i].calls) \" +
  (if \$o[\$i].ranked_runs == 0 then \"null\" else \"\(\$o[\$i].rank_sum / \$o[\$i].ranked_runs)\" end)" \
  prog.mip.dump.json | sort >dump.functions
jq -r '.functions[] | "\(.name) \(.covered_runs) \(.calls) \(.order)"' show.json | sort >show.functions
if [ "$(wc -l <dump.functions)" -ge 3 ] && cmp -s dump.functions show.functions; then
  pass "FUNCTIONS, CALLS and ORDER: show's names, coverage, calls and order ($(tr '\n' ';' <dump.functions))"
else
  fail "profile entries differ from show (< dump, > show): $(diff dump.functions show.functions | tr '\n' ' ')"
fi
expect_eq "profile header: show's runs" "$(jq .header.runs prog.mip.dump.json)" "$(jq .runs show.json)"
got=$(jq "[$(section HEAP_CONTEXTS)[] | .AllocCount] | add" prog.mip.dump.json)
expect_eq "HEAP_CONTEXTS: show --heap's allocations" "$got" \
  "$(mip_show prog.mip --heap | jq '[.heap[].AllocCount] | add')"

# ---- 4. the map, wherever it is ------------------------------------------------
records() { jq -c '[.section.records[] | del(.. | .at?)]' "$1"; }
[ "$(records prog.mipmap.dump.json)" = "$(records prog.dump.json)" ] &&
  [ "$(jq -r .kind prog.mipmap.dump.json) $(jq -r .kind prog.dump.json)" = "map file ELF file" ] &&
  pass "the map file's records are the binary's section's" ||
  fail "map file and binary: $(jq -r .kind prog.mipmap.dump.json), $(jq -r .kind prog.dump.json)"
got=$(jq '[.section.records[] | select(.name == "function")] | length' prog.dump.json)
expect_eq "function records: as many as extract found" "$got functions" \
  "$(sed -n 's/^prog.mipmap: \([0-9]* functions\).*/\1/p' extract.txt)"
got=$(jq -r '[.section.records[] | select(.name == "function") | .body |
  if .unit then "\(.unit);\(.name)" else .name end] | sort | join(" ")' prog.dump.json)
expect_eq "function records: the profile's functions" "$got" \
  "$(jq -r '[.functions[] | if .local then "\(.unit);\(.name)" else .name end] | sort | join(" ")' show.json)"
got=$(jq -r '[.section.records[] | select(.name == "function") | .body.name] | sort | join(" ")' prog.o.dump.json)
expect_eq "an object file's map: its functions (not relocated)" "$got" "main never twice"
got=$(jq '[.symbols[].addr] | . == sort and length > 0' prog.mipmap.dump.json)
expect_eq "map file symbols: sorted by address" "$got" true

# ---- 5. where the dump says a field is, a reader finds it ------------------------
# runs (header) and one function's covered_runs (an entry of FUNCTIONS)
# in the indexed profile; a COV byte in the raw profile; the build-id in
# the map file
with_byte prog.mip "$(dump_offset prog.mip .header runs)" 007 runs.mip
i=$(jq "[$(section FUNCTIONS)[] | .covered_runs] | index(0)" prog.mip.dump.json)
with_byte runs.mip "$(dump_offset prog.mip "$(section FUNCTIONS) | .[$i]" covered_runs)" 005 \
  covered.mip
name=$(jq -r "$strings | \$s[[$(section FUNCTIONS)][0][$i].name | tostring]" prog.mip.dump.json)
got=$(mip_show covered.mip | jq -r --arg n "$name" '"\(.runs) \(.functions[] | select(.name == $n) | .covered_runs)"')
expect_eq "profile: runs and $name's covered_runs written where dump says they are" "$got" "7 5"
cov=$(jq "[$(section FUNCTIONS)][0][$i].cov_offset" prog.mip.dump.json)
at=$(jq ".sections[] | select(.name == \"COV\") | .offset + $cov" $raw)
with_byte run.1.mipraw "$at" 001 entered.mipraw
"$MIPDATA" create -p entered.mip prog.mipmap
"$MIPDATA" merge -p entered.mip --debug prog entered.mipraw
expect_eq "raw profile: $name's COV byte where dump says it is" \
  "$(mip_show entered.mip | jq --arg n "$name" '.functions[] | select(.name == $n) | .covered')" true
with_byte prog.mipmap "$(dump_offset prog.mipmap .header build_id)" 253 id.mipmap
"$MIPDATA" create -p id.mip id.mipmap
expect_eq "map file: the build-id where dump says it is" \
  "$(mip_show id.mip | jq -r '.build_id[0:2]')" ab

# ---- 6. text, JSON and YAML say the same ------------------------------------------
# every field of every record: "OFFSET NAME VALUE" from JSON (the
# record's place plus the field's) and from text ("NAME: @OFFSET VALUE");
# read with python3, whose integers keep every bit of a u64 (jq's do not)
fields_json() {
  python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
layouts = doc["layouts"]
def walk(v):
    if isinstance(v, dict):
        if "layout" in v:
            for f in layouts[v["layout"]]["fields"]:
                print(v["at"] + f["offset"], f["name"], v[f["name"]])
        for x in v.values():
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
walk({k: v for k, v in doc.items() if k != "layouts"})' "$1.dump.json" | sort -u
}
fields_text() {
  "$MIPDATA" dump "$1" | sed -n 's/^ *\([A-Za-z_]*\): @\([0-9]*\) \([0-9a-f]*\)$/\2 \1 \3/p' | sort -u
}
bad=
for f in run.1.mipraw prog.mip prog.mipmap prog; do
  fields_json "$f" >"$f.fj"
  fields_text "$f" >"$f.ft"
  [ "$(wc -l <"$f.fj")" -ge 20 ] && [ -z "$(comm -23 "$f.fj" "$f.ft")" ] || bad="$bad $f"
done
[ -z "$bad" ] && pass "text gives every field JSON gives, at the same offset, with the same value" ||
  fail "text and JSON differ:$bad"
# (python3-yaml: scripts/install-deps)
bad=
for f in run.1.mipraw prog.mip prog.mipmap prog; do
  "$MIPDATA" dump "$f" --format yaml >"$f.yaml"
  python3 -c 'import json, sys, yaml
sys.exit(yaml.safe_load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
    "$f.yaml" "$f.dump.json" || bad="$bad $f"
done
[ -z "$bad" ] && pass "YAML and JSON: the same documents" || fail "YAML and JSON differ:$bad"

finish
