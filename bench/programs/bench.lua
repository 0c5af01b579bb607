-- Compute workload for the lua benchmark: recursion, tables, strings,
-- closures and metatables. Deterministic: prints only checksums.
-- Usage: lua bench.lua SCALE
local scale = tonumber(arg[1]) or 10

local seed = 12345
local function rnd(m)
  seed = (seed * 16807) % 2147483647
  return seed % m
end

local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

local function tables(n)
  local t = {}
  for i = 1, n do t[i] = rnd(1000000) end
  table.sort(t)
  local h, sum = {}, 0
  for i = 1, n do
    local k = "k" .. (t[i] % 5000)
    h[k] = (h[k] or 0) + 1
    sum = (sum + t[i] * (i % 7)) % 1000000007
  end
  local keys = 0
  for _, v in pairs(h) do keys = keys + v end
  local rev = {}
  for i = #t, 1, -1 do rev[#rev + 1] = t[i] end
  table.remove(rev, 1)
  table.insert(rev, 1, -1)
  return sum, keys, rev[1] + rev[#rev]
end

local function strings(n)
  local parts = {}
  for i = 1, n do
    parts[#parts + 1] = string.format("%05d:%s;", i, string.rep(string.char(97 + i % 26), 1 + i % 5))
  end
  local s = table.concat(parts)
  local words = 0
  for w in s:gmatch("%d+:(%a+);") do words = words + #w end
  local up = s:upper():gsub("A+", function(a) return #a end)
  local found, pos = 0, 1
  while true do
    local i = s:find("zzz", pos, true)
    if not i then break end
    found, pos = found + 1, i + 1
  end
  return #s, words, #up, found, s:sub(-12), s:byte(n)
end

local function closures(n)
  local function counter(step)
    local c = 0
    return function() c = c + step; return c end
  end
  local cs = {}
  for i = 1, 100 do cs[i] = counter(i) end
  local total = 0
  for i = 1, n do total = total + cs[1 + i % 100]() end
  local function map(t, f) local r = {} for i = 1, #t do r[i] = f(t[i]) end return r end
  local function fold(t, f, a) for i = 1, #t do a = f(a, t[i]) end return a end
  local xs = {}
  for i = 1, 1000 do xs[i] = i end
  for _ = 1, n // 1000 do
    xs = map(xs, function(x) return (x * 3 + 1) % 10007 end)
  end
  return total, fold(xs, function(a, x) return (a + x) % 1000003 end, 0)
end

local Vec = {}
Vec.__index = Vec
Vec.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, Vec) end
Vec.__mul = function(a, k) return setmetatable({x = a.x * k, y = a.y * k}, Vec) end
function Vec.new(x, y) return setmetatable({x = x, y = y}, Vec) end
function Vec:dot(o) return self.x * o.x + self.y * o.y end

local function objects(n)
  local acc = Vec.new(0, 0)
  for i = 1, n do
    local v = Vec.new(i % 17, i % 13) * 2 + Vec.new(1, -1)
    acc = acc + v
    if acc:dot(v) > 1e9 then acc = Vec.new(0, 0) end
  end
  return acc.x, acc.y
end

for round = 1, scale do
  print("round", round)
  print("fib", fib(24 + round % 3))
  print("tables", tables(20000))
  print("strings", strings(20000))
  print("closures", closures(100000))
  print("objects", objects(100000))
  collectgarbage()
end
