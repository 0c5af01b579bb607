# bench/heap/mip.jq: one tab-separated line per allocation context of
# `mipdata show --heap --format json`:
#
#   AllocCount TotalSize TotalAccessCount ReallocCount truncated(0/1)
#   site-file site-line site-allocator        ("-" 0 "-" without a site)
#   then per frame in the image, leaf first:
#   function file line column inlined(0/1)    (file "-" when unknown)
.heap // [] | .[]
| [.AllocCount, .TotalSize, .TotalAccessCount, .ReallocCount,
   (if .truncated then 1 else 0 end),
   (.site.file // "-"), (.site.line // 0), (.site.allocator // "-")]
  + ([.frames[] | select(.outside | not)
      | [.function, (.file // "-"), .line, .column, (if .inlined then 1 else 0 end)]]
     | flatten)
| map(tostring) | join("\t")
