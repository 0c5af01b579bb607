# bench/heap/memprof.awk: reads what `llvm-profdata show --memory RAW
# --profiled-binary=BIN` prints for a raw MemProf profile (LLVM 19) and
# writes one line per allocation context:
#
#   frames \t AllocCount \t TotalSize \t TotalAccessCount \t ReallocCount
#
# frames: the symbolized call stack, leaf first, "name:lineoffset:column:inline"
# joined by "|" (frames outside the binary are already left out by
# llvm-profdata). ReallocCount is "-": MemProf has no such field.
#
# llvm-profdata lists a context under every function of its stack up to
# the first frame that is not inlined (each is a "Record" with the context
# in its AllocSites); the context is taken once, from the record of its
# leaf function. CallSites sections carry frames only and are skipped.
BEGIN { OFS = "\t" }

function flush() {
  if (stack != "" && take)
    print stack, f["AllocCount"], f["TotalSize"], f["TotalAccessCount"], "-"
  stack = ""; take = 0; frame = ""
  delete f
}

# Leaves the value of a "Key: value" line in `val`.
function value(line) { val = line; sub(/^[^:]*: */, "", val); return val }

{ t = $0; sub(/^ +/, "", t) }

t ~ /^FunctionGUID:/ { flush(); guid = value(t); section = ""; next }
t == "AllocSites:" { flush(); section = "alloc"; next }
t == "CallSites:" { flush(); section = "call"; next }
section != "alloc" { next }

t == "Callstack:" { flush(); inmib = 0; nframes = 0; next }
t == "MemInfoBlock:" { inmib = 1; next }
inmib && t ~ /^[A-Za-z]+: / { k = t; sub(/:.*/, "", k); f[k] = value(t); next }
t ~ /^Function: / {
  fn = value(t)
  # The leaf frame's function decides which record the context is taken from.
  if (nframes++ == 0) take = (fn == guid)
  next
}
t ~ /^SymbolName: / { name = value(t); next }
t ~ /^LineOffset: / { off = value(t); next }
t ~ /^Column: / { col = value(t); next }
t ~ /^Inline: / {
  inl = value(t) == "1" || value(t) == "true" ? 1 : 0
  stack = stack (stack == "" ? "" : "|") name ":" off ":" col ":" inl
  next
}

END { flush() }
