# bench/heap/names.jq: a function's bare name, so that the two sides of a
# comparison name a frame alike whatever spelling each has of it: DHAT an
# inlined frame by its DWARF name ("_M_construct<char *>",
# "basic_string") and any other by its demangled symbol
# ("Json::OurReader::readValue()"), MIP by its linkage name, demangled
# before it comes here ("std::__cxx11::basic_string<...>::basic_string<
# char*, void>(char*, char*, ...)"). What is left: the last component of
# the qualified name, without template arguments, parameters, ABI tags or
# qualifiers ("readValue", "basic_string", "operator[]"). A C name stays
# as it is. Overloads share a bare name: both sides merge them alike.
#
# The operators whose names hold '<', '>' or "()" are set apart first, so
# that stripping the brackets leaves them whole.
def operators_apart:
  gsub("operator\\(\\)"; "operator#call") | gsub("operator<=>"; "operator#cmp")
  | gsub("operator<<="; "operator#shl=") | gsub("operator>>="; "operator#shr=")
  | gsub("operator<<"; "operator#shl") | gsub("operator>>"; "operator#shr")
  | gsub("operator->"; "operator#arrow") | gsub("operator<="; "operator#le")
  | gsub("operator>="; "operator#ge") | gsub("operator<"; "operator#lt")
  | gsub("operator>"; "operator#gt");
def operators_back:
  gsub("#call"; "()") | gsub("#cmp"; "<=>") | gsub("#shl"; "<<")
  | gsub("#shr"; ">>") | gsub("#arrow"; "->") | gsub("#le"; "<=")
  | gsub("#ge"; ">=") | gsub("#lt"; "<") | gsub("#gt"; ">");
def base_name:
  gsub("\\[abi:[^\\]]*\\]"; "")
  | operators_apart
  | until(test("<[^<>]*>") | not; gsub("<[^<>]*>"; ""))
  | until(test("\\([^()]*\\)") | not; gsub("\\([^()]*\\)"; ""))
  | gsub("( (const|volatile)|&+)+$"; "")
  | split("::") | last
  # a function template's demangled name starts with its return type
  | (capture("(?<op>operator.*)$").op // (split(" ") | last))
  | operators_back;
