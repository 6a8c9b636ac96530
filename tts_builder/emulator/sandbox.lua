-- The TTS (MoonSharp) standard-library set for one script environment.
-- Runs in the unsandboxed lupa runtime; `py` holds Python services (random, randomseed, print).
-- Returns a module: new_env(extra), load_chunk(source, name, env), run(fn, ...), clock.
local py = ...

local M = {}

-- Virtual clock shared by os.clock/os.time/os.date; the emulated table advances it.
local clock = { seconds = 0, epoch = 1700000000 }
M.clock = clock

local BASIC = {
  "assert", "collectgarbage", "error", "select", "type", "tonumber", "tostring",
  "pcall", "xpcall", "setmetatable", "getmetatable", "rawset", "rawget", "rawequal",
  "rawlen", "next", "ipairs", "pairs",
}
local LIBS = { "bit32", "coroutine", "math", "string", "table" }

local real_date, real_difftime = os.date, os.difftime
local floor = math.floor
local traceback = debug.traceback

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- Days since 1970-01-01 for a proleptic Gregorian date (UTC, no time zone).
local function days_from_civil(y, m, d)
  if m <= 2 then y = y - 1 end
  local era = floor(y / 400)
  local yoe = y - era * 400
  local mp = (m + 9) % 12
  local doy = floor((153 * mp + 2) / 5) + d - 1
  local doe = yoe * 365 + floor(yoe / 4) - floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
end

local function os_time(t)
  if t == nil then return clock.epoch + floor(clock.seconds) end
  if type(t) ~= "table" then error("bad argument #1 to 'time' (table expected)", 2) end
  local function field(k, default)
    local v = t[k]
    if v == nil then
      if default == nil then error("field '" .. k .. "' missing in date table", 3) end
      return default
    end
    return v
  end
  local days = days_from_civil(field("year"), field("month"), field("day"))
  return days * 86400 + field("hour", 12) * 3600 + field("min", 0) * 60 + field("sec", 0)
end

-- os.date always formats in UTC so results do not depend on the host's time zone.
local function os_date(fmt, t)
  fmt = fmt or "%c"
  if fmt:sub(1, 1) ~= "!" then fmt = "!" .. fmt end
  return real_date(fmt, t or os_time())
end

local function random(m, n)
  local r = py.random()
  if m == nil then return r end
  if n == nil then m, n = 1, m end
  m, n = floor(m), floor(n)
  if m > n then error("bad argument to 'random' (interval is empty)", 2) end
  return m + floor(r * (n - m + 1))
end

local function randomseed(x)
  py.randomseed(x)
end

local function lua_print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  py.print(table.concat(parts, "\t"))
end

local MOONSHARP = {
  version = "2.0.0.0", luacompat = "5.2", platform = "limited.unity.dll.mono",
  is_aot = false, is_unity = true, is_mono = true, is_clr4 = false, is_pcl = false,
  banner = "MoonSharp 2.0.0.0 (emulated in lupa Lua 5.2)",
}

--- A fresh global table with only the libraries TTS loads (plus `extra`).
function M.new_env(extra)
  local env = {}
  for _, name in ipairs(BASIC) do env[name] = _G[name] end
  for _, name in ipairs(LIBS) do env[name] = copy(_G[name]) end
  env.string.dump = nil
  env.math.random = random
  env.math.randomseed = randomseed
  env.os = {
    clock = function() return clock.seconds end,
    time = os_time,
    date = os_date,
    difftime = real_difftime,
  }
  env.print = lua_print
  env._VERSION = _VERSION
  env._MOONSHARP = copy(MOONSHARP)
  env._G = env
  if extra then
    for k, v in pairs(extra) do env[k] = v end
  end
  return env
end

--- Compile text (never bytecode) with the given environment: fn or nil, message.
function M.load_chunk(source, chunkname, env)
  return load(source, chunkname, "t", env)
end

--- Call fn(...) catching errors: true, results... or false, message, traceback.
function M.run(fn, ...)
  local tb
  local function handler(e)
    local msg = type(e) == "string" and e or tostring(e)
    tb = traceback(msg, 2)
    return msg
  end
  local res = table.pack(xpcall(fn, handler, ...))
  if res[1] then return table.unpack(res, 1, res.n) end
  return false, res[2], tb
end

return M
