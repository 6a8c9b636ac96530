-- JSON.encode / encode_pretty with TTS (Friedl JSON.lua) semantics:
-- an empty table is [], tables whose keys are all positive integers are arrays (holes -> null),
-- any other table is an object with sorted keys and integer keys written as strings,
-- NaN -> null, +/-inf -> +/-1e+9999. Decoding is done by the host (Python's json module).
local M = {}

local ESCAPES = {
  ['"'] = '\\"', ["\\"] = "\\\\", ["\b"] = "\\b", ["\f"] = "\\f", ["\n"] = "\\n",
  ["\r"] = "\\r", ["\t"] = "\\t",
}

local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return ESCAPES[c] or string.format("\\u%04x", c:byte())
  end) .. '"'
end

local function number(n)
  if n ~= n then return "null" end
  if n == math.huge then return "1e+9999" end
  if n == -math.huge then return "-1e+9999" end
  if n == math.floor(n) and math.abs(n) < 2 ^ 53 then return string.format("%d", n) end
  return string.format("%.14g", n)
end

local function key_text(k)
  if type(k) == "string" then return k end
  if type(k) == "number" then return number(k) end
  if type(k) == "boolean" then return tostring(k) end
  error("JSON.encode: cannot encode a " .. type(k) .. " key", 0)
end

local encode_value

local function array_length(t)
  local n, max = 0, 0
  for k in pairs(t) do
    if type(k) ~= "number" or k < 1 or k ~= math.floor(k) then return nil end
    n = n + 1
    if k > max then max = k end
  end
  return max
end

local function encode_table(t, indent, depth, seen)
  if seen[t] then error("JSON.encode: table contains itself", 0) end
  seen[t] = true
  local nl, pad, inner, sep = "", "", "", ":"
  if indent then
    nl = "\n"
    pad = string.rep(indent, depth)
    inner = string.rep(indent, depth + 1)
    sep = ": "
  end
  local parts = {}
  local out
  if next(t) == nil then
    out = "[]"
  else
    local n = array_length(t)
    if n then
      for i = 1, n do parts[i] = inner .. encode_value(t[i], indent, depth + 1, seen) end
      out = "[" .. nl .. table.concat(parts, "," .. nl) .. nl .. pad .. "]"
    else
      local keys = {}
      for k in pairs(t) do keys[#keys + 1] = { key_text(k), k } end
      table.sort(keys, function(a, b) return a[1] < b[1] end)
      for i, pair in ipairs(keys) do
        parts[i] = inner .. quote(pair[1]) .. sep .. encode_value(t[pair[2]], indent, depth + 1, seen)
      end
      out = "{" .. nl .. table.concat(parts, "," .. nl) .. nl .. pad .. "}"
    end
  end
  seen[t] = nil
  return out
end

function encode_value(v, indent, depth, seen)
  local kind = type(v)
  if kind == "nil" then return "null" end
  if kind == "boolean" then return tostring(v) end
  if kind == "number" then return number(v) end
  if kind == "string" then return quote(v) end
  if kind == "table" then
    local mt = getmetatable(v)
    if mt and mt.__tts_object then
      error("JSON.encode: cannot encode an Object reference (store its GUID instead)", 0)
    end
    return encode_table(v, indent, depth, seen)
  end
  error("JSON.encode: cannot encode a " .. kind, 0)
end

function M.encode(v)
  return encode_value(v, nil, 0, {})
end

function M.encode_pretty(v)
  return encode_value(v, "  ", 0, {})
end

return M
