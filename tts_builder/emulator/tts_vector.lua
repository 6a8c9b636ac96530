-- TTS's pure-Lua Vector and Color classes (colon methods; x/y/z and [1]/[2]/[3] keys).
-- Returns { Vector = Vector, Color = Color, vec = vec, rgb = rgb }.
local M = {}

local sqrt, acos, deg, abs = math.sqrt, math.acos, math.deg, math.abs

---------------------------------------------------------------------------- Vector
local Vector = {}
local VMT = {}
local VKEYS = { "x", "y", "z" }

VMT.__index = function(v, k)
  local alias = VKEYS[k]
  if alias then return rawget(v, alias) end
  return Vector[k]
end
VMT.__newindex = function(v, k, value)
  rawset(v, VKEYS[k] or k, value)
end

local function newv(x, y, z)
  return setmetatable({ x = x or 0, y = y or 0, z = z or 0 }, VMT)
end

--- x, y, z from a Vector, {x=,y=,z=} or {1, 2, 3}.
local function vec(t)
  if type(t) ~= "table" then error("a position/rotation table was expected, got " .. type(t), 3) end
  return rawget(t, "x") or t[1] or 0, rawget(t, "y") or t[2] or 0, rawget(t, "z") or t[3] or 0
end
M.vec = vec

function Vector.new(a, y, z)
  if type(a) == "table" then return newv(vec(a)) end
  return newv(a, y, z)
end
setmetatable(Vector, { __call = function(_, ...) return Vector.new(...) end })

function Vector.max(a, b)
  return newv(math.max(a.x, b.x), math.max(a.y, b.y), math.max(a.z, b.z))
end
function Vector.min(a, b)
  return newv(math.min(a.x, b.x), math.min(a.y, b.y), math.min(a.z, b.z))
end
function Vector.between(a, b) return newv(b.x - a.x, b.y - a.y, b.z - a.z) end

function Vector:copy() return newv(self.x, self.y, self.z) end
function Vector:get() return self.x, self.y, self.z end
function Vector:set(x, y, z)
  if type(x) == "table" then x, y, z = vec(x) end
  self.x, self.y, self.z = x or self.x, y or self.y, z or self.z
  return self
end
function Vector:setAt(k, value) self[k] = value; return self end
function Vector:add(o) local x, y, z = vec(o); self.x, self.y, self.z = self.x + x, self.y + y, self.z + z; return self end
function Vector:sub(o) local x, y, z = vec(o); self.x, self.y, self.z = self.x - x, self.y - y, self.z - z; return self end
function Vector:scale(s)
  if type(s) == "table" then
    local x, y, z = vec(s)
    self.x, self.y, self.z = self.x * x, self.y * y, self.z * z
  else
    self.x, self.y, self.z = self.x * s, self.y * s, self.z * s
  end
  return self
end
function Vector:clamp(max)
  local m = self:magnitude()
  if m > max then self:scale(max / m) end
  return self
end
function Vector:dot(o) local x, y, z = vec(o); return self.x * x + self.y * y + self.z * z end
function Vector:sqrMagnitude() return self:dot(self) end
function Vector:magnitude() return sqrt(self:sqrMagnitude()) end
function Vector:sqrDistance(o) local x, y, z = vec(o); return (self.x - x) ^ 2 + (self.y - y) ^ 2 + (self.z - z) ^ 2 end
function Vector:distance(o) return sqrt(self:sqrDistance(o)) end
function Vector:normalize()
  local m = self:magnitude()
  if m > 0 then self:scale(1 / m) end
  return self
end
function Vector:normalized() return self:copy():normalize() end
function Vector:cross(o)
  local x, y, z = vec(o)
  return newv(self.y * z - self.z * y, self.z * x - self.x * z, self.x * y - self.y * x)
end
function Vector:lerp(o, t)
  local x, y, z = vec(o)
  self.x, self.y, self.z = self.x + (x - self.x) * t, self.y + (y - self.y) * t, self.z + (z - self.z) * t
  return self
end
function Vector:angle(o)
  local m = self:magnitude() * Vector.new(o):magnitude()
  if m == 0 then return 0 end
  return deg(acos(math.max(-1, math.min(1, self:dot(o) / m))))
end
function Vector:equals(o, margin)
  margin = margin or 1e-3
  return self:sqrDistance(o) <= margin * margin
end
function Vector:string(prefix) return self:toString(prefix) end
function Vector:toString(prefix)
  local s = string.format("{%g, %g, %g}", self.x, self.y, self.z)
  if prefix then return prefix .. ": " .. s end
  return s
end

VMT.__add = function(a, b) return Vector.new(a):add(b) end
VMT.__sub = function(a, b) return Vector.new(a):sub(b) end
VMT.__mul = function(a, b)
  if type(a) == "number" then return Vector.new(b):scale(a) end
  return Vector.new(a):scale(b)
end
VMT.__div = function(a, b) return Vector.new(a):scale(1 / b) end
VMT.__unm = function(a) return newv(-a.x, -a.y, -a.z) end
VMT.__eq = function(a, b) return Vector.equals(a, b) end
VMT.__tostring = function(v) return v:toString() end

M.Vector = Vector
M.newv = newv

---------------------------------------------------------------------------- Color
local PLAYER_COLORS = {
  White = { 1, 1, 1 }, Brown = { 0.443, 0.231, 0.09 }, Red = { 0.856, 0.1, 0.094 },
  Orange = { 0.956, 0.392, 0.113 }, Yellow = { 0.905, 0.898, 0.172 },
  Green = { 0.192, 0.701, 0.168 }, Teal = { 0.129, 0.694, 0.607 }, Blue = { 0.118, 0.53, 1 },
  Purple = { 0.627, 0.125, 0.941 }, Pink = { 0.96, 0.439, 0.807 }, Grey = { 0.5, 0.5, 0.5 },
  Black = { 0.25, 0.25, 0.25 },
}
M.PLAYER_COLORS = PLAYER_COLORS

local Color = {}
local CMT = {}
local CKEYS = { "r", "g", "b", "a" }
CMT.__index = function(c, k)
  local alias = CKEYS[k]
  if alias then return rawget(c, alias) end
  return Color[k]
end
CMT.__newindex = function(c, k, value) rawset(c, CKEYS[k] or k, value) end

local function newc(r, g, b, a)
  return setmetatable({ r = r or 0, g = g or 0, b = b or 0, a = a or 1 }, CMT)
end

local function from_hex(s)
  s = s:gsub("^#", "")
  local function byte(i) return tonumber(s:sub(i, i + 1), 16) / 255 end
  if #s ~= 6 and #s ~= 8 then error("bad hex colour '" .. s .. "'", 3) end
  return newc(byte(1), byte(3), byte(5), #s == 8 and byte(7) or 1)
end

function Color.new(r, g, b, a)
  if type(r) == "table" then
    return newc(rawget(r, "r") or r[1], rawget(r, "g") or r[2], rawget(r, "b") or r[3], rawget(r, "a") or r[4])
  end
  return newc(r, g, b, a)
end
function Color.fromString(name)
  local c = PLAYER_COLORS[name] or PLAYER_COLORS[(name:sub(1, 1):upper() .. name:sub(2):lower())]
  if c then return newc(c[1], c[2], c[3], 1) end
  return from_hex(name)
end
Color.fromHex = from_hex
setmetatable(Color, {
  __call = function(_, ...) return Color.new(...) end,
  __index = function(_, k)
    local c = PLAYER_COLORS[k]
    if c then return newc(c[1], c[2], c[3], 1) end
    return nil
  end,
})
Color.list = {}
for name in pairs(PLAYER_COLORS) do Color.list[#Color.list + 1] = name end
table.sort(Color.list)

function Color:copy() return newc(self.r, self.g, self.b, self.a) end
function Color:get() return self.r, self.g, self.b, self.a end
function Color:set(r, g, b, a)
  self.r, self.g, self.b, self.a = r or self.r, g or self.g, b or self.b, a or self.a
  return self
end
function Color:setAt(k, v) self[k] = v; return self end
function Color:toHex(alpha)
  local function h(v) return string.format("%02x", math.floor(v * 255 + 0.5)) end
  return h(self.r) .. h(self.g) .. h(self.b) .. (alpha and h(self.a) or "")
end
function Color:toString(margin)
  margin = margin or 0.01
  for name, c in pairs(PLAYER_COLORS) do
    if abs(c[1] - self.r) <= margin and abs(c[2] - self.g) <= margin and abs(c[3] - self.b) <= margin then
      return name
    end
  end
  return nil
end
function Color:equals(o, margin)
  margin = margin or 0.01
  local c = Color.new(o)
  return abs(self.r - c.r) <= margin and abs(self.g - c.g) <= margin and abs(self.b - c.b) <= margin
    and abs(self.a - c.a) <= margin
end
function Color:lerp(o, t)
  local c = Color.new(o)
  return newc(self.r + (c.r - self.r) * t, self.g + (c.g - self.g) * t, self.b + (c.b - self.b) * t,
    self.a + (c.a - self.a) * t)
end
CMT.__eq = function(a, b) return Color.equals(a, b) end
CMT.__tostring = function(c) return string.format("Color(%g, %g, %g, %g)", c.r, c.g, c.b, c.a) end

--- r, g, b of a tint given as Color, {r=,g=,b=}, {1, 0, 0}, a player colour name or hex; nil for nil.
function M.rgb(tint)
  if tint == nil then return nil end
  local c
  if type(tint) == "string" then c = Color.fromString(tint) else c = Color.new(tint) end
  return c.r, c.g, c.b
end

M.Color = Color
return M
