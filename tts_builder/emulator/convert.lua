-- Host conversion: a Lua result as one JSON string, by the rules of sandbox.py's from_lua
-- (an empty table is [], a table whose keys are all positive integers is an array with holes
-- as null, any other table an object with string keys; integral numbers below 2^63 are
-- integers, other numbers exact to the last bit, NaN and infinities as Python's json reads
-- them). One string crosses into Python instead of one call per table entry.
-- Anything from_lua would refuse or word differently (functions, userdata, cycles, keys that
-- are not strings, booleans or safe numbers, very sparse arrays, non-ASCII text) is not encoded: encode
-- returns nil and the host converts the value itself, the slow way, with from_lua's errors.
-- Loaded unsandboxed by sandbox.py.
local floor, huge, format, concat = math.floor, math.huge, string.format, table.concat
local type, pairs, next, xpcall, tostring = type, pairs, next, xpcall, tostring

local TWO63 = 2 ^ 63
local TWO53 = 2 ^ 53
local ESCAPES = { ['"'] = '\\"', ["\\"] = "\\\\" }

local function escape(c)
  return ESCAPES[c] or format("\\u%04x", c:byte())
end

-- Quoted texts, remembered (rule results repeat the same keys and names); at most LIMIT.
local QUOTED, quoted_count, LIMIT = {}, 0, 4096

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
  if quoted_count >= LIMIT then QUOTED, quoted_count = {}, 0 end
  QUOTED[s], quoted_count = done, quoted_count + 1
  return done
end

-- Integers as text: small ones looked up, the rest formatted once each call.
local SMALL = {}
for i = -1024, 1024 do SMALL[i] = format("%d", i) end

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

local encode

local function encode_table(t, ancestors)
  if ancestors[t] then return nil end
  if next(t) == nil then return "[]" end
  local count, max, array = 0, 0, true
  for k in pairs(t) do
    count = count + 1
    if array then
      if type(k) == "number" and k >= 1 and k == floor(k) and k < TWO53 then
        if k > max then max = k end
      else
        array = false
      end
    end
  end
  ancestors[t] = true
  local parts = {}
  if array then
    if max > 4 * count + 64 then
      ancestors[t] = nil
      return nil -- mostly holes: the host pads them
    end
    for i = 1, max do
      local v = t[i]
      if v == nil then
        parts[i] = "null"
      else
        local text = encode(v, ancestors)
        if text == nil then return nil end
        parts[i] = text
      end
    end
    ancestors[t] = nil
    return "[" .. concat(parts, ",") .. "]"
  end
  local n = 0
  for k, v in pairs(t) do
    local key = key_text(k)
    if key == nil then return nil end
    local text = encode(v, ancestors)
    if text == nil then return nil end
    n = n + 1
    parts[n] = key .. ":" .. text
  end
  ancestors[t] = nil
  return "{" .. concat(parts, ",") .. "}"
end

encode = function(v, ancestors)
  local kind = type(v)
  if kind == "string" then return quote(v) end
  if kind == "number" then return number(v) end
  if kind == "table" then return encode_table(v, ancestors) end
  if kind == "boolean" then return v and "true" or "false" end
  if kind == "nil" then return "null" end
  return nil -- functions, userdata, threads: the host raises
end

local M = {}

--- The JSON text of v, or nil when the host must convert v itself.
function M.encode(v)
  return encode(v, {})
end

local function message(e)
  return type(e) == "string" and e or tostring(e)
end

--- Call fn(...) catching errors, as sandbox.run does but without its traceback: true, the
--- JSON text of the first result (or true, nil, the result itself when it has no JSON text
--- here), or false, the message.
function M.call(fn, ...)
  local ok, result = xpcall(fn, message, ...)
  if not ok then return false, result end
  local text = encode(result, {})
  if text == nil then return true, nil, result end
  return true, text
end

return M
