#!/bin/sh
# Makes a real profile of an IR test: instruments FILE.ll with MODES,
# builds and runs it (its main is the workload), and merges the run into
# OUT.mip, so that mip-use tests get a profile whose hashes and sites are
# the plugin's own.
#   test/ir/profile.sh BUILD_DIR FILE.ll MODES OUT [ARGS...]
# ARGS go to the program; several runs: MIP_IR_RUNS (default 1); more
# options for opt: MIP_IR_OPT_FLAGS.
set -eu
BUILD=$1 LL=$2 MODES=$3 OUT=$4
shift 4
. "$(dirname "$0")/../e2e/lib.sh"
# shellcheck disable=SC2086
"$LLVM_BIN/opt" $OPT_FLAGS -load-pass-plugin="$MIP_PLUGIN" ${MIP_IR_OPT_FLAGS:-} \
  -passes="mip-generate<$(echo "$MODES" | tr , ";")>" "$LL" -o "$OUT.bc"
"$LLVM_BIN/clang" $CLANG_IR_FLAGS -Wno-override-module -c "$OUT.bc" -o "$OUT.o"
# Linked as docs/mipcc.md says to link without mipcc: the runtime, and
# for heap code the interposer before it.
interpose=
case ",$MODES," in *,heap,*) interpose=$BUILD/lib/mip/mip_interpose.o ;; esac
"$LLVM_BIN/clang++" -Wl,--build-id "$OUT.o" -o "$OUT.bin" $interpose \
  "$BUILD/lib/mip/libmip_rt.a"
rm -f "$OUT".*.mipraw
run=0
while [ "$run" -lt "${MIP_IR_RUNS:-1}" ]; do
  run=$((run + 1))
  MIP_PROFILE_FILE="$OUT.$run.mipraw" "$OUT.bin" "$@" >/dev/null
done
mip_profile --debug "$OUT.bin" "$OUT.mip" "$OUT".*.mipraw >/dev/null
