#!/bin/bash
# bench/build.sh PROG CONFIG: compiles PROG (already fetched and prepared)
# in configuration CONFIG into build/bench/bin/PROG/CONFIG, plus a stripped
# copy CONFIG.stripped and a copy without debug info CONFIG.nodebug. One compiler command for all sources; skipped when
# the binary is newer than the tools and the command has not changed.
set -eu
. "$(dirname "$0")/lib.sh"

prog=${1:?usage: build.sh PROG CONFIG}
config=${2:?usage: build.sh PROG CONFIG}
load_program "$prog"
config_flags "$config"
[ -d "$PROG_DIR" ] || die "$prog: sources missing ($PROG_DIR): run bench/fetch.sh $PKG"

out=$BIN/$prog/$config
mkdir -p "$BIN/$prog"
# shellcheck disable=SC2206 # word splitting of the lists is intended
cmd=("${CC_CMD[@]}" -O2 $PROG_CFLAGS $PROG_SRCS "${LINK_EXTRA[@]}" $PROG_LIBS)

fresh=1
[ -x "$out" ] && [ -f "$out.stripped" ] && [ -f "$out.nodebug" ] && [ "$(cat "$out.cmd" 2>/dev/null)" = "${cmd[*]}" ] || fresh=0
# heap-base's compiler and runtime are the baseline build's
deps=("$PLUGIN" "$RT_LIB" "$MIPCC")
[ "$config" != heap-base ] || deps=("$BENCH_HEAP_BASELINE"/lib/mip/*.so "$BENCH_HEAP_BASELINE/lib/mip/libmip_rt.a" "${CC_CMD[0]}")
for dep in "${deps[@]}" "${LINK_EXTRA[@]}" "$PROG_DIR/.fetched" \
  "$BENCH_DIR/programs/$prog.sh" "$BENCH_DIR/lib.sh" "$0"; do
  if [ -e "$dep" ] && [ "$dep" -nt "$out" ]; then fresh=0; fi
done
[ "$fresh" = 1 ] && exit 0

log "building $prog/$config"
if ! (cd "$PROG_DIR" && "${cmd[@]}" -o "$out.tmp") >"$out.log" 2>&1; then
  tail -n 30 "$out.log" >&2
  die "$prog/$config: build failed (command and log: $out.log)"
fi
printf '%s\n' "${cmd[*]}" >>"$out.log"
mv "$out.tmp" "$out"
"$STRIP" -o "$out.stripped" "$out"
# For callgrind: same code and symbols, no DWARF (valgrind 3.19 cannot read
# DWARF 5, which the MIP runtime archive carries).
"$STRIP" --strip-debug -o "$out.nodebug" "$out"
printf '%s\n' "${cmd[*]}" >"$out.cmd"
