# bench/heap/dhat.jq: one tab-separated line per DHAT program point
# (valgrind --tool=dhat --fullpath-after=, JSON file version 2):
#
#   kind site via tbk tb context
#
# ($at "peak": gbk gb, the blocks and bytes live at the global peak,
# t-gmax, instead of tbk tb.)
#
# The program point's first frame is the allocator valgrind replaces
# (malloc, calloc, realloc, operator new... in vgpreload_dhat); `site` is
# its first frame in the program's own sources ($dir/FILE:LINE, printed as
# FILE:LINE), the allocation call. kind:
#   direct   the program called the allocator, or strdup/strndup/
#            reallocarray, which call it (MIP's hooks see these calls)
#   library  a library function the program called allocated (fopen's
#            FILE, stdio buffers, getpwuid...): `via` is that function
#   none     no frame in the program's sources (the dynamic loader, libc
#            start-up): `site` is "-", `via` the whole stack
# A frame is in the program's sources when its file, with no . or ..,
# is under $dir or under one of $hdirs (space-separated: headers whose
# code the program compiles into itself, such as the C++ library's).
# For direct points `via` is the allocator frame (as DHAT names it: a
# realloc of NULL shows as malloc). `context`: the site, then the
# function names of the program's frames from the site's outwards, at most
# $depth of them, joined by "<" (frames in libraries left out); "-" for
# kind none. Function names are bare (names.jq).
include "names";

def frame:
  capture("^0x[0-9A-Fa-f]+: (?<fn>.*) \\((?<loc>[^()]*)\\)$") // {fn: ., loc: ""};
def normalized:
  if startswith("/") then
    split("/") | reduce .[] as $s ([];
      if $s == ".." then .[:-1] elif $s == "." or $s == "" then . else . + [$s] end)
    | "/" + join("/")
  else . end;
def mine($hd): . as $l | startswith($dir) or any($hd[]; . as $h | $l | startswith($h));
def calls_allocator:
  ["strdup", "__strdup", "strndup", "__strndup", "reallocarray",
   "__libc_reallocarray"];

.ftbl as $f
| ($depth | tonumber) as $n
| ($hdirs | split(" ") | map(select(. != ""))) as $hd
| .pps[]
| (if $at == "peak" then {tbk: .gbk, tb: .gb} + {fs} else . end)
| (.fs | map($f[.] | frame | .loc |= normalized)) as $fr
| ([$fr[] | .loc | mine($hd)] | index(true)) as $i
| if $i == null then
    ["none", "-", ($fr | map(.fn) | join(" < ")), .tbk, .tb, "-"]
  else
    ($fr[1:$i] | map(.fn)) as $via
    | ($fr[$i].loc | ltrimstr($dir)) as $site
    | ([$site] + ([$fr[$i:][] | select(.loc | mine($hd)) | .fn | base_name] | .[0:$n])
       | join("<")) as $context
    | if ($via - calls_allocator) == [] then
        ["direct", $site, $fr[0].fn, .tbk, .tb, $context]
      else
        ["library", $site, $via[-1], .tbk, .tb, $context]
      end
  end
| map(tostring) | join("\t")
