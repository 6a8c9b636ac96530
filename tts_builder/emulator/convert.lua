-- Host conversion: a Lua result as one JSON string, by the rules of sandbox.py's from_lua
-- (an empty table is [], a table whose keys are all positive integers is an array with holes
-- as null, any other table an object with string keys; integral numbers below 2^63 are
-- integers, other numbers exact to the last bit, NaN and infinities as Python's json reads
-- them). One string crosses into Python instead of one call per table entry.
-- Anything from_lua would refuse or word differently (functions, userdata, cycles, keys that
-- are not strings, booleans or safe numbers, very sparse arrays, non-ASCII text, tables with
-- a metatable) is not encoded: encode
-- returns nil and the host converts the value itself, the slow way, with from_lua's errors.
-- Loaded unsandboxed by sandbox.py.
local floor, huge, format, concat = math.floor, math.huge, string.format, table.concat
local type, next, xpcall, tostring = type, next, xpcall, tostring
-- (In MoonSharp, debug.getmetatable of a plain table is a null that is not nil: getmetatable.)
local metatable_of = _MOONSHARP and getmetatable or debug.getmetatable

local TWO63 = 2 ^ 63
local TWO53 = 2 ^ 53
local ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\" }

local function escape(c)
  return ESCAPES[c] or format("\\u%04x", c:byte())
end

-- Quoted texts, remembered (rule results repeat the same keys and names); at most LIMIT.
-- PLAIN holds the strings quoted as they are; KEY a string as the first key of an object
-- ('"k":'), NEXT_KEY as any later one (',"k":').
-- NEXT_QUOTED is a quoted text after a comma (a later item of a list).
local QUOTED, NEXT_QUOTED, PLAIN, KEY, NEXT_KEY = {}, {}, {}, {}, {}
local quoted_count, LIMIT = 0, 4096

local function quote(s)
  local done = QUOTED[s]
  if done then return done end
  local special = s:find('[%c"\\\128-\255]')
  if special then
    if s:find("[\128-\255]") then return nil end -- lupa decodes (and refuses) non-ASCII itself
    done = '"' .. s:gsub('[%c"\\]', escape) .. '"'
  else
    done = '"' .. s .. '"'
  end
  if quoted_count >= LIMIT then
    QUOTED, NEXT_QUOTED, PLAIN, KEY, NEXT_KEY, quoted_count = {}, {}, {}, {}, {}, 0
  end
  QUOTED[s], NEXT_QUOTED[s], KEY[s], NEXT_KEY[s] = done, "," .. done, done .. ":", "," .. done .. ":"
  PLAIN[s] = not special
  quoted_count = quoted_count + 1
  return done
end

-- Integers as text: small ones looked up (also telling a small integer from anything else
-- without a type() call), the rest formatted once each call.
local SMALL, NEXT_SMALL = {}, {}
for i = -1024, 1024 do
  SMALL[i] = format("%d", i)
  NEXT_SMALL[i] = "," .. SMALL[i]
end

local function number(n)
  local small = SMALL[n]
  if small then return small end
  if n ~= n then return "NaN" end
  if n == huge then return "Infinity" end
  if n == -huge then return "-Infinity" end
  if n == floor(n) and n < TWO63 and n >= -TWO63 then return format("%d", n) end
  return format("%.17g", n)
end

local function key_text(k)
  local kind = type(k)
  if kind == "string" then return quote(k) end -- nil for non-ASCII
  if kind == "boolean" then return k and '"true"' or '"false"' end
  if kind == "number" and k == floor(k) and k < TWO53 and k > -TWO53 then
    return '"' .. format("%d", k) .. '"'
  end
  return nil -- fractions, huge numbers, tables...: the host words them
end

-- Everything is written into one buffer (buf, n: the last slot used) and joined once; a
-- writer returns the new n, or nil when the value has no JSON text here. Small integers and
-- remembered strings are written in place (two lookups, no call): results are mostly short
-- lists of them, and a list of only small integers or only plain strings is one concat.
local put, put_table

-- The largest key when every key of t is a positive integer below 2^53, else nil (t is an
-- object), or false when such an array is mostly holes (the host pads them).
local function array_length(t)
  local count, max = 0, 0
  for k in next, t do
    count = count + 1
    if type(k) == "number" and k >= 1 and k == floor(k) and k < TWO53 then
      if k > max then max = k end
    else
      return nil
    end
  end
  if max > 4 * count + 64 then return false end
  return max
end

-- t[1..max] in one concat when all are plain remembered strings; nil otherwise. (Not for
-- numbers: concat formats each one, slower than looking it up.)
local function joined(t, max)
  if PLAIN[t[1]] then
    for i = 2, max do
      if not PLAIN[t[i]] then return nil end
    end
    return '["' .. concat(t, '","', 1, max) .. '"]'
  end
  return nil
end

-- t[1..max] as an array (a nil as null; strict: false instead, t is no plain sequence).
local function put_array(t, max, buf, n, ancestors, strict)
  local whole = joined(t, max)
  if whole then
    n = n + 1
    buf[n] = whole
    return n
  end
  n = n + 1
  buf[n] = "["
  local small, quoted = SMALL, QUOTED
  for i = 1, max do
    local v = t[i]
    local text = small[v] or quoted[v] -- with its comma after the first item
    small, quoted = NEXT_SMALL, NEXT_QUOTED
    if text == nil then
      if i > 1 then
        n = n + 1
        buf[n] = ","
      end
      if v == nil then
        if strict then return false end
        text = "null"
      else
        n = (type(v) == "table" and put_table or put)(v, buf, n, ancestors)
        if n == nil then return nil end
      end
    end
    if text then
      n = n + 1
      buf[n] = text
    end
  end
  n = n + 1
  buf[n] = "]"
  return n
end

local function put_object(t, buf, n, ancestors)
  local keys = KEY
  n = n + 1
  buf[n] = "{"
  for k, v in next, t do
    local key = keys[k]
    if key == nil then
      key = key_text(k)
      if key == nil then return nil end
      key = (keys == KEY and "" or ",") .. key .. ":"
    end
    keys = NEXT_KEY
    n = n + 1
    buf[n] = key
    local text = SMALL[v] or QUOTED[v]
    if text then
      n = n + 1
      buf[n] = text
    else
      n = (type(v) == "table" and put_table or put)(v, buf, n, ancestors)
      if n == nil then return nil end
    end
  end
  n = n + 1
  buf[n] = "}"
  return n
end

put_table = function(t, buf, n, ancestors)
  -- from_lua reads tables raw (lua_next): one with a metatable (a Vector, say, whose __index
  -- or __len would answer here) is left to it, as is a cycle
  if ancestors[t] or metatable_of(t) then return nil end
  if next(t) == nil then
    n = n + 1
    buf[n] = "[]"
    return n
  end
  ancestors[t] = true
  local done, len = false, #t
  if len > 0 then -- a plain sequence when it has #t keys (and no nil in 1..#t: put_array)
    local count = 0
    for _ in next, t do count = count + 1 end
    if count == len then done = put_array(t, len, buf, n, ancestors, true) end
  end
  if done == false then -- not a plain sequence
    local max = array_length(t)
    if max == false then return nil end
    if max then
      done = put_array(t, max, buf, n, ancestors)
    else
      done = put_object(t, buf, n, ancestors)
    end
  end
  ancestors[t] = nil
  return done
end

put = function(v, buf, n, ancestors)
  local kind = type(v)
  local text
  if kind == "table" then return put_table(v, buf, n, ancestors) end
  if kind == "string" then
    text = quote(v)
  elseif kind == "number" then
    text = number(v)
  elseif kind == "boolean" then
    text = v and "true" or "false"
  elseif kind == "nil" then
    text = "null"
  end
  if text == nil then return nil end -- functions, userdata, threads: the host raises
  n = n + 1
  buf[n] = text
  return n
end

-- One buffer for every call (encode never runs inside another): no table to grow each time;
-- one set of the tables being written (empty again after a success, replaced after a failure).
local BUFFER, ANCESTORS = {}, {}

local function encode(v)
  local n = put(v, BUFFER, 0, ANCESTORS)
  if n == nil then
    ANCESTORS = {}
    return nil
  end
  return concat(BUFFER, "", 1, n)
end

local M = {}

--- The JSON text of v, or nil when the host must convert v itself.
function M.encode(v)
  return encode(v)
end

local function message(e)
  return type(e) == "string" and e or tostring(e)
end

-- Arguments come in flat (sandbox.py's _flat): one list of scalars in which MARK, kind, n
-- starts a table of n items (LIST, or SPARSE_LIST where a nil makes no slot: n values; DICT:
-- n key, value pairs) written out after it,
-- and MARK, keys (a list of string keys, made once per key set by the host) a record: a value
-- for each key in turn. One list of scalars crosses in one lupa call; lupa makes each nested
-- table it converts itself a Python object too, which costs more than building them here.
local MARK, LIST, SPARSE_LIST = {}, 1, 3
M.MARK = MARK

local function build(vals, i)
  local kind = vals[i + 1]
  local t = {}
  if type(kind) == "table" then
    i = i + 2
    for j = 1, #kind do
      local v = vals[i]
      if v == MARK then
        v, i = build(vals, i)
      else
        i = i + 1
      end
      if v ~= nil then t[kind[j]] = v end -- as json_to_lua drops it (t[k] = nil makes a slot)
    end
    return t, i
  end
  local n = vals[i + 2]
  i = i + 3
  if kind == LIST or kind == SPARSE_LIST then
    local dense = kind == LIST
    for j = 1, n do
      local v = vals[i]
      if v == MARK then
        v, i = build(vals, i)
      else
        i = i + 1
      end
      -- a LIST sets a nil too, as lupa's table_from does (the slot it makes shapes #t); a
      -- SPARSE_LIST makes no slot for it, as sandbox.py's to_lua skips it
      if dense or v ~= nil then t[j] = v end
    end
  else
    for _ = 1, n do
      local k, v = vals[i], vals[i + 1]
      if v == MARK then
        v, i = build(vals, i + 1)
      else
        i = i + 2
      end
      if v ~= nil then t[k] = v end
    end
  end
  return t, i
end

--- The table written flat in vals (its first item a MARK).
function M.build_flat(vals)
  return (build(vals, 1))
end

local unpack = table.unpack

--- M.call_flat(fn, {...}, count): the flat list as the call's own arguments (no table for
--- the host to make and wrap).
function M.call_spread(fn, count, ...)
  return M.call_flat(fn, { ... }, count)
end

--- M.call(fn, args...) for count arguments written flat in vals.
function M.call_flat(fn, vals, count)
  if count == 1 and vals[1] == MARK then return M.call(fn, (build(vals, 1))) end
  local args, i = {}, 1
  for a = 1, count do
    local v = vals[i]
    if v == MARK then
      v, i = build(vals, i)
    else
      i = i + 1
    end
    args[a] = v
  end
  return M.call(fn, unpack(args, 1, count))
end

--- Call fn(...) catching errors, as sandbox.run does but without its traceback: true, the
--- JSON text of the first result (or true, nil, the result itself when it has no JSON text
--- here), or false, the message.
function M.call(fn, ...)
  local ok, result = xpcall(fn, message, ...)
  if not ok then return false, result end
  local text = encode(result)
  if text == nil then return true, nil, result end
  return true, text
end

return M
