#!/bin/bash
# bench/report.sh RESULTS.tsv [SECONDS]: the benchmark's tables in markdown,
# from the "PROG CONFIG KEY VALUE" lines bench/run.sh records (keys:
# stripped text data bss funcs code check time ir) and the hotspots.PROG.tsv
# files beside RESULTS.tsv.
set -eu
. "$(dirname "$0")/lib.sh"

results=${1:?usage: report.sh RESULTS.tsv [SECONDS]}
elapsed=${2:-}
[ -s "$results" ] || die "no results in $results"
dir=$(dirname "$results")
programs=$(awk '$1 != "empty" && !seen[$1]++ { printf "%s ", $1 }' "$results")
runs=$(awk '$3 == "time" { n[$1 " " $2]++ } END { for (k in n) { print n[k]; exit } }' "$results")

echo "# MIP overhead benchmark"
echo
cpu=$(awk -F ': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores${cpu:+ ($cpu)}," \
  "$("$CLANG" --version | head -n 1)."
echo "MIP builds with \`mipcc -fmip-generate\`." \
  "Wall time: median of ${runs:-0} runs, configurations interleaved." \
  "Instructions: callgrind Ir, one run, at a smaller size of the same workload." \
  "${elapsed:+The benchmark took $((elapsed / 60)) min $((elapsed % 60)) s.}"
echo
echo "Configurations, all \`-O2\`: plain (clang), mip (function-entry coverage)," \
  "mip-c (mip linked with -fmip-continuous, run in continuous mode: \`%c\` in \`MIP_PROFILE_FILE\`)," \
  "mip-co (\`-fmip-generate=counts,order\`: calls and first-call order)," \
  "mip-co-c (mip-co linked with -fmip-continuous, in continuous mode)," \
  "pgo-cov (\`-fprofile-generate -mllvm -pgo-function-entry-coverage\`)," \
  "instr (\`-fprofile-instr-generate\`), sancov" \
  "(\`-fsanitize-coverage=func,inline-bool-flag\`, no-op callbacks)."
echo
echo "Workloads (each configuration's output checked identical to plain's):"
for p in $programs; do
  load_program "$p"
  echo "- $p (Debian source package $PKG): $(echo "$WORKLOAD" | tr '\n' ' ')"
done
echo

awk -v progs="$programs" -v confs="$CONFIGS" -v dir="$dir" '
function median(key,   n, i, j, t, v) {
  n = ntime[key]
  for (i = 1; i <= n; i++) v[i] = time[key, i]
  for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
  lo[key] = v[1]; hi[key] = v[n]
  return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function td(p, c) { return val[p, c, "text"] + val[p, c, "data"] }
function ratio(a, b) { return b > 0 ? a / b : 0 }
function pct(r) { return sprintf("%+.2f%%", (r - 1) * 100) }
function met(ok) { return ok ? "met" : "**not met**" }
{
  if ($3 == "time") time[$1, $2, ++ntime[$1 SUBSEP $2]] = $4
  else val[$1, $2, $3] = $4
}
END {
  np = split(progs, P, " "); nc = split(confs, C, " ")
  for (i = 1; i <= np; i++) for (j = 1; j <= nc; j++) {
    p = P[i]; c = C[j]
    med[p, c] = median(p SUBSEP c)
  }
  for (i = 1; i <= np; i++) for (j = 2; j <= nc; j++) {
    p = P[i]; c = C[j]
    r["size", p, c] = ratio(val[p, c, "stripped"], val[p, "plain", "stripped"])
    r["td", p, c] = ratio(td(p, c), td(p, "plain"))
    r["time", p, c] = ratio(med[p, c], med[p, "plain"])
    r["ir", p, c] = ratio(val[p, c, "ir"], val[p, "plain", "ir"])
    r["fast", p, c] = ratio(lo[p, c], lo[p, "plain"])
  }
  split("size td time fast ir", M, " ")
  for (j = 2; j <= nc; j++) for (m = 1; m <= 5; m++) {
    s = 0
    for (i = 1; i <= np; i++) s += log(r[M[m], P[i], C[j]])
    geo[M[m], C[j]] = exp(s / np)
  }

  print "## Relative to plain (ratios; 1.010 = 1% more)"
  print ""
  print "| program | config | stripped size | text+data | wall time (median) | wall time (fastest) | instructions | wall-time spread |"
  print "|---|---|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= np; i++) for (j = 2; j <= nc; j++) {
    p = P[i]; c = C[j]; k = p SUBSEP c; k0 = p SUBSEP "plain"
    printf "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.4f | %.0f%% (plain %.0f%%) |\n", p, c, r["size", p, c], r["td", p, c], r["time", p, c], r["fast", p, c], r["ir", p, c], 100 * (hi[k] - lo[k]) / med[p, c], 100 * (hi[k0] - lo[k0]) / med[p, "plain"]
  }
  for (j = 2; j <= nc; j++)
    printf "| **geomean** | %s | %.3f | %.3f | %.3f | %.3f | %.4f | |\n", C[j], geo["size", C[j]], geo["td", C[j]], geo["time", C[j]], geo["fast", C[j]], geo["ir", C[j]]
  print ""
  print "Wall time (fastest): the ratio of the fastest runs, the least disturbed ones. Wall-time spread: (slowest - fastest) / median of the timed runs; where it is larger than a wall-time difference, that difference is noise. The instruction counts are exact."
  print ""

  # The runtime: the empty program with MIP less the empty program plain,
  # less 8 bytes (7 of code, 1 counter) per function it instrumented.
  ef = val["empty", "mip", "funcs"]
  rt_file = val["empty", "mip", "stripped"] - val["empty", "plain", "stripped"] - 8 * ef
  rt_td = td("empty", "mip") - td("empty", "plain") - 8 * ef
  rt_code = val["empty", "mip", "code"] - val["empty", "plain", "code"] - 7 * ef
  rt_bss = val["empty", "mip", "bss"] - val["empty", "plain", "bss"]
  print "## MIP: bytes per instrumented function"
  print ""
  print "| program | functions | + stripped file | + text+data | + file / function | + text+data / function | + .text | per function: (+ .text - runtime .text + counter bytes in the file) / functions | of which alignment padding |"
  print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  worst = -1e9
  for (i = 1; i <= np; i++) {
    p = P[i]; f = val[p, "mip", "funcs"]
    dfile = val[p, "mip", "stripped"] - val[p, "plain", "stripped"]
    dtd = td(p, "mip") - td(p, "plain")
    dcode = val[p, "mip", "code"] - val[p, "plain", "code"]
    per = f > 0 ? (dcode - rt_code + val[p, "mip", "counter_file"]) / f : 0
    if (per > worst) { worst = per; worstp = p }
    printf "| %s | %.0f | %.0f | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f |\n", p, f, dfile, dtd, (f ? dfile / f : 0), (f ? dtd / f : 0), dcode, per, (f ? per - 8 : 0)
  }
  print ""
  printf "Runtime, from an empty `main` built with MIP and without (less 8 B for its %.0f instrumented function): %.0f B of text+data (%.0f B of it .text), %.0f B of stripped file, plus %.0f B bss. ", ef, rt_td, rt_code, rt_file, rt_bss
  print "In the empty program every libc function the runtime calls is a new import (dynamic symbol, PLT and GOT entries); a real program often imports them already, so there the runtime costs less, and \"+ text+data / function\" above still includes it. The per-function column counts code alone: the growth of .text beyond the runtime code, plus the counter bytes the file holds (none on x86-64: a coverage byte starts at 0, in a section without file bytes); the store itself is 7 bytes, the rest is the 16-byte alignment of functions (a function grows by 0 or 16 bytes), which averages out over many functions. The stripped file grows in whole pages where a segment crosses a page boundary; it is what ships, text+data is the finer measure."
  print ""

  print "## Targets"
  print ""
  printf "- MIP adds at most 8 B per instrumented function (code + counter, per-function column above): %s (largest %.2f B, %s).\n", met(worst <= 8), worst, worstp
  printf "- MIP runtime at most 8 KiB: %s (%.0f B text+data, %.0f B stripped file, in the empty program).\n", met(rt_td <= 8192 && rt_file <= 8192), rt_td, rt_file
  for (i = 1; i <= np; i++) {
    p = P[i]; f = val[p, "mip", "funcs"]; budget = 8 * f + 8192
    dfile = val[p, "mip", "stripped"] - val[p, "plain", "stripped"]
    dtd = td(p, "mip") - td(p, "plain")
    printf "- %s, whole budget of 8 B x %.0f functions + 8 KiB = %.0f B: %s (+%.0f B text+data, +%.0f B stripped file).\n", p, f, budget, met(dtd <= budget && dfile <= budget), dtd, dfile
  }
  printf "- MIP wall time at most +1%% (geomean): %s (%s).\n", met(geo["time", "mip"] <= 1.01), pct(geo["time", "mip"])
  printf "- MIP instructions at most +1%% (geomean): %s (%s).\n", met(geo["ir", "mip"] <= 1.01), pct(geo["ir", "mip"])
  print ""

  # counts+order: the same accounting against its own empty program.
  eco = val["empty", "mip-co", "funcs"]
  co_rt_code = val["empty", "mip-co", "code"] - val["empty", "plain", "code"]
  print "## MIP counts+order: bytes per instrumented function"
  print ""
  print "| program | functions | + text+data | + text+data / function | counter bytes / function | + .text / function (beyond the runtime) |"
  print "|---|---:|---:|---:|---:|---:|"
  co_worst_data = 0
  for (i = 1; i <= np; i++) {
    p = P[i]; f = val[p, "mip-co", "funcs"]
    dtd = td(p, "mip-co") - td(p, "plain")
    data = f ? val[p, "mip-co", "counters"] / f : 0
    if (data > co_worst_data) co_worst_data = data
    code = f ? (val[p, "mip-co", "code"] - val[p, "plain", "code"] - co_rt_code) / f : 0
    printf "| %s | %.0f | %.0f | %.2f | %.2f | %.2f |\n", p, f, dtd, (f ? dtd / f : 0), data, code
  }
  print ""
  print "The code per function is the probe: the counter increment, the test of the coverage byte and its cold first-call block (which sets the byte and takes a rank)."
  print ""
  printf "- counts+order data at most 16 B per function: %s (largest %.2f B).\n", met(co_worst_data <= 16), co_worst_data
  printf "- counts+order wall time at most +5%% (geomean): %s (%s).\n", met(geo["time", "mip-co"] <= 1.05), pct(geo["time", "mip-co"])
  printf "- counts+order instructions at most +5%% (geomean): %s (%s).\n", met(geo["ir", "mip-co"] <= 1.05), pct(geo["ir", "mip-co"])
  print ""

  print "## Continuous mode against the default mode"
  print ""
  print "The same builds linked with -fmip-continuous and run with `%c` in `MIP_PROFILE_FILE`: each image maps its counters onto its raw profile when it starts (docs/runtime.md). Ratios to the default mode of the same build."
  print ""
  print "| program | mip-c / mip instructions | mip-c / mip wall (median) | mip-c / mip wall (fastest) | mip-co-c / mip-co instructions | mip-co-c / mip-co wall (median) | mip-co-c / mip-co wall (fastest) |"
  print "|---|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= np; i++) {
    p = P[i]
    for (m = 1; m <= 2; m++) {
      b = m == 1 ? "mip" : "mip-co"
      cr[m, "ir", i] = ratio(val[p, b "-c", "ir"], val[p, b, "ir"])
      cr[m, "time", i] = ratio(med[p, b "-c"], med[p, b])
      cr[m, "fast", i] = ratio(lo[p, b "-c"], lo[p, b])
      cg[m, "ir"] += log(cr[m, "ir", i]); cg[m, "time"] += log(cr[m, "time", i])
      cg[m, "fast"] += log(cr[m, "fast", i])
    }
    printf "| %s | %.5f (%+.0f) | %.3f | %.3f | %.5f (%+.0f) | %.3f | %.3f |\n", p, cr[1, "ir", i], val[p, "mip-c", "ir"] - val[p, "mip", "ir"], cr[1, "time", i], cr[1, "fast", i], cr[2, "ir", i], val[p, "mip-co-c", "ir"] - val[p, "mip-co", "ir"], cr[2, "time", i], cr[2, "fast", i]
  }
  printf "| **geomean** | %.5f | %.3f | %.3f | %.5f | %.3f | %.3f |\n", exp(cg[1, "ir"] / np), exp(cg[1, "time"] / np), exp(cg[1, "fast"] / np), exp(cg[2, "ir"] / np), exp(cg[2, "time"] / np), exp(cg[2, "fast"] / np)
  print ""
  print "The probes are the same instructions. What continuous mode adds is work of the runtime when each image starts (creating and writing its file, mapping its counters) and of the kernel: the first store to each counter page after the file was written is a page fault, and after the kernel writes the dirty pages back (every 30 s or so by default) the next store to each faults again. In brackets: the instructions added, summed over the processes of the workload (callgrind counts user-space instructions only, not the kernel). Wall (fastest): the ratio of the fastest runs, which a loaded machine disturbs least; where the spreads in the table above are larger than a difference here, the difference is noise."
  print ""

  print "## Where MIP'"'"'s extra instructions go"
  print ""
  print "Callgrind self cost per function, plain vs mip. The entry store is one instruction per call, so the extra Ir of a function is about its number of calls, and what it costs that function is about 1 / (its Ir per call)."
  print ""
  for (i = 1; i <= np; i++) {
    p = P[i]; n = 0; extra = val[p, "mip", "ir"] - val[p, "plain", "ir"]
    f = dir "/hotspots." p ".tsv"
    while ((getline line < f) > 0) { split(line, h, "\t"); n++; for (k = 1; k <= 6; k++) hs[n, k] = h[k] }
    close(f)
    over = r["time", p, "mip"] > 1.01 || r["ir", p, "mip"] > 1.01
    printf "%s: mip %s instructions (%.0f more), %s wall time%s\n", p, pct(r["ir", p, "mip"]), extra, pct(r["time", p, "mip"]), (over ? " -- **over the 1% target**; the top offenders:" : "; largest increases:")
    print ""
    print "| function | calls | plain Ir | extra Ir | share of the extra | plain Ir per call | store / call |"
    print "|---|---:|---:|---:|---:|---:|---:|"
    for (k = 1; k <= n && k <= (over ? 5 : 3); k++)
      printf "| %s | %.0f | %.0f | %.0f | %.1f%% | %.1f | %s |\n", hs[k, 1], hs[k, 2], hs[k, 3], hs[k, 5], (extra > 0 ? 100 * hs[k, 5] / extra : 0), hs[k, 6], (hs[k, 6] > 0 ? sprintf("+%.1f%%", 100 / hs[k, 6]) : "-")
    if (over) {
      top = 0; perc = 0
      for (k = 1; k <= n && k <= 5; k++) { top += hs[k, 5]; if (hs[k, 6] > perc) perc = hs[k, 6] }
      printf "\nThese %.0f functions account for %.0f%% of the extra instructions. Each runs at most %.1f instructions per call, so the one-instruction store (and memory write) at entry is a noticeable part of every call: short functions called very often that -O2 kept out of line.\n", (n < 5 ? n : 5), (extra > 0 ? 100 * top / extra : 0), perc
    }
    print ""
  }

  print "## Raw numbers"
  print ""
  print "| program | config | stripped B | text | data | bss | text+data | wall s median (min-max) | instructions | MIP functions |"
  print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= np; i++) for (j = 1; j <= nc; j++) {
    p = P[i]; c = C[j]; k = p SUBSEP c
    printf "| %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.3f (%.3f-%.3f) | %.0f | %s |\n", p, c, val[p, c, "stripped"], val[p, c, "text"], val[p, c, "data"], val[p, c, "bss"], td(p, c), med[p, c], lo[k], hi[k], val[p, c, "ir"], (c ~ /^mip/ ? val[p, c, "funcs"] : "-")
  }
  split("plain mip mip-co", E, " ")
  for (j = 1; j <= 3; j++) {
    c = E[j]
    printf "| empty | %s | %.0f | %.0f | %.0f | %.0f | %.0f | - | - | %s |\n", c, val["empty", c, "stripped"], val["empty", c, "text"], val["empty", c, "data"], val["empty", c, "bss"], td("empty", c), (c ~ /^mip/ ? val["empty", c, "funcs"] : "-")
  }
}' "$results"
