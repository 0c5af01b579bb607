# The coverage comparison with SanitizerCoverage, shared by coverage.sh
# (the host) and aarch64.sh (AArch64 under qemu-user): real multi-file C
# and C++ programs built with mipcc -fmip-generate, run twice with
# different inputs, turned into a profile with mipdata, and compared
# function by function with an independent ground truth: the same program
# built with SanitizerCoverage's function-entry flags and
# test/e2e/sancov_truth.c. Sourced after lib.sh and make_tmp.
SANCOV_FLAGS="-fsanitize-coverage=func,inline-bool-flag,pc-table"
# The target: flags for every compile and link (--target=...), and what
# runs its programs (an emulator), both empty for the host.
TARGET_FLAGS=${TARGET_FLAGS:-}
TARGET_RUN=${TARGET_RUN:-}

# compile_c DIR COMPILER FLAGS: the C program as objects plus a static
# archive. (Its own variable names: build's $cc links after it.)
compile_c() {
  dir=$1 compiler=$2 flags=$3
  src=$HERE/progs/c
  for f in circle square triangle unused; do
    $compiler $flags -c "$src/shapes/$f.c" -o "$dir/$f.o"
  done
  rm -f "$dir/libshapes.a"
  "$LLVM_BIN/llvm-ar" rcs "$dir/libshapes.a" "$dir/circle.o" "$dir/square.o" \
    "$dir/triangle.o" "$dir/unused.o"
  $compiler $flags -c "$src/util.c" -o "$dir/util.o"
  $compiler $flags -c "$src/main.c" -o "$dir/main.o"
  OBJECTS="$dir/main.o $dir/util.o $dir/libshapes.a"
}

compile_cxx() {
  dir=$1 compiler=$2 flags=$3
  src=$HERE/progs/cxx
  $compiler $flags -c "$src/shapes.cpp" -o "$dir/shapes.o"
  $compiler $flags -c "$src/main.cpp" -o "$dir/main.o"
  OBJECTS="$dir/main.o $dir/shapes.o"
}

# build LANG KIND CFLAGS LDFLAGS -> $dir/prog, KIND mip or truth
build() {
  lang=$1 kind=$2 flags=$3 ldflags=$4
  dir=$WORK/$kind
  mkdir -p "$dir"
  if [ "$kind" = mip ]; then
    if [ "$lang" = c ]; then cc="$MIPCC"; else cc="$MIPCXX"; fi
    compile_$lang "$dir" "$cc -fmip-generate $TARGET_FLAGS" "$flags"
    # shellcheck disable=SC2086
    $cc -fmip-generate $TARGET_FLAGS $flags $ldflags $OBJECTS -o "$dir/prog"
  else
    if [ "$lang" = c ]; then cc="$CLANG"; else cc="$CLANGXX"; fi
    compile_$lang "$dir" "$cc $TARGET_FLAGS $SANCOV_FLAGS" "$flags"
    # shellcheck disable=SC2086
    $CLANG $TARGET_FLAGS -O2 -c "$HERE/sancov_truth.c" -o "$dir/truth.o"
    # shellcheck disable=SC2086
    $cc $TARGET_FLAGS $flags $ldflags $OBJECTS "$dir/truth.o" -o "$dir/prog"
  fi
  target_command "$dir/prog" >"$dir/prog.run"
  chmod +x "$dir/prog.run"
}

# target_command PROGRAM [RUNNER]: a script that runs PROGRAM with RUNNER
# (an emulator; empty: none), by default the target's.
target_command() {
  printf '#!/bin/sh\nexec %s %s "$@"\n' "${2-$TARGET_RUN}" "$1"
}

# profile_mip: runs the MIP build with both inputs, prints "name covered_runs".
profile_mip() {
  dir=$WORK/mip
  mip_runs "$dir/run" "$dir/prog.run" "$ARGS1" "$ARGS2"
  mip_profile "$dir/prog" "$dir/prog.mip" "$dir/run.1.mipraw" "$dir/run.2.mipraw"
  mip_show "$dir/prog.mip" >"$dir/show.json"
  covered_runs "$dir/show.json" >"$dir/mip.txt"
}

# covered_runs JSON: "name covered_runs" of each function, sorted
covered_runs() { jq -r '.functions[] | "\(.name) \(.covered_runs)"' "$1" | sort; }

# truth_profile: the same, from SanitizerCoverage, named through nm; of
# several names at one address (constructor aliases) the one MIP uses.
# Only functions whose code is in the MIP binary too count: under
# --gc-sections SanitizerCoverage's own tables keep functions alive that
# the linker drops from the MIP build.
truth_profile() {
  dir=$WORK/truth
  SANCOV_TRUTH_FILE=$dir/t1 "$dir/prog.run" $ARGS1 >"$dir/run.1.out"
  SANCOV_TRUTH_FILE=$dir/t2 "$dir/prog.run" $ARGS2 >"$dir/run.2.out"
  "$LLVM_BIN/llvm-nm" --defined-only "$dir/prog" |
    awk '$2 ~ /^[tTwW]$/ {print $1, $3}' >"$dir/syms"
  "$LLVM_BIN/llvm-nm" --defined-only "$WORK/mip/prog" |
    awk '$2 ~ /^[tTwW]$/ {print $3}' \
    >"$dir/mip-syms"
  awk -v mipnames="$WORK/mip/mip.txt" -v mipsyms="$dir/mip-syms" '
    function norm(a) { sub(/^0+/, "", a); return a == "" ? "0" : a }
    BEGIN {
      while ((getline line < mipnames) > 0) { split(line, f, " "); known[f[1]] = 1 }
      while ((getline line < mipsyms) > 0) inmip[line] = 1
    }
    FILENAME ~ /syms$/ { a = norm($1); names[a] = names[a] " " $2; next }
    { a = norm($1); runs[a] += $2; seen[a] = 1 }
    END {
      for (a in seen) {
        n = split(names[a], list, " "); pick = (n ? list[1] : "?" a)
        for (i = 1; i <= n; i++) if (list[i] in known) pick = list[i]
        if (pick in inmip) print pick, runs[a]
      }
    }' "$dir/syms" "$dir/t1" "$dir/t2" | sort >"$dir/truth.txt"
}

# Functions SanitizerCoverage leaves out on purpose and MIP counts: those
# whose entry block cannot return (its "unreachable" rule). Listed by name
# so that nothing else may differ; they never run in these programs.
ENTRY_UNREACHABLE="__clang_call_terminate _ZN5ShapeD0Ev"

without_unreachable_entries() {
  for f in $ENTRY_UNREACHABLE; do printf '%s 0\n' "$f"; done >"$WORK/skip"
  grep -vxF -f "$WORK/skip" "$1"
}

# The declaration line show --debug gives for each function must name it.
check_source_lines() {
  dir=$WORK/mip
  mip_show "$dir/prog.mip" --debug "$dir/prog" |
    jq -r '.functions[] | select(.file != null and (.file | startswith("'"$HERE"'")))
           | "\(.file)\t\(.line)\t\(.demangled)"' >"$dir/lines"
  bad=0 total=0
  while IFS="$(printf '\t')" read -r file line demangled; do
    base=$(printf '%s\n' "$demangled" |
      sed 's/(.*//; :t; s/<[^<>]*>//; tt; s/.*:://; s/^.* //')
    case "$base" in *'$'* | *operator* | '{lambda'* | '') continue ;; esac
    total=$((total + 1))
    sed -n "${line}p" "$file" | grep -qF "$base" || {
      bad=$((bad + 1))
      echo "     $demangled at $file:$line: $(sed -n "${line}p" "$file")"
    }
  done <"$dir/lines"
  if [ "$bad" -eq 0 ] && [ "$total" -gt 3 ]; then
    pass "$NAME: $total source lines name their function"
  else
    fail "$NAME: $bad of $total source lines do not name their function"
  fi
}

# The map dumped by objcopy alone gives the same profile, without build-id.
check_objcopy_route() {
  dir=$WORK/mip
  "$LLVM_BIN/llvm-objcopy" --dump-section=.debug_mip="$dir/bare.map" \
    "$dir/prog" "$dir/discard"
  "$MIPDATA" create -p "$dir/bare.mip" "$dir/bare.map"
  "$MIPDATA" merge -p "$dir/bare.mip" "$dir/run.1.mipraw" "$dir/run.2.mipraw"
  mip_show "$dir/bare.mip" >"$dir/bare.json"
  covered_runs "$dir/bare.json" >"$dir/bare.txt"
  if cmp -s "$dir/bare.txt" "$dir/mip.txt"; then
    pass "$NAME: objcopy --dump-section map gives the same profile"
  else
    fail "$NAME: objcopy --dump-section map differs"
  fi
}

# The comparison must be able to fail: clear one covered function's byte
# (the first COV counter that is 1, where `mipdata dump` says it is) in a
# raw profile and expect a difference.
check_comparison_can_fail() {
  dir=$WORK/mip
  first=$(dump_value "$dir/run.1.mipraw" \
    '.sections[] | select(.name == "COV") | .offset + (.counters | index(1))')
  with_byte "$dir/run.1.mipraw" "$first" 000 "$dir/broken.mipraw"
  "$MIPDATA" create -p "$dir/broken.mip" "$dir/prog.mipmap"
  "$MIPDATA" merge -p "$dir/broken.mip" "$dir/broken.mipraw" "$dir/run.2.mipraw"
  mip_show "$dir/broken.mip" >"$dir/broken.json"
  covered_runs "$dir/broken.json" >"$dir/broken.txt"
  without_unreachable_entries "$dir/broken.txt" >"$dir/broken-compare.txt"
  if cmp -s "$dir/broken-compare.txt" "$WORK/truth/truth.txt"; then
    fail "$NAME: a corrupted profile still matched the ground truth"
  else
    pass "$NAME: a corrupted profile is caught by the comparison"
  fi
}

expect_function() { # name covered_runs
  if grep -qx "$1 $2" "$WORK/mip/mip.txt"; then
    pass "$NAME: $1 covered in $2 of 2 runs"
  else
    fail "$NAME: $1 should be covered in $2 of 2 runs: $(grep "^$1 " "$WORK/mip/mip.txt" || echo absent)"
  fi
}

# run_config LANG NAME CFLAGS LDFLAGS
run_config() {
  lang=$1 NAME="$1 $2" flags=$3 ldflags=${4:-}
  WORK=$TMP/$lang-$2
  mkdir -p "$WORK"
  if [ "$lang" = c ]; then ARGS1=circle ARGS2=square; else ARGS1=c ARGS2="cs x"; fi
  build "$lang" mip "$flags" "$ldflags" &&
    build "$lang" truth "$flags" "$ldflags" || {
    fail "$NAME: build failed"
    return
  }
  profile_mip
  truth_profile
  if ! cmp -s "$WORK/mip/run.1.out" "$WORK/truth/run.1.out"; then
    fail "$NAME: instrumented programs printed different output"
  fi
  n=$(wc -l <"$WORK/mip/mip.txt")
  without_unreachable_entries "$WORK/mip/mip.txt" >"$WORK/mip/compare.txt"
  if diff "$WORK/truth/truth.txt" "$WORK/mip/compare.txt" >"$WORK/diff"; then
    pass "$NAME: $n functions match SanitizerCoverage"
  else
    fail "$NAME: coverage differs from SanitizerCoverage (< truth, > mip):"
    sed 's/^/     /' "$WORK/diff"
  fi
  if [ "$lang" = c ]; then
    case "$ldflags" in
    *gc-sections*) ;; # never-called functions are gone
    *)
      expect_function util_never 0
      expect_function never_called 0
      expect_function circle_perimeter 0
      ;;
    esac
    expect_function circle_area 1
    expect_function square_area 1
    expect_function triangle_area 0
    expect_function early 2
    expect_function at_exit_handler 2
    if grep -q '^unused_member ' "$WORK/mip/mip.txt"; then
      fail "$NAME: unused archive member is in the profile"
    fi
  fi
  case " $flags " in *" -g "* | *" -gdwarf-"*) check_source_lines ;; esac
}

