#!/bin/sh
# mipdata annotate against what the compiler does with the same profile:
# a program with a never-called function, a very hot one, an allocation
# site whose blocks live long and are barely touched, one whose blocks are
# touched a lot, and one reached through a helper from both kinds of
# callers. annotate must name exactly those decisions, its text, YAML and
# JSON must agree, and a rebuild with -fmip-use must remark the same hot
# and cold functions and the same hinted sites, with the same numbers.
#   test/e2e/annotate.sh BUILD_DIR [MIPDATA]
# MIPDATA defaults to BUILD_DIR/bin/mipdata; the sanitizer pass can give a
# mipdata built with ASan and UBSan.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
make_tmp
cd "$TMP"

cat >annotate.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void pause_ms(long ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, NULL);
}

__attribute__((noinline)) int never_called(int x) { return x * 7 + 1; }

__attribute__((noinline)) unsigned step(unsigned x) {
  return x * 2654435761u + 1;
}

/* lives 120 ms, touched once: cold once 0.05 s is long enough (measured
 * on the coarse clock, a lifetime can come out up to a tick, 1 to 10 ms,
 * short: the check below wants 100 ms) */
__attribute__((noinline)) void idle(void) {
  volatile char *p = malloc(4096);
  p[0] = 1;
  pause_ms(120);
  free((void *)p);
}

/* touched 200000 times within a few ms: hot */
__attribute__((noinline)) void busy(void) {
  volatile char *p = malloc(64);
  for (int i = 0; i < 100000; i++)
    p[i % 64]++;
  free((void *)p);
}

/* one site, an idle caller and a busy one: mixed */
__attribute__((noinline)) volatile char *get(size_t n) { return malloc(n); }

__attribute__((noinline)) void idle_user(void) {
  volatile char *p = get(4096);
  p[0] = 1;
  pause_ms(100);
  free((void *)p);
}

__attribute__((noinline)) void busy_user(void) {
  volatile char *p = get(64);
  for (int i = 0; i < 100000; i++)
    p[i % 64]++;
  free((void *)p);
}

int main(int argc, char **argv) {
  (void)argv;
  unsigned s = 0;
  for (int i = 0; i < 100000; i++)
    s = step(s);
  idle();
  busy();
  idle_user();
  busy_user();
  if (argc > 100)
    return never_called(argc);
  printf("%u\n", s);
  return 0;
}
C
# line PATTERN: the source line that matches
line() { grep -n "$1" annotate.c | head -1 | cut -d: -f1; }
L_NEVER=$(line 'int never_called(')
L_STEP=$(line 'unsigned step(')
L_IDLE=$(line 'malloc(4096)')
L_BUSY=$(line 'malloc(64)')
L_GET=$(line 'return malloc(n)')

mip_build counts,heap prog -O2 -g annotate.c
MIP_PROFILE_FILE=run.mipraw ./prog >run.out
mip_profile --debug prog prog.mip run.mipraw

LOW="--cold-min-lifetime 0.05"
# shellcheck disable=SC2086 # $LOW is two arguments
"$MIPDATA" annotate -p prog.mip --debug prog $LOW --format json >low.json 2>low.err
"$MIPDATA" annotate -p prog.mip --debug prog --format json >default.json

# ---- 1. the decisions -------------------------------------------------------
got=$(jq -r '[.functions[] | "\(.name):\(.decision):\(.line)"] | join(" ")' low.json)
want="step:hot:$L_STEP never_called:cold:$L_NEVER"
[ "$got" = "$want" ] && pass "functions: $got" || fail "functions: got '$got', want '$want'"
got=$(jq -r '.summary | "\(.hot_threshold) \(.functions.hot) \(.functions.cold) \(.functions.total - .functions.hot - .functions.cold == .functions.warm)"' low.json)
want_calls=$(jq -r '.functions[] | select(.name == "step") | .calls' low.json)
[ "$got" = "100000 1 1 true" ] && [ "$want_calls" = 100000 ] &&
  pass "hot from 100000 calls: step alone makes 90% of all calls" ||
  fail "summary: threshold, hot, cold, warm adds up: $got; step's calls $want_calls"
got=$(jq -r '.runs as $runs | .functions[] | select(.name == "never_called") |
  "\(.calls) \(.covered_runs)/\($runs)"' low.json)
[ "$got" = "0 0/1" ] && pass "never_called: 0 calls, ran in 0 of 1 runs" ||
  fail "never_called: $got"

# Sites by bytes: get (4096 + 64), idle (4096), busy (64).
sites() { # JSON: function:line:class:mixed per site, in order
  jq -r '[.allocations[] | "\(.function):\(.line):\(.class):\(.mixed)"] | join(" ")' "$1"
}
got=$(sites low.json)
want="get:$L_GET:notcold:true idle:$L_IDLE:cold:false busy:$L_BUSY:hot:false"
[ "$got" = "$want" ] && pass "sites (--cold-min-lifetime 0.05): $got" ||
  fail "sites (--cold-min-lifetime 0.05): got '$got', want '$want'"
got=$(jq -r '.allocations[] | select(.function == "get") |
  [.context_classes.cold, .context_classes.hot, .context_classes.notcold,
   (.contexts | length), .allocations, .bytes,
   ([.contexts[] | "\(.frames[1].function)=\(.class)"] | sort | join(","))] | map(tostring) | join(" ")' low.json)
[ "$got" = "1 1 0 2 2 4160 busy_user=hot,idle_user=cold" ] &&
  pass "mixed site: a cold context from idle_user, a hot one from busy_user" ||
  fail "mixed site: $got"
got=$(jq -r '[.allocations[] | .contexts[] | .frames[0].function] | join(" ")' low.json)
[ "$got" = "get get idle busy" ] && pass "frames leaf first" || fail "leaf frames: $got"
got=$(jq -r '[.allocations[] | select(.function == "idle") | .lifetime >= 0.1, .density == 0] | join(" ")' low.json)
[ "$got" = "true true" ] && pass "idle site: 0.1 s or more, 0 accesses/byte/s" ||
  fail "idle site numbers: $got"
got=$(jq -r '.summary.sites | "\(.total) \(.cold) \(.hot) \(.notcold) \(.mixed)"' low.json)
[ "$got" = "3 1 1 0 1" ] && pass "summary: 3 sites, 1 cold, 1 hot, 1 mixed" ||
  fail "summary sites: $got"
[ ! -s low.err ] && pass "no notes for a full profile" || fail "stderr: $(cat low.err)"

# The defaults: 0.1 s is far from 200 s, so the idle site is notcold.
got=$(sites default.json)
want="get:$L_GET:notcold:true idle:$L_IDLE:notcold:false busy:$L_BUSY:hot:false"
[ "$got" = "$want" ] && pass "sites (defaults): $got" ||
  fail "sites (defaults): got '$got', want '$want'"
got=$(jq -c '.options' default.json)
[ "$got" = '{"hot_share":0.9,"cold_max_density":0.05,"cold_min_lifetime":200,"hot_min_density":1000,"all":false}' ] &&
  pass "default thresholds: $got" || fail "default thresholds: $got"

# --all adds the warm functions; --hot-share 1 makes every function hot
# that is called more than once per run (main, called once, stays warm).
"$MIPDATA" annotate -p prog.mip --all --format json >all.json
got=$(jq -r '[.functions[] | .decision] | group_by(.) | map("\(.[0])=\(length)") | join(" ")' all.json)
total=$(jq '.summary.functions.total' all.json)
n=$(jq '.functions | length' all.json)
[ "$got" = "cold=1 hot=1 warm=$((total - 2))" ] && [ "$n" = "$total" ] &&
  pass "--all: every function, $got" || fail "--all: $got of $total"
"$MIPDATA" annotate -p prog.mip --hot-share 1 --format json >share1.json
got=$(jq -r '"\(.summary.functions.hot) \(.summary.functions.cold) \(.summary.functions.warm) \(.summary.hot_threshold)"' share1.json)
repeated=$(jq '[.functions[] | select(.calls > 1)] | length' all.json)
once=$(jq '[.functions[] | select(.calls == 1)] | length' all.json)
[ "$once" -ge 1 ] && [ "$got" = "$repeated 1 $once 2" ] &&
  pass "--hot-share 1: the $repeated functions called more than once hot" ||
  fail "--hot-share 1: hot cold warm threshold = $got (want $repeated 1 $once 2)"

# ---- 2. text, YAML and JSON agree -----------------------------------------
# shellcheck disable=SC2086
"$MIPDATA" annotate -p prog.mip --debug prog $LOW >low.txt
# shellcheck disable=SC2086
"$MIPDATA" annotate -p prog.mip --debug prog $LOW --format yaml >low.yaml
# text: "DECISION CALLS RUNS FUNCTION LOCATION" rows, then the site rows
# "# CLASS [(mixed)] ALLOCS BYTES LIFETIME s DENSITY ALLOCATOR FILE:L:C in F"
text_functions=$(awk '/^DECISION/ { t = 1; next } /^$/ { t = 0 }
  t { n = split($5, l, ":"); printf "%s%s:%s:%s", sep, $4, $1, l[n]; sep = " " }' low.txt)
json_functions=$(jq -r '[.functions[] | "\(.demangled):\(.decision):\(.line)"] | join(" ")' low.json)
text_sites=$(awk '/^#  CLASS/ { t = 1; next } /^$/ { t = 0 }
  t { mixed = ($3 == "(mixed)") ? "true" : "false"; split($(NF - 2), l, ":")
      printf "%s%s:%s:%s:%s", sep, $NF, l[2], $2, mixed; sep = " " }' low.txt)
json_sites=$(sites low.json)
if [ "$text_functions" = "$json_functions" ] && [ "$text_sites" = "$json_sites" ] &&
  [ -n "$text_functions" ] && [ -n "$text_sites" ]; then
  pass "text and JSON agree: $text_functions; $text_sites"
else
  fail "text and JSON differ: '$text_functions' vs '$json_functions'; '$text_sites' vs '$json_sites'"
fi
# YAML: the same names and decisions in the same order...
yaml_decisions=$(sed -n 's/^ *-\{0,1\} *\(decision\|class\): "\(.*\)"$/\2/p' low.yaml | tr '\n' ' ')
json_decisions=$(jq -r '[(.functions[] | .decision), (.allocations[] | .class, (.contexts[] | .class))] | join(" ")' low.json)
[ "$yaml_decisions" = "$json_decisions " ] && pass "YAML and JSON: the same decisions in the same order" ||
  fail "YAML and JSON decisions: '$yaml_decisions' vs '$json_decisions '"
# ... and, where a YAML reader is installed, the same document.
if command -v yq >/dev/null 2>&1; then
  # PyYAML reads a number without a dot (1e+06) as a string: make it one.
  norm='walk(if type == "string" and test("^-?[0-9]+e[-+][0-9]+$") then tonumber else . end)'
  yq -S "$norm" low.yaml >yaml.norm
  jq -S "$norm" low.json >json.norm
  cmp -s yaml.norm json.norm && pass "YAML and JSON: the same document" ||
    fail "YAML and JSON documents differ: $(diff yaml.norm json.norm | head -10)"
fi

# ---- 3. the compiler decides the same ------------------------------------
# remarks RESULT-FILE PLUGIN-ARGS...: "kind line[:column] numbers" per remark
remarks() {
  out=$1
  shift
  "$MIPCC" -O2 -g -fmip-use=prog.mip "$@" -Rpass=mip -Rpass-missed=mip \
    -c annotate.c -o use.o 2>remarks.log
  sed -n 's/^annotate\.c:\([0-9]*\):\([0-9]*\): remark: \(.*\) \[-Rpass.*\]$/\1:\2 \3/p' remarks.log |
    awk '{ where = $1; sub(/^[^ ]* /, "") }
         /^marked cold/ { split(where, w, ":"); print "cold-function " w[1] }
         /^marked hot/ { split(where, w, ":"); print "hot-function " w[1] }
         /^allocation hinted/ { sub(/:$/, "", $3); n = $4; a = $6; l = $10; d = $12
                                print $3 "-site " where " " n " " a " " l " " d }
         /^allocation left notcold: its contexts disagree/ { print "mixed-site " where }' |
    sort >"$out"
}
# expected JSON TEXT: the same lines from annotate's JSON (decisions) and
# text (the numbers, as the remarks print them: %.3g)
expected() {
  {
    jq -r '.functions[] | select(.decision != "warm") | "\(.decision)-function \(.line)"' "$1"
    jq -r '.allocations[] | select(.mixed) | "mixed-site \(.line):\(.column)"' "$1"
    awk '/^#  CLASS/ { t = 1; next } /^$/ { t = 0 }
         t && ($2 == "cold" || $2 == "hot") { print $2, $(NF - 2), $3, $5, $7 }' "$2" |
      while read -r class where allocs lifetime density; do
        where=${where#*annotate.c:}
        contexts=$(jq -r --arg w "$where" '.allocations[] | select("\(.line):\(.column)" == $w) | .contexts | length' "$1")
        echo "$class-site $where $contexts $allocs $lifetime $density"
      done
  } | sort
}
remarks low.remarks -fplugin-arg-mip-cold-min-lifetime=0.05
expected low.json low.txt >low.expected
if cmp -s low.remarks low.expected && [ "$(wc -l <low.remarks)" = 5 ]; then
  pass "remarks name what annotate names: $(tr '\n' ';' <low.remarks)"
else
  fail "remarks and annotate differ (< remarks, > annotate):"
  diff low.remarks low.expected | sed 's/^/     /'
  sed 's/^/     /' remarks.log | grep remark: || true
fi
remarks default.remarks
"$MIPDATA" annotate -p prog.mip --debug prog >default.txt
expected default.json default.txt >default.expected
if cmp -s default.remarks default.expected && [ "$(wc -l <default.remarks)" = 4 ]; then
  pass "with the default thresholds too: $(tr '\n' ';' <default.remarks)"
else
  fail "remarks and annotate differ with the defaults (< remarks, > annotate):"
  diff default.remarks default.expected | sed 's/^/     /'
fi
# The comparison can fail: annotate with another hot threshold for
# allocations no longer matches what the compiler did with the defaults.
"$MIPDATA" annotate -p prog.mip --debug prog --hot-min-density 1e12 --format json >other.json
"$MIPDATA" annotate -p prog.mip --debug prog --hot-min-density 1e12 >other.txt
expected other.json other.txt >other.expected
if cmp -s default.remarks other.expected; then
  fail "other thresholds still matched the compiler's remarks"
else
  pass "a changed decision is caught by the comparison"
fi

# ---- 4. profiles that decide less -----------------------------------------
mip_build coverage cov -O2 -g annotate.c
MIP_PROFILE_FILE=cov.mipraw ./cov >/dev/null
mip_create cov cov.mip
"$MIPDATA" annotate -p cov.mip --format json >empty.json 2>empty.err
got=$(jq -r '"\(.runs) \(.functions | length) \(.allocations | length) \(.summary.hot_threshold)"' empty.json)
if [ "$got" = "0 0 0 null" ] && [ "$(wc -l <empty.err)" = 1 ] &&
  grep -q "cov.mip: note: no runs merged" empty.err; then
  pass "no runs: nothing decided, one note: $(cat empty.err)"
else
  fail "no runs: $got; stderr: $(cat empty.err)"
fi
"$MIPDATA" merge -p cov.mip cov.mipraw
"$MIPDATA" annotate -p cov.mip --format json >cov.json 2>cov.err
got=$(jq -r '"\(.counts) \(.heap) \([.functions[] | "\(.name):\(.decision)"] | join(",")) \(.allocations | length) \(.summary.hot_threshold)"' cov.json)
if [ "$got" = "false false never_called:cold 0 null" ] && [ "$(wc -l <cov.err)" = 1 ] &&
  grep -q "cov.mip: note: no call counts" cov.err; then
  pass "coverage only: no hot function, no sites, one note: $(cat cov.err)"
else
  fail "coverage only: $got; stderr: $(cat cov.err)"
fi
"$MIPDATA" annotate -p cov.mip >cov.txt 2>/dev/null
grep -qxF 'Allocation sites: no heap data: this image has no allocation site (built without -fmip-generate=heap, or its code calls no allocator)' cov.txt &&
  ! grep -q '^#  CLASS' cov.txt &&
  pass "coverage only, text: no allocation sites" || fail "coverage only, text: $(cat cov.txt)"

finish
