# bench/heap/dwarf.awk: reads `llvm-dwarfdump --debug-info BINARY` and
# prints "name \t decl_file \t decl_line" for every subprogram that has
# a name and a line (declarations left out; an inlined function's abstract
# instance counts). MemProf gives a frame's line as an offset from this
# line (DISubprogram::getLine), so MIP's absolute lines need it to be
# compared. The name is the linkage name when there is one.
BEGIN { OFS = "\t" }

function flush() {
  if (insub && name != "" && line != "" && !decl) print name, file, line
  insub = 0; name = ""; lname = ""; file = ""; line = ""; decl = 0
}
function quoted(s) { sub(/^[^(]*\("/, "", s); sub(/"\)[^)]*$/, "", s); return s }

/DW_TAG_/ { flush(); insub = /DW_TAG_subprogram/; next }
!insub { next }
/DW_AT_linkage_name\t/ { name = quoted($0); lname = 1; next }
/DW_AT_name\t/ { if (!lname) name = quoted($0); next }
/DW_AT_decl_file\t/ { file = quoted($0); next }
/DW_AT_decl_line\t/ { line = $0; sub(/^[^(]*\(/, "", line); sub(/\).*/, "", line); next }
/DW_AT_declaration\t/ { decl = 1; next }
END { flush() }
