-- An emulated Tabletop Simulator table: objects, events, Wait on a virtual clock, zones,
-- containers, dice, buttons, UI/Notes/Player/Turns and JSON, for scripts run in lupa; strict
-- by default: spawn timing, GUIDs, remainder, merging, resting, seats and iteration order as TTS.
-- Loaded in the unsandboxed runtime with (sandbox module, vector module, json module, py services);
-- returns the World driver used by tts_builder/emulator/table.py.
local sb, vmod, json, py = ...

local FPS = 60
local ROLL_FRAMES = 30      -- a rolled die rests after half a second
local SMOOTH_FRAMES = 30    -- setPositionSmooth arrives after half a second (fast: 15 frames)
local ROTATION_VALUE_FRAMES = 20
local SPAWN_FRAMES = 3      -- strict: a taken or spawned object finishes spawning this much later
local GROUP_FRAMES = 1      -- strict: a deck group() forms is usable this much later
local DROP_FRAMES = 6       -- strict: a dropped object snaps or falls to rest this much later
local DROP_LIFT = 1.0       -- strict: a held object is let go this far above where it rests
local DROP_SLOP = 0.75      -- strict: at most this far off a snap point the player lets go
local OVERLAP_EPS = 0.05    -- strict: footprints must overlap by more than this to touch
local HEIGHT_EPS = 0.005    -- strict: boxes must overlap in height by more than this

local Vector, Color, newv, vec, rgb = vmod.Vector, vmod.Color, vmod.newv, vmod.vec, vmod.rgb
local floor, ceil, abs, max = math.floor, math.ceil, math.abs, math.max
local cos, rad = math.cos, math.rad

-- raise_errors: a handler error aborts the step (Python raises it). strict: the table follows
-- TTS's timing, GUID, remainder, merging, resting, seating and iteration-order rules.
local World = { raise_errors = true, strict = true }

---------------------------------------------------------------------------- state
local frame = 0
local objects = {}          -- every object state ever loose, in creation order
local by_guid = {}          -- live loose objects
local used_guids = {}       -- every GUID seen (loose or contained)
local state_of = setmetatable({}, { __mode = "k" })   -- proxy -> state
local global = { label = "Global", is_global = true, buttons = {}, extra = {} }
local waits, next_wait_id = {}, 0
local deferred = {}
local rolling, moving = {}, {}
local coroutines = {}
local dice_queue = {}
local seated = {}
local notebook, notes = {}, ""
local zones_dirty = false
local aborted = false
local save_turns = {}
local settling = {}         -- strict: object state -> frame at which it comes to rest

--- A small seeded generator (strict iteration order), the same on every run for one seed.
local order_state = 1
local drop_state = 1
function World.seed_order(seed)
  order_state = (tonumber(seed) or 0) % 2147483646 + 1
  drop_state = (order_state * 7 + 3) % 2147483646 + 1
end
local function order_random(n)
  order_state = (order_state * 48271) % 2147483647
  return order_state % n + 1
end
--- A second seeded generator, for where players let go of what they drop (strict): a number
--- in [0, 1).
local function drop_random()
  drop_state = (drop_state * 48271) % 2147483647
  return (drop_state - 1) / 2147483646
end
local function shuffled(list)
  for i = #list, 2, -1 do
    local j = order_random(i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

--- Strict: lists of table objects come in a seeded shuffled order (TTS promises none).
local function any_order(list)
  if World.strict then shuffled(list) end
  return list
end

local SEAT_ORDER = { "White", "Brown", "Red", "Orange", "Yellow", "Green", "Teal", "Blue", "Purple", "Pink" }
local ALL_COLORS = { "White", "Brown", "Red", "Orange", "Yellow", "Green", "Teal", "Blue", "Purple",
  "Pink", "Grey", "Black" }
local IS_COLOR = {}
for _, c in ipairs(ALL_COLORS) do IS_COLOR[c] = true end

---------------------------------------------------------------------------- helpers
local function deep_copy(v)
  if type(v) ~= "table" or state_of[v] or v == global.proxy then return v end
  local c = {}
  for k, x in pairs(v) do c[k] = deep_copy(x) end
  return setmetatable(c, getmetatable(v))
end

local function list_copy(t)
  local c = {}
  for i, v in ipairs(t or {}) do c[i] = v end
  return c
end

--- A method of `owner` that works called as owner.f(x) and as owner:f(x): method(this, x).
local function method_of(owner, method, this)
  return function(...)
    if rawequal((...), owner) then return method(this, select(2, ...)) end
    return method(this, ...)
  end
end

--- Wrap every function of `tbl` so that both tbl.f(x) and tbl:f(x) work.
local function dot_or_colon(tbl)
  for k, f in pairs(tbl) do
    if type(f) == "function" then
      tbl[k] = function(...)
        if rawequal((...), tbl) then return f(select(2, ...)) end
        return f(...)
      end
    end
  end
  return tbl
end

local function report(context, message)
  py.report_error(context .. ": " .. tostring(message))
  if World.raise_errors then aborted = true end
end

--- Call fn(...) as TTS calls a handler: errors are reported, not raised.
local function protected(context, fn, ...)
  if aborted then return false end
  local res = table.pack(sb.run(fn, ...))
  if res[1] then return true, table.unpack(res, 2, res.n) end
  report(context, res[2])
  return false
end

local function fatal(message)
  error("emulator: " .. message, 0)
end

local function label_of(st)
  if st.is_global then return "Global" end
  return st.data.Name .. "(" .. st.guid .. ")"
end

local function live(st)
  return st and not st.destroyed and not st.is_global
end

local function defer(frames, context, fn, ...)
  deferred[#deferred + 1] = { due = frame + frames, context = context, fn = fn, args = table.pack(...) }
end

---------------------------------------------------------------------------- transforms
local function transform(st)
  local t = st.data.Transform
  if not t then
    t = { posX = 0, posY = 1, posZ = 0, rotX = 0, rotY = 0, rotZ = 0, scaleX = 1, scaleY = 1, scaleZ = 1 }
    st.data.Transform = t
  end
  return t
end

local function get_pos(st) local t = transform(st); return t.posX or 0, t.posY or 0, t.posZ or 0 end
local function get_rot(st) local t = transform(st); return t.rotX or 0, t.rotY or 0, t.rotZ or 0 end
local function get_scale(st) local t = transform(st); return t.scaleX or 1, t.scaleY or 1, t.scaleZ or 1 end

local function norm_angle(a)
  a = a % 360
  if a < 0 then a = a + 360 end
  return a
end

--- Strict: the object comes to rest next frame (then it may join a deck, stack or be reported).
local function mark_rest(st)
  if World.strict and not st.is_global then
    settling[st] = frame + 1
    st.load_rest = nil
  end
end

local function set_pos(st, x, y, z)
  local t = transform(st)
  t.posX, t.posY, t.posZ = x, y, z
  zones_dirty = true
  mark_rest(st)
end

local function set_rot(st, x, y, z)
  local t = transform(st)
  t.rotX, t.rotY, t.rotZ = norm_angle(x), norm_angle(y), norm_angle(z)
  mark_rest(st)
end

--- Row y of Unity's Z-X-Y Euler rotation matrix (world y of a local vector = this row dot it).
local function up_row(rx, rz)
  rx, rz = rad(rx), rad(rz)
  return cos(rx) * math.sin(rz), cos(rx) * cos(rz), -math.sin(rx)
end

local function face_down(st)
  local rx, _, rz = get_rot(st)
  return cos(rad(rx)) * cos(rad(rz)) < 0
end

---------------------------------------------------------------------------- object kinds
local TYPES = {
  Card = "Card", CardCustom = "Card", Deck = "Deck", DeckCustom = "Deck", Bag = "Bag",
  Custom_Model_Bag = "Bag", Infinite_Bag = "Infinite", Custom_Model_Infinite_Bag = "Infinite",
  Custom_Dice = "Dice", Custom_Tile = "Tile", Custom_Tile_Stack = "Tile", Custom_Token = "Token",
  Custom_Token_Stack = "Token", Custom_Board = "Board", ScriptingTrigger = "Scripting",
  HandTrigger = "Hand", FogOfWarTrigger = "Fog", RandomizeTrigger = "Randomize",
  LayoutZone = "Layout", Counter = "Counter", Notecard = "Notecard", ["3DText"] = "3D Text",
  Custom_PDF = "Tablet", Tablet = "Tablet", Figurine_Custom = "Figurine", ChipStack = "Chip",
  Digital_Clock = "Clock", Calculator = "Calculator", BlockSquare = "Block",
  BlockRectangle = "Block", BlockTriangle = "Block",
}
local MODEL_TYPES = { [1] = "Figurine", [2] = "Dice", [3] = "Coin", [4] = "Board", [5] = "Chip",
  [6] = "Bag", [7] = "Infinite" }
local ZONE_TYPES = { Scripting = true, Hand = true, Fog = true, Randomize = true, Layout = true }

local function type_of(st)
  local name = st.data.Name or ""
  if TYPES[name] then return TYPES[name] end
  if name:match("^Die_") then return "Dice" end
  if name:match("^Chip_") then return "Chip" end
  if name == "Custom_Model" or name == "Custom_Assetbundle" then
    local mesh = st.data.CustomMesh or st.data.CustomAssetbundle or {}
    return MODEL_TYPES[mesh.TypeIndex] or "Generic"
  end
  return "Generic"
end

local function is_kind(st, kind) return type_of(st) == kind end
local function is_zone(st) return ZONE_TYPES[type_of(st)] == true end
local function is_container(st)
  local k = type_of(st)
  return k == "Deck" or k == "Bag" or k == "Infinite"
end

local D6 = {
  { Value = 1, Rotation = { x = -90, y = 0, z = 0 } }, { Value = 2, Rotation = { x = 0, y = 0, z = 0 } },
  { Value = 3, Rotation = { x = 0, y = 0, z = -90 } }, { Value = 4, Rotation = { x = 0, y = 0, z = 90 } },
  { Value = 5, Rotation = { x = 0, y = 0, z = -180 } }, { Value = 6, Rotation = { x = 90, y = 0, z = 0 } },
}

local function rotation_values(st)
  local rv = st.data.RotationValues
  if rv and #rv > 0 then return rv end
  local name = st.data.Name or ""
  if name == "Die_6" or name == "Die_6_Rounded" then return D6 end
  return nil
end

--- Index of the face pointing up (Unity Z-X-Y Euler angles), or nil.
local function face_up(st)
  local rv = rotation_values(st)
  if not rv then return nil end
  local rx, _, rz = get_rot(st)
  local ax, ay, az = up_row(rx, rz)
  local best, best_score
  for i, face in ipairs(rv) do
    local r = face.Rotation or {}
    local dx, dy, dz = up_row(r.x or 0, r.z or 0)
    local score = ax * dx + ay * dy + az * dz
    if not best_score or score > best_score + 1e-9 then best, best_score = i, score end
  end
  return best
end

local function find_face(st, value)
  local rv = rotation_values(st)
  if not rv then fatal(label_of(st) .. " has no RotationValues") end
  for i, face in ipairs(rv) do
    if tostring(face.Value) == tostring(value) then return i, face end
  end
  fatal(label_of(st) .. " has no face with value " .. tostring(value))
end

local function get_value(st)
  local i = face_up(st)
  if i then return rotation_values(st)[i].Value end
  return st.data.Value or 0
end

---------------------------------------------------------------------------- tags
-- tostring(tag):lower() of every tag seen, remembered (the same few tags are compared over
-- and over by getObjectsWithTag and zones); at most 4096, then forgotten.
local lowered, lowered_count = {}, 0
local function lower(tag)
  local text = tostring(tag)
  local low = lowered[text]
  if low == nil then
    if lowered_count >= 4096 then lowered, lowered_count = {}, 0 end
    low = text:lower()
    lowered[text], lowered_count = low, lowered_count + 1
  end
  return low
end

local function lower_tags(st)
  local set = {}
  for _, tag in ipairs(st.data.Tags or {}) do set[lower(tag)] = true end
  return set
end

local function has_tag(st, tag)
  local want = lower(tag)
  for _, t in ipairs(st.data.Tags or {}) do
    if lower(t) == want then return true end
  end
  return false
end

local function shares_tag(a, b)
  local set = lower_tags(a)
  for _, tag in ipairs(b.data.Tags or {}) do
    if set[lower(tag)] then return true end
  end
  return false
end

local function has_any_tag(st) return #(st.data.Tags or {}) > 0 end

---------------------------------------------------------------------------- events
local function script_states()
  local list = {}
  if global.env then list[1] = global end
  for _, st in ipairs(objects) do
    if live(st) and st.env then list[#list + 1] = st end
  end
  return list
end

--- Call `event` in every script defining it (Global first, then objects in creation order).
local function fire(event, ...)
  for _, st in ipairs(script_states()) do
    if aborted then return end
    local fn = rawget(st.env, event)
    if type(fn) == "function" then protected(label_of(st) .. "." .. event, fn, ...) end
  end
end

--- Call an object-only event in that object's script.
local function fire_object(st, event, ...)
  if st.env and not aborted then
    local fn = rawget(st.env, event)
    if type(fn) == "function" then return protected(label_of(st) .. "." .. event, fn, ...) end
  end
end

---------------------------------------------------------------------------- zones
local function in_box(zone, st)
  local zx, _, zz = get_pos(zone)
  local sx, _, sz = get_scale(zone)
  local x, _, z = get_pos(st)
  return abs(x - zx) <= sx / 2 and abs(z - zz) <= sz / 2
end

local function zone_accepts(zone, st)
  return not has_any_tag(zone) or shares_tag(zone, st)
end

local function zone_contents(zone, ignore_tags)
  local list = {}
  for _, st in ipairs(objects) do
    if live(st) and st ~= zone and not is_zone(st) and in_box(zone, st)
      and (ignore_tags or zone_accepts(zone, st)) then
      list[#list + 1] = st
    end
  end
  return list
end

--- Recompute zone membership; fire onObjectLeaveZone/onObjectEnterZone unless `silent`.
local function update_zones(silent)
  zones_dirty = false
  for _, zone in ipairs(objects) do
    if live(zone) and is_zone(zone) then
      local now = zone_contents(zone, false)
      local now_set = {}
      for _, st in ipairs(now) do now_set[st] = true end
      local before = zone.members or {}
      local before_set = {}
      for _, st in ipairs(before) do before_set[st] = true end
      zone.members = now
      if not silent then
        local scripting = type_of(zone) == "Scripting"
        for _, st in ipairs(before) do
          if not now_set[st] then
            fire("onObjectLeaveZone", zone.proxy, st.proxy)
            if scripting then fire("onObjectLeaveScriptingZone", zone.proxy, st.proxy) end
          end
        end
        for _, st in ipairs(now) do
          if not before_set[st] then
            fire("onObjectEnterZone", zone.proxy, st.proxy)
            if scripting then fire("onObjectEnterScriptingZone", zone.proxy, st.proxy) end
          end
        end
      end
    end
  end
end

---------------------------------------------------------------------------- GUIDs
local function fresh_guid()
  for _ = 1, 10000 do
    local g = py.fresh_guid()
    if not used_guids[g] then
      used_guids[g] = true
      return g
    end
  end
  fatal("no free GUID")
end

local function note_guids(data)
  if type(data) ~= "table" then return end
  if type(data.GUID) == "string" then used_guids[data.GUID] = true end
  for _, child in ipairs(data.ContainedObjects or {}) do note_guids(child) end
  for _, child in ipairs(data.ChildObjects or {}) do note_guids(child) end
end

---------------------------------------------------------------------------- proxies
local METHODS, MEMBERS, SETTERS = {}, {}, {}
local ALLOWED_WHEN_DESTROYED = { isDestroyed = true, getGUID = true }
local OBJ_MT = { __tts_object = true }

OBJ_MT.__index = function(proxy, key)
  local st = state_of[proxy]
  local member = MEMBERS[key]
  if member then return member(st) end
  local method = METHODS[key]
  if method then
    local bound = st.bound[key]
    if not bound then
      bound = function(...)
        if st.destroyed and not ALLOWED_WHEN_DESTROYED[key] then
          error("object " .. label_of(st) .. " has been destroyed (" .. key .. ")", 2)
        end
        if st.forming and not ALLOWED_WHEN_DESTROYED[key] then
          error("the deck group() made is usable only a frame later (" .. key .. ")", 2)
        end
        if rawequal((...), proxy) then return method(st, select(2, ...)) end
        return method(st, ...)
      end
      st.bound[key] = bound
    end
    return bound
  end
  return st.extra[key]
end
OBJ_MT.__newindex = function(proxy, key, value)
  local st = state_of[proxy]
  local setter = SETTERS[key]
  if setter then setter(st, value) else st.extra[key] = value end
end
OBJ_MT.__tostring = function(proxy)
  local st = state_of[proxy]
  return (st.data.Name or "Object") .. " (" .. st.guid .. ")"
end

local function make_ui(owner)
  local ui = {}
  for _, name in ipairs({ "setAttribute", "setAttributes", "getAttribute", "getAttributes",
    "setValue", "getValue", "show", "hide", "setXml", "getXml", "setXmlTable", "getXmlTable",
    "setClass" }) do
    ui[name] = function(...) return py.ui(owner, name, ...) end
  end
  return dot_or_colon(ui)
end

--- A new loose object. With `provisional` (a spawn from data or a clone) a missing or taken GUID
--- is replaced by a fresh one that, on the strict table, is only valid once spawning ends.
local function new_state(data, provisional)
  local guid = data.GUID
  local replaced = type(guid) ~= "string" or guid == "" or by_guid[guid] ~= nil
  if replaced then
    guid = fresh_guid()
    data.GUID = guid
  end
  used_guids[guid] = true
  note_guids(data)
  data.Nickname = data.Nickname or ""
  data.Description = data.Description or ""
  data.GMNotes = data.GMNotes or ""
  local st = { data = data, guid = guid, resting = true, buttons = {}, bound = {}, extra = {} }
  local proxy = setmetatable({}, OBJ_MT)
  state_of[proxy] = st
  st.proxy = proxy
  if World.strict and (provisional == "always" or (provisional and replaced)) then
    st.guid_pending = true -- by_guid knows it once spawning ends
  else
    by_guid[guid] = st
  end
  objects[#objects + 1] = st
  transform(st)
  if type(data.XmlUI) == "string" and data.XmlUI ~= "" then py.ui_load(guid, data.XmlUI) end
  zones_dirty = true
  return st
end

---------------------------------------------------------------------------- scripts
local API = {}

local function make_wait(owner)
  local W = {}
  local function add(w)
    next_wait_id = next_wait_id + 1
    w.id, w.owner, w.created = next_wait_id, owner, frame
    waits[#waits + 1] = w
    return w.id
  end
  local function check_fn(fn, name)
    if type(fn) ~= "function" then error("Wait." .. name .. ": a function was expected", 3) end
  end
  function W.frames(fn, n)
    check_fn(fn, "frames")
    n = max(1, floor(tonumber(n) or 1))
    return add({ kind = "frames", fn = fn, due = frame + n })
  end
  function W.time(fn, seconds, repetitions)
    check_fn(fn, "time")
    local interval = max(1, ceil((tonumber(seconds) or 0) * FPS - 1e-9))
    local reps = floor(tonumber(repetitions) or 1)
    if reps == 0 then reps = 1 end
    return add({ kind = "time", fn = fn, due = frame + interval, interval = interval, reps = reps })
  end
  function W.condition(fn, cond, timeout, timeout_fn)
    check_fn(fn, "condition")
    check_fn(cond, "condition")
    local deadline
    if timeout then deadline = frame + max(1, ceil(timeout * FPS - 1e-9)) end
    return add({ kind = "condition", fn = fn, cond = cond, deadline = deadline, timeout_fn = timeout_fn })
  end
  function W.stop(id)
    for _, w in ipairs(waits) do
      if w.id == id then w.stopped = true end
    end
  end
  function W.stopAll()
    for _, w in ipairs(waits) do
      if w.owner == owner then w.stopped = true end
    end
  end
  return dot_or_colon(W)
end

local raw_pairs = pairs
local KEY_RANK = { number = 1, string = 2, boolean = 3 }

local function key_less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return (KEY_RANK[ta] or 4) < (KEY_RANK[tb] or 4) end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return b and not a end
  return false
end

--- Strict `pairs`: every key once, in a seeded shuffled order (MoonSharp iterates in insertion
--- order, C Lua in hash order: a script whose result depends on the order is wrong in one).
local function shuffled_pairs(t)
  if type(t) ~= "table" then return raw_pairs(t) end
  local mt = getmetatable(t)
  if type(mt) == "table" and rawget(mt, "__pairs") then return raw_pairs(t) end
  local keys, n, kind = {}, 0, nil
  for k in next, t do
    n = n + 1
    keys[n] = k
    local tk = type(k)
    if kind == nil then kind = tk elseif kind ~= tk then kind = false end
  end
  -- C Lua's own hash order differs between runs: start from one order (keys of one type,
  -- numbers or strings, sort the same with the default comparator, only quicker)
  if kind == "string" or kind == "number" then table.sort(keys) else table.sort(keys, key_less) end
  shuffled(keys)
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v = rawget(t, k)
      if v ~= nil then return k, v end
    end
    return nil
  end, t, nil
end

local function new_env(st)
  local env = sb.new_env()
  if World.strict then env.pairs = shuffled_pairs end
  for k, v in pairs(API) do env[k] = v end
  env.self = st.proxy
  env.Wait = make_wait(label_of(st))
  return env
end

--- Create the script environment and run the top level; true unless it failed.
local function start_script(st, source)
  if type(source) ~= "string" or source == "" then return false end
  local env = new_env(st)
  st.env = env
  local fn, message = sb.load_chunk(source, "=" .. label_of(st), env)
  if not fn then
    report(label_of(st), message)
    return false
  end
  return (protected(label_of(st), fn))
end

local function run_on_load(st)
  fire_object(st, "onLoad", st.is_global and (global.script_state or "") or (st.data.LuaScriptState or ""))
end

local function script_state_of(st)
  if st.env and type(rawget(st.env, "onSave")) == "function" then
    local ok, value = protected(label_of(st) .. ".onSave", rawget(st.env, "onSave"))
    if ok then
      if value == nil then return "" end
      return tostring(value)
    end
  end
  return nil
end

--- The object as save data (ObjectState), with its script state from onSave().
local function get_data(st)
  local data = deep_copy(st.data)
  local state = script_state_of(st)
  if state then data.LuaScriptState = state end
  return data
end

--- Spawn a loose object from save data; runs its script and onLoad.
local function spawn(data, provisional)
  local st = new_state(data, provisional)
  if start_script(st, data.LuaScript) then run_on_load(st) end
  return st
end

local function remove_object(st)
  py.ui_unload(st.guid)
  st.destroyed = true
  if by_guid[st.guid] == st then by_guid[st.guid] = nil end
  rolling[st], moving[st], settling[st] = nil, nil, nil
  zones_dirty = true
end

local function destroy(st)
  if st.destroyed then return false end
  fire("onObjectDestroy", st.proxy)
  fire_object(st, "onDestroy")
  remove_object(st)
  return true
end

local function run_callback(st, callback)
  if callback and not st.destroyed then
    protected(label_of(st) .. " callback_function", callback, st.proxy)
  end
end

local come_to_rest -- defined with the resting rules below

local function at_rest(st)
  return live(st) and not st.spawning and not moving[st] and not rolling[st] and not st.held_by_color
end

--- Strict: the object spawns for `frames` (SPAWN_FRAMES; its GUID, if replaced, becomes valid
--- then) and its callback runs when spawning ends (LUA.md §9), where it spawned; then it goes to
--- `travel` {pos, rot, smooth} if given: at once, or smoothly, arriving SMOOTH_FRAMES later. It
--- comes to rest (and may join the card or stack it lands on) a frame after it arrives, after
--- its callback: a callback that counts on the merge sees the object still loose.
local function strict_after_spawn(st, callback, container, travel, frames)
  st.spawning, st.resting = true, false
  defer(frames or SPAWN_FRAMES, "spawn", function()
    st.spawning = false
    st.forming = nil
    if st.guid_pending then
      st.guid_pending = nil
      if not st.destroyed then by_guid[st.guid] = st end
    end
    if container then fire("onObjectLeaveContainer", container.proxy, st.proxy) end
    fire("onObjectSpawn", st.proxy)
    if st.destroyed then return end
    if travel and travel.smooth then
      moving[st] = { pos = travel.pos, rot = travel.rot, due = frame + SMOOTH_FRAMES }
    elseif travel then
      set_pos(st, travel.pos[1], travel.pos[2], travel.pos[3])
      set_rot(st, travel.rot[1], travel.rot[2], travel.rot[3])
      st.resting = true
    else
      st.resting = true
      mark_rest(st)
    end
    run_callback(st, callback)
  end)
end

local function after_spawn(st, callback, container, travel, frames)
  if World.strict then return strict_after_spawn(st, callback, container, travel, frames) end
  defer(1, "spawn callback", function()
    if container then fire("onObjectLeaveContainer", container.proxy, st.proxy) end
    fire("onObjectSpawn", st.proxy)
    run_callback(st, callback)
  end)
end

---------------------------------------------------------------------------- decks and bags
local function card_ids(cards)
  local ids = {}
  for i, c in ipairs(cards) do ids[i] = c.CardID end
  return ids
end

local function merge_custom_deck(target, cards)
  target.CustomDeck = target.CustomDeck or {}
  for _, c in ipairs(cards) do
    for k, v in pairs(c.CustomDeck or {}) do
      if target.CustomDeck[k] == nil then target.CustomDeck[k] = deep_copy(v) end
    end
  end
end

--- Cards of a card or deck as data, top first.
local function cards_of(st)
  if is_kind(st, "Card") then return { get_data(st) } end
  local cards = {}
  for i, c in ipairs(st.data.ContainedObjects or {}) do cards[i] = deep_copy(c) end
  return cards
end

local function new_deck_data(base, cards)
  local t = deep_copy(transform(base))
  local data = {
    GUID = fresh_guid(), Name = "Deck", Transform = t, Nickname = "", Description = "", GMNotes = "",
    Locked = false, HideWhenFaceDown = true, Hands = false, LuaScript = "", LuaScriptState = "",
    XmlUI = "", DeckIDs = card_ids(cards), CustomDeck = {}, ContainedObjects = cards,
  }
  merge_custom_deck(data, cards)
  return data
end

local function container_list(st)
  st.data.ContainedObjects = st.data.ContainedObjects or {}
  return st.data.ContainedObjects
end

local function sync_deck_ids(st)
  if is_kind(st, "Deck") then st.data.DeckIDs = card_ids(container_list(st)) end
end

local function take_object(st, params)
  params = params or {}
  local kind = type_of(st)
  if not is_container(st) then error("takeObject: " .. label_of(st) .. " is not a container", 3) end
  local list = container_list(st)
  if #list == 0 then error("takeObject: " .. label_of(st) .. " is empty", 3) end
  local index
  if params.guid ~= nil then
    for i, d in ipairs(list) do
      if d.GUID == params.guid then index = i end
    end
    if not index then error("takeObject: no object " .. tostring(params.guid) .. " in " .. label_of(st), 3) end
  elseif params.index ~= nil then
    index = floor(params.index) + 1
    if index < 1 or index > #list then error("takeObject: index " .. params.index .. " out of range", 3) end
  elseif params.top == false then
    index = #list
  else
    index = 1
  end
  local data
  if kind == "Infinite" then
    data = deep_copy(list[index])
    data.GUID = fresh_guid()
  else
    data = table.remove(list, index)
    sync_deck_ids(st)
  end
  local x, y, z = get_pos(st)
  local cx, cy, cz = x, y, z
  if params.position then
    x, y, z = vec(params.position)
  elseif World.strict then
    x = x + 2 -- TTS: beside the container, 2 units along x (GEOMETRY.md §4)
  else
    y = y + 2
  end
  local rx, ry, rz = get_rot(st)
  local crx, cry, crz = rx, ry, rz
  if params.rotation then rx, ry, rz = vec(params.rotation) end
  if params.flip then rz = rz + 180 end
  data.Transform = data.Transform or {}
  local t = data.Transform
  local travel
  if World.strict then
    -- it spawns at the container and travels to where it was sent
    travel = { pos = { x, y, z }, rot = { norm_angle(rx), norm_angle(ry), norm_angle(rz) },
      smooth = params.smooth ~= false }
    x, y, z, rx, ry, rz = cx, cy, cz, crx, cry, crz
  end
  t.posX, t.posY, t.posZ = x, y, z
  t.rotX, t.rotY, t.rotZ = norm_angle(rx), norm_angle(ry), norm_angle(rz)
  if kind == "Deck" and not data.CustomDeck and data.CardID and st.data.CustomDeck then
    local key = tostring(floor(data.CardID / 100))
    if st.data.CustomDeck[key] then data.CustomDeck = { [key] = deep_copy(st.data.CustomDeck[key]) } end
  end
  local taken = spawn(data, kind == "Infinite" and "always")
  after_spawn(taken, params.callback_function, st, travel)
  if kind == "Deck" and #list == 1 then
    local rest = table.remove(list, 1)
    rest.Transform = deep_copy(transform(st))
    if not rest.CustomDeck and rest.CardID and st.data.CustomDeck then
      local key = tostring(floor(rest.CardID / 100))
      rest.CustomDeck = { [key] = deep_copy(st.data.CustomDeck[key]) }
    end
    destroy(st)
    local remainder = spawn(rest)
    st.remainder = remainder.proxy
    after_spawn(remainder)
  end
  return taken.proxy
end

local function put_object(st, proxy, frames)
  local o = state_of[proxy]
  if not live(o) then error("putObject: expected a live object", 3) end
  if o == st then error("putObject: an object cannot go into itself", 3) end
  local kind, okind = type_of(st), type_of(o)
  local result = st
  if kind == "Deck" then
    if okind ~= "Card" and okind ~= "Deck" then error("putObject: only cards and decks go into a deck", 3) end
    local list = container_list(st)
    local cards = cards_of(o)
    for i = #cards, 1, -1 do table.insert(list, 1, cards[i]) end
    merge_custom_deck(st.data, cards)
    sync_deck_ids(st)
  elseif kind == "Bag" then
    table.insert(container_list(st), 1, get_data(o))
  elseif kind == "Infinite" then
    -- an infinite bag swallows the object
  elseif kind == "Card" and (okind == "Card" or okind == "Deck") then
    local cards = cards_of(o)
    local base = cards_of(st)
    for _, c in ipairs(base) do cards[#cards + 1] = c end
    local deck = new_deck_data(st, cards)
    remove_object(st)
    result = spawn(deck)
    after_spawn(result, nil, nil, nil, frames)
  else
    error("putObject: " .. label_of(st) .. " is not a container", 3)
  end
  remove_object(o)
  fire("onObjectEnterContainer", result.proxy, o.proxy)
  return result.proxy
end

local function shuffle_container(st)
  if type_of(st) ~= "Deck" and type_of(st) ~= "Bag" then return false end
  local list = container_list(st)
  local guids = {}
  for i, d in ipairs(list) do guids[i] = d.GUID end
  local order = py.shuffle(st.guid, guids)
  local by = {}
  for _, d in ipairs(list) do
    by[d.GUID] = by[d.GUID] or {}
    table.insert(by[d.GUID], d)
  end
  local shuffled = {}
  for i, g in ipairs(order) do shuffled[i] = table.remove(by[g], 1) end
  st.data.ContainedObjects = shuffled
  sync_deck_ids(st)
  return true
end

---------------------------------------------------------------------------- coming to rest (strict)
--- The object's body at scale 1 from the geometry model (bodies.py), or nil when unknown; a
--- body without w/d has a height but no established footprint.
local function body(st)
  if st.body == nil then
    local w, d, h, centred = py.body(st.data.Name or "", st.data.CustomImage)
    st.body = h and { w = w, d = d, h = h, centred = centred == true } or false
  end
  return st.body or nil
end

--- Its box in the world: centre, half extents along its local x/z, angle, bottom and top.
local function box(st)
  local b = body(st)
  if not b then return nil end
  local x, y, z = get_pos(st)
  local sx, sy, sz = get_scale(st)
  local _, ry = get_rot(st)
  local count = 1
  if is_kind(st, "Deck") then count = max(1, #(st.data.ContainedObjects or {})) end
  if st.data.Number then count = max(1, st.data.Number) end
  local height = b.h * abs(sy) * count
  local bottom = b.centred and y - height / 2 or y
  return { x = x, z = z, hw = b.w and b.w * abs(sx) / 2, hd = b.d and b.d * abs(sz) / 2,
    a = rad(ry), bottom = bottom, top = bottom + height }
end

--- How deep two footprints (rotated rectangles) overlap: the least overlap over the four axes.
local function footprint_overlap(p, q)
  if not (p.hw or q.hw) then -- no footprint established: only the same spot counts
    local d = max(abs(p.x - q.x), abs(p.z - q.z))
    return d < World.same_spot and 1 or -1
  end
  if not (p.hw and q.hw) then -- one footprint: does it hold the other's centre?
    local r, c = p, q
    if not r.hw then r, c = q, p end
    local dx, dz = c.x - r.x, c.z - r.z
    local lx = dx * cos(r.a) - dz * math.sin(r.a)
    local lz = dx * math.sin(r.a) + dz * cos(r.a)
    return math.min(r.hw - abs(lx), r.hd - abs(lz))
  end
  local dx0, dz0 = q.x - p.x, q.z - p.z
  local reach = math.sqrt(p.hw * p.hw + p.hd * p.hd) + math.sqrt(q.hw * q.hw + q.hd * q.hd)
  if dx0 * dx0 + dz0 * dz0 > reach * reach then return -1 end -- apart: no axis overlaps
  local function axes(b) return { { cos(b.a), -math.sin(b.a) }, { math.sin(b.a), cos(b.a) } } end
  local pa, qa = axes(p), axes(q)
  local function radius(b, ax, n)
    return b.hw * abs(ax[1][1] * n[1] + ax[1][2] * n[2]) + b.hd * abs(ax[2][1] * n[1] + ax[2][2] * n[2])
  end
  local dx, dz = q.x - p.x, q.z - p.z
  local least = math.huge
  for _, n in ipairs({ pa[1], pa[2], qa[1], qa[2] }) do
    local depth = radius(p, pa, n) + radius(q, qa, n) - abs(dx * n[1] + dz * n[2])
    if depth < least then least = depth end
  end
  return least
end

local function describe(st)
  local name = st.data.Nickname or ""
  return label_of(st) .. (name ~= "" and (" '" .. name .. "'") or "")
end

local function stackable(st)
  local image = st.data.CustomImage or {}
  local extra = image.CustomToken or image.CustomTile or {}
  return extra.Stackable == true and (is_kind(st, "Token") or is_kind(st, "Tile"))
end

local function base_name(st) return ((st.data.Name or ""):gsub("_Stack$", "")) end

local function same_piece(a, b)
  return base_name(a) == base_name(b) and stackable(b)
    and (a.data.CustomImage or {}).ImageURL == (b.data.CustomImage or {}).ImageURL
    and (a.data.Nickname or "") == (b.data.Nickname or "")
end

--- The highest resting object under `st` (overlapping its footprint, not above it) that `fits`.
local function landing_on(st, fits)
  local me = box(st)
  local best, best_top
  for _, o in ipairs(objects) do
    if o ~= st and at_rest(o) and fits(o) then
      local other = box(o)
      local near
      if me and other then
        near = footprint_overlap(me, other) > OVERLAP_EPS and me.bottom >= other.bottom - HEIGHT_EPS
      else -- no height known: only the same spot counts
        local x, y, z = get_pos(st)
        local ox, oy, oz = get_pos(o)
        near = max(abs(x - ox), abs(z - oz)) < World.same_spot and y >= oy - HEIGHT_EPS
      end
      local top = other and other.top or select(2, get_pos(o))
      if near and (not best_top or top > best_top) then best, best_top = o, top end
    end
  end
  return best
end

local reported = {}

local function report_interpenetration(st)
  local me = box(st)
  if not me then return end
  for _, o in ipairs(objects) do
    if o ~= st and at_rest(o) then
      local other = box(o)
      if other and math.min(me.top, other.top) - max(me.bottom, other.bottom) > HEIGHT_EPS
        and footprint_overlap(me, other) > OVERLAP_EPS then
        local a, b = st.guid, o.guid
        if b < a then a, b = b, a end
        if not reported[a .. b] then
          reported[a .. b] = true
          py.violation("interpenetrating at rest: " .. describe(st) .. " and " .. describe(o)
            .. " (frame " .. frame .. ")")
        end
      end
    end
  end
end

--- Strict: `st` comes to rest. An unlocked card or deck on a card or deck joins it; an unlocked
--- stackable piece on an identical one stacks with it; anything else interpenetrating is reported.
function come_to_rest(st)
  local first = st.load_rest
  st.load_rest = nil
  if st.data.Locked ~= true and not first then
    if is_kind(st, "Card") or is_kind(st, "Deck") then
      local target = landing_on(st, function(o) return is_kind(o, "Card") or is_kind(o, "Deck") end)
      if target then
        put_object(target, st.proxy)
        return
      end
    elseif stackable(st) then
      local target = landing_on(st, function(o) return same_piece(st, o) end)
      if target then
        target.data.Number = (target.data.Number or 1) + (st.data.Number or 1)
        target.data.Name = base_name(target) .. "_Stack"
        target.body = nil
        fire("onObjectEnterContainer", target.proxy, st.proxy)
        remove_object(st)
        return
      end
    end
  end
  report_interpenetration(st)
end

local function process_settling()
  if not next(settling) then return end
  local due = {}
  for _, st in ipairs(objects) do
    local f = settling[st]
    if f and frame >= f then
      settling[st] = nil
      due[#due + 1] = st
    end
  end
  for _, st in ipairs(due) do
    if at_rest(st) and not aborted then
      st.resting = true
      come_to_rest(st)
    end
  end
end

---------------------------------------------------------------------------- dice
local roll_count = 0
local function roll(st, frames)
  roll_count = roll_count + 1
  st.roll_seq = roll_count
  st.resting = false
  st.rest_due = frame + (frames or ROLL_FRAMES)
  rolling[st] = true
end

---------------------------------------------------------------------------- object members
--- Strict: a replaced GUID is assigned once spawning ends; reading it earlier is an error.
local function checked_guid(st)
  if st.guid_pending then
    error(label_of(st) .. " is still spawning: its GUID is only assigned once `spawning` is false"
      .. " (read it in callback_function)", 3)
  end
  return st.guid
end
MEMBERS.guid = function(st) return checked_guid(st) end
MEMBERS.type = function(st) return type_of(st) end
MEMBERS.tag = MEMBERS.type
MEMBERS.name = function(st) return st.data.Name end
MEMBERS.is_face_down = face_down
MEMBERS.resting = function(st) return st.resting end
MEMBERS.locked = function(st) return st.data.Locked == true end
MEMBERS.held_by_color = function(st) return st.held_by_color end
MEMBERS.value = get_value
MEMBERS.memo = function(st) return st.data.Memo end
MEMBERS.script_state = function(st) return st.data.LuaScriptState or "" end
MEMBERS.script_code = function(st) return st.data.LuaScript or "" end
MEMBERS.spawning = function(st) return st.spawning == true end
MEMBERS.loading_custom = function() return false end
MEMBERS.interactable = function(st) return st.extra.interactable ~= false end
MEMBERS.remainder = function(st) return st.remainder end
MEMBERS.UI = function(st)
  st.ui = st.ui or make_ui(st.guid)
  return st.ui
end

SETTERS.locked = function(st, v) st.data.Locked = v == true end
SETTERS.memo = function(st, v) st.data.Memo = v end
SETTERS.script_state = function(st, v) st.data.LuaScriptState = tostring(v) end
SETTERS.value = function(st, v) st.data.Value = v end
SETTERS.interactable = function(st, v) st.extra.interactable = v end
for _, readonly in ipairs({ "guid", "type", "tag", "name", "is_face_down", "resting", "held_by_color",
  "spawning", "remainder", "UI", "script_code", "loading_custom" }) do
  SETTERS[readonly] = function() error("member '" .. readonly .. "' is read-only", 3) end
end

---------------------------------------------------------------------------- object methods
local M = METHODS

function M.getGUID(st) return checked_guid(st) end
function M.isDestroyed(st) return st.destroyed == true end
function M.getName(st) return st.data.Nickname or "" end
function M.setName(st, v) st.data.Nickname = tostring(v); return true end
function M.getDescription(st) return st.data.Description or "" end
function M.setDescription(st, v) st.data.Description = tostring(v); return true end
function M.getGMNotes(st) return st.data.GMNotes or "" end
function M.setGMNotes(st, v) st.data.GMNotes = tostring(v); return true end
function M.getMemo(st) return st.data.Memo end
function M.setMemo(st, v) st.data.Memo = v; return true end
function M.getLuaScript(st) return st.data.LuaScript or "" end
function M.setLuaScript(st, v) st.data.LuaScript = v; return true end

function M.getPosition(st) return newv(get_pos(st)) end
function M.getRotation(st) return newv(get_rot(st)) end
function M.getScale(st) return newv(get_scale(st)) end
function M.setPosition(st, v)
  local x, y, z = vec(v)
  moving[st] = nil
  set_pos(st, x, y, z)
  return true
end
function M.setRotation(st, v)
  set_rot(st, vec(v))
  return true
end
function M.setScale(st, v)
  local t = transform(st)
  t.scaleX, t.scaleY, t.scaleZ = vec(v)
  zones_dirty = true
  return true
end
-- translate and rotate: the object's position or rotation (get, set) moved by the vector v
local function shift(get, set, st, v)
  local x, y, z = vec(v)
  local a, b, c = get(st)
  set(st, a + x, b + y, c + z)
  return true
end
function M.translate(st, v) return shift(get_pos, set_pos, st, v) end
function M.rotate(st, v) return shift(get_rot, set_rot, st, v) end
local function smooth(st, pos, rot, fast)
  local m = moving[st] or {}
  if pos then m.pos = { vec(pos) } end
  if rot then m.rot = { vec(rot) } end
  m.due = frame + (fast and floor(SMOOTH_FRAMES / 2) or SMOOTH_FRAMES)
  moving[st] = m
  st.resting = false
  return true
end
function M.setPositionSmooth(st, v, _, fast) return smooth(st, v, nil, fast) end
function M.setRotationSmooth(st, v, _, fast) return smooth(st, nil, v, fast) end
function M.isSmoothMoving(st) return moving[st] ~= nil or st.spawning == true end

--- Unity's rotation matrix (Z, then X, then Y) for Euler angles in degrees.
local function rotation_matrix(st)
  local rx, ry, rz = get_rot(st)
  local cx, sx = cos(rad(rx)), math.sin(rad(rx))
  local cy, sy = cos(rad(ry)), math.sin(rad(ry))
  local cz, sz = cos(rad(rz)), math.sin(rad(rz))
  return {
    { cy * cz + sy * sx * sz, -cy * sz + sy * sx * cz, sy * cx },
    { cx * sz, cx * cz, -sx },
    { -sy * cz + cy * sx * sz, sy * sz + cy * sx * cz, cy * cx },
  }
end
function M.positionToWorld(st, v)
  local x, y, z = vec(v)
  local kx, ky, kz = get_scale(st)
  x, y, z = x * kx, y * ky, z * kz
  local m = rotation_matrix(st)
  local px, py_, pz = get_pos(st)
  return newv(px + m[1][1] * x + m[1][2] * y + m[1][3] * z, py_ + m[2][1] * x + m[2][2] * y + m[2][3] * z,
    pz + m[3][1] * x + m[3][2] * y + m[3][3] * z)
end
function M.positionToLocal(st, v)
  local x, y, z = vec(v)
  local px, py_, pz = get_pos(st)
  x, y, z = x - px, y - py_, z - pz
  local m = rotation_matrix(st)
  local kx, ky, kz = get_scale(st)
  return newv((m[1][1] * x + m[2][1] * y + m[3][1] * z) / kx, (m[1][2] * x + m[2][2] * y + m[3][2] * z) / ky,
    (m[1][3] * x + m[2][3] * y + m[3][3] * z) / kz)
end
function M.getStateId(st)
  if type(st.data.States) == "table" and next(st.data.States) then return st.data.StateId or 1 end
  return -1
end
function M.getStates() return {} end
function M.flip(st)
  local rx, ry, rz = get_rot(st)
  set_rot(st, rx, ry, rz + 180)
  return true
end
function M.getColorTint(st)
  local c = st.data.ColorDiffuse or {}
  return Color.new(c.r or 1, c.g or 1, c.b or 1, c.a or 1)
end
function M.setColorTint(st, c)
  local r, g, b = rgb(c)
  st.data.ColorDiffuse = { r = r, g = g, b = b }
  return true
end

function M.getTags(st) return list_copy(st.data.Tags) end
function M.setTags(st, tags)
  st.data.Tags = list_copy(tags)
  zones_dirty = true
  return true
end
function M.addTag(st, tag)
  if has_tag(st, tag) then return false end
  st.data.Tags = st.data.Tags or {}
  table.insert(st.data.Tags, tag)
  zones_dirty = true
  return true
end
function M.removeTag(st, tag)
  local tags = st.data.Tags or {}
  for i, t in ipairs(tags) do
    if tostring(t):lower() == tostring(tag):lower() then
      table.remove(tags, i)
      zones_dirty = true
      return true
    end
  end
  return false
end
function M.hasTag(st, tag) return has_tag(st, tag) end
function M.hasAnyTag(st) return has_any_tag(st) end
function M.hasMatchingTag(st, other)
  local o = state_of[other]
  if not o then error("hasMatchingTag: an object was expected", 3) end
  return shares_tag(st, o)
end

function M.setLock(st, v) st.data.Locked = v == true; return true end
function M.getLock(st) return st.data.Locked == true end
function M.highlightOn(st, color, duration)
  st.highlight = { rgb(color) }
  if duration then defer(max(1, ceil(duration * FPS)), "highlight", function() st.highlight = nil end) end
  return true
end
function M.highlightOff(st) st.highlight = nil; return true end
function M.destruct(st) return destroy(st) end

function M.getQuantity(st)
  if is_container(st) then return #container_list(st) end
  if st.data.Number then return st.data.Number end
  return -1
end

function M.getObjects(st, ignore_tags)
  if is_zone(st) then
    local list = {}
    for i, o in ipairs(zone_contents(st, ignore_tags == true)) do list[i] = o.proxy end
    return any_order(list)
  end
  if not is_container(st) then return {} end
  local list = {}
  for i, d in ipairs(container_list(st)) do
    list[i] = {
      index = i - 1, guid = d.GUID, name = d.Nickname or "", nickname = d.Nickname or "",
      description = d.Description or "", gm_notes = d.GMNotes or "", tags = list_copy(d.Tags),
      lua_script = d.LuaScript or "", lua_script_state = d.LuaScriptState or "", memo = d.Memo,
    }
  end
  return list
end

function M.takeObject(st, params) return take_object(st, params) end
function M.putObject(st, obj) return put_object(st, obj) end
function M.shuffle(st) return shuffle_container(st) end
function M.reset(st) return false end

function M.roll(st)
  if is_kind(st, "Dice") or is_kind(st, "Coin") then roll(st) end
  return true
end
function M.randomize(st, color)
  if is_kind(st, "Deck") or is_kind(st, "Bag") then
    shuffle_container(st)
  else
    roll(st)
  end
  if color then
    fire("onObjectRandomize", st.proxy, color)
    fire_object(st, "onRandomize", color)
  end
  return true
end
function M.getRotationValue(st)
  local i = face_up(st)
  if i then return rotation_values(st)[i].Value end
  return nil
end
function M.setRotationValue(st, value)
  local _, face = find_face(st, value)
  local r = face.Rotation or {}
  st.pending_rotation = { r.x or 0, r.y or 0, r.z or 0 }
  roll(st, ROTATION_VALUE_FRAMES)
  return true
end
function M.getRotationValues(st)
  local out = {}
  for i, face in ipairs(rotation_values(st) or {}) do
    out[i] = { value = face.Value, rotation = newv(vec(face.Rotation or {})) }
  end
  return out
end
function M.setRotationValues(st, values)
  local rv = {}
  for i, v in ipairs(values) do
    local x, y, z = vec(v.rotation or {})
    rv[i] = { Value = v.value, Rotation = { x = x, y = y, z = z } }
  end
  st.data.RotationValues = rv
  return true
end
function M.getValue(st) return get_value(st) end
function M.setValue(st, value)
  if rotation_values(st) then return M.setRotationValue(st, value) end
  st.data.Value = value
  return true
end

function M.getData(st) return get_data(st) end
function M.getJSON(st) return json.encode(get_data(st)) end
function M.clone(st, params)
  params = params or {}
  local data = get_data(st)
  data.GUID = nil
  if params.position then
    local x, y, z = vec(params.position)
    data.Transform.posX, data.Transform.posY, data.Transform.posZ = x, y, z
  end
  local c = spawn(data, true)
  after_spawn(c)
  return c.proxy
end

-- Buttons
local BUTTON_DEFAULTS = { click_function = "", label = "", position = { 0, 0, 0 }, rotation = { 0, 0, 0 },
  scale = { 1, 1, 1 }, width = 100, height = 100, font_size = 100, tooltip = "" }
function M.createButton(st, params)
  local b = {}
  for k, v in pairs(BUTTON_DEFAULTS) do b[k] = deep_copy(v) end
  for k, v in pairs(params or {}) do b[k] = v end
  st.buttons[#st.buttons + 1] = b
  return true
end
function M.editButton(st, params)
  local b = st.buttons[(params.index or 0) + 1]
  if not b then error("editButton: no button with index " .. tostring(params.index), 3) end
  for k, v in pairs(params) do
    if k ~= "index" then b[k] = v end
  end
  return true
end
function M.removeButton(st, index)
  if not st.buttons[index + 1] then return false end
  table.remove(st.buttons, index + 1)
  return true
end
function M.clearButtons(st) st.buttons = {}; return true end
function M.getButtons(st)
  if #st.buttons == 0 then return nil end
  local out = {}
  for i, b in ipairs(st.buttons) do
    out[i] = deep_copy(b)
    out[i].index = i - 1
  end
  return out
end
function M.setCustomObject(st, params) st.extra.custom_object = params; return true end
function M.getCustomObject(st) return st.extra.custom_object or {} end
function M.addForce() return true end
function M.addTorque() return true end

-- Cross-script access (shared with Global)
local function env_of(st)
  if not st.env then error(label_of(st) .. " has no script", 4) end
  return st.env
end
function M.call(st, name, params)
  local fn = rawget(env_of(st), name)
  if type(fn) ~= "function" then error("call: no function '" .. tostring(name) .. "' in " .. label_of(st), 3) end
  return deep_copy(fn(deep_copy(params)))
end
function M.getVar(st, name) return rawget(env_of(st), name) end
function M.setVar(st, name, value) rawset(env_of(st), name, value); return true end
function M.getTable(st, name) return deep_copy(rawget(env_of(st), name)) end
function M.setTable(st, name, value) rawset(env_of(st), name, deep_copy(value)); return true end

---------------------------------------------------------------------------- Global object
local GLOBAL_METHODS = {
  call = M.call, getVar = M.getVar, setVar = M.setVar, getTable = M.getTable, setTable = M.setTable,
  getGUID = function() return "-1" end,
  getVectorLines = function(st) return deep_copy(st.extra.vector_lines or {}) end,
  setVectorLines = function(st, lines) st.extra.vector_lines = deep_copy(lines); return true end,
  getSnapPoints = function(st) return deep_copy(st.extra.snap_points or {}) end,
  setSnapPoints = function(st, points) st.extra.snap_points = deep_copy(points); return true end,
}
local global_ui = make_ui("Global")
global.proxy = setmetatable({}, {
  __tts_object = true,
  __index = function(proxy, key)
    if key == "UI" then return global_ui end
    if key == "guid" then return "-1" end
    if key == "script_state" then return global.script_state or "" end
    local method = GLOBAL_METHODS[key]
    if method then return method_of(proxy, method, global) end
    return nil
  end,
  __newindex = function(_, key, value) global.extra[key] = value end,
  __tostring = function() return "Global" end,
})

---------------------------------------------------------------------------- players and turns
local players = {}
local PLAYER_METHODS = {}

local function seat_index(color)
  for i, c in ipairs(seated) do
    if c == color then return i end
  end
  return nil
end

local function player(color)
  if not IS_COLOR[color] then return nil end
  if players[color] then return players[color] end
  local p = {}
  setmetatable(p, {
    __index = function(_, key)
      if key == "color" then return color end
      if key == "seated" then return seat_index(color) ~= nil end
      if key == "steam_name" then return seat_index(color) and color or nil end
      if key == "steam_id" then
        local i = seat_index(color)
        return i and string.format("7656119800000%04d", i) or nil
      end
      if key == "host" or key == "admin" then return seat_index(color) == 1 end
      if key == "promoted" or key == "blindfolded" then return false end
      if key == "team" then return "None" end
      if key == "lift_height" then return 0.05 end
      local method = PLAYER_METHODS[key]
      if method then return method_of(p, method, color) end
      return nil
    end,
    __tostring = function() return "Player " .. color end,
  })
  players[color] = p
  return p
end

function PLAYER_METHODS.getHandObjects(color, hand_index)
  hand_index = hand_index or 1
  local n = 0
  for _, st in ipairs(objects) do
    if live(st) and type_of(st) == "Hand" and st.data.FogColor == color then
      n = n + 1
      if n == hand_index then
        local list = {}
        for i, o in ipairs(zone_contents(st, true)) do list[i] = o.proxy end
        return list
      end
    end
  end
  return {}
end
function PLAYER_METHODS.getHandCount(color)
  local n = 0
  for _, st in ipairs(objects) do
    if live(st) and type_of(st) == "Hand" and st.data.FogColor == color then n = n + 1 end
  end
  return n
end
function PLAYER_METHODS.broadcast(color, msg, tint) py.broadcast("broadcast", tostring(msg), color, rgb(tint)) end
function PLAYER_METHODS.print(color, msg, tint) py.broadcast("print", tostring(msg), color, rgb(tint)) end
function PLAYER_METHODS.getHoverObject() return nil end
function PLAYER_METHODS.getSelectedObjects() return {} end
function PLAYER_METHODS.getPointerPosition() return newv(0, 1, 0) end

local Player = dot_or_colon({
  getPlayers = function()
    local list = {}
    for i, c in ipairs(seated) do list[i] = player(c) end
    return list
  end,
  getSpectators = function() return {} end,
  getColors = function() return list_copy(ALL_COLORS) end,
  getAvailableColors = function()
    local list = {}
    for _, c in ipairs(SEAT_ORDER) do
      if not seat_index(c) then list[#list + 1] = c end
    end
    return list
  end,
})
setmetatable(Player, { __index = function(_, color) return player(color) end })

local turns = { enable = false, type = 1, order = {}, reverse_order = false, skip_empty_hands = false,
  disable_interactations = false, pass_turns = true, turn_color = "" }

local function turn_order()
  if turns.type == 2 and #turns.order > 0 then return list_copy(turns.order) end
  local list = {}
  for _, c in ipairs(SEAT_ORDER) do
    if seat_index(c) then list[#list + 1] = c end
  end
  return list
end

local function neighbour(step)
  local order = turn_order()
  if #order == 0 then return "" end
  if turns.reverse_order then step = -step end
  for i, c in ipairs(order) do
    if c == turns.turn_color then return order[(i - 1 + step) % #order + 1] end
  end
  return order[1]
end

local function set_turn(color)
  local previous = turns.turn_color
  turns.turn_color = color
  if turns.enable and color ~= previous then
    defer(1, "turn", function()
      fire("onPlayerTurn", player(color), previous ~= "" and player(previous) or nil)
    end)
  end
end

local Turns = setmetatable({}, {
  __index = function(_, key)
    if key == "endTurn" then
      return function()
        if turns.enable then set_turn(neighbour(1)) end
        return true
      end
    end
    if key == "getNextTurnColor" then return function() return neighbour(1) end end
    if key == "getPreviousTurnColor" then return function() return neighbour(-1) end end
    if key == "getTurnOrder" then return function() return turn_order() end end
    if key == "order" then return list_copy(turns.order) end
    return turns[key]
  end,
  __newindex = function(_, key, value)
    if key == "turn_color" then
      set_turn(value)
    elseif key == "enable" then
      turns.enable = value == true
      if turns.enable and turns.turn_color == "" then
        local first = turn_order()[1]
        if first then set_turn(first) end
      end
    elseif key == "order" then
      turns.order = list_copy(value)
    else
      turns[key] = value
    end
  end,
})

---------------------------------------------------------------------------- Notes
local Notes = dot_or_colon({
  addNotebookTab = function(p)
    p = p or {}
    notebook[#notebook + 1] = { title = tostring(p.title or ""), body = tostring(p.body or ""),
      color = p.color or "Grey" }
    return #notebook - 1
  end,
  editNotebookTab = function(p)
    local tab = p and p.index and notebook[p.index + 1]
    if not tab then return false end
    if p.title ~= nil then tab.title = tostring(p.title) end
    if p.body ~= nil then tab.body = tostring(p.body) end
    if p.color ~= nil then tab.color = p.color end
    return true
  end,
  getNotebookTabs = function()
    local out = {}
    for i, tab in ipairs(notebook) do
      out[i] = { index = i - 1, title = tab.title, body = tab.body, color = tab.color }
    end
    return out
  end,
  removeNotebookTab = function(index)
    if not notebook[index + 1] then return false end
    table.remove(notebook, index + 1)
    return true
  end,
  setNotes = function(text) notes = tostring(text); return true end,
  getNotes = function() return notes end,
})

---------------------------------------------------------------------------- global functions
local function live_proxies(filter)
  local list = {}
  for _, st in ipairs(objects) do
    if live(st) and (not filter or filter(st)) then list[#list + 1] = st.proxy end
  end
  return any_order(list)
end

local function format_log(v, indent)
  indent = indent or ""
  if type(v) ~= "table" or state_of[v] then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local lines = { "{" }
  for _, k in ipairs(keys) do
    lines[#lines + 1] = indent .. "  " .. tostring(k) .. ": " .. format_log(v[k], indent .. "  ")
  end
  lines[#lines + 1] = indent .. "}"
  return table.concat(lines, "\n")
end

local function spawn_with(data, params)
  local t = data.Transform or {}
  data.Transform = t
  if params.position then t.posX, t.posY, t.posZ = vec(params.position) end
  if params.rotation then t.rotX, t.rotY, t.rotZ = vec(params.rotation) end
  if params.scale then
    if type(params.scale) == "number" then
      t.scaleX, t.scaleY, t.scaleZ = params.scale, params.scale, params.scale
    else
      t.scaleX, t.scaleY, t.scaleZ = vec(params.scale)
    end
  end
  local st = spawn(data, true)
  after_spawn(st, params.callback_function)
  return st.proxy
end

API.getObjectFromGUID = function(guid)
  local st = by_guid[guid]
  return st and st.proxy or nil
end
API.getObjects = function() return live_proxies() end
API.getAllObjects = API.getObjects
API.getObjectsWithTag = function(tag) return live_proxies(function(st) return has_tag(st, tag) end) end
API.getObjectsWithAnyTags = function(tags)
  return live_proxies(function(st)
    for _, tag in ipairs(tags) do
      if has_tag(st, tag) then return true end
    end
    return false
  end)
end
API.getObjectsWithAllTags = function(tags)
  return live_proxies(function(st)
    for _, tag in ipairs(tags) do
      if not has_tag(st, tag) then return false end
    end
    return true
  end)
end
API.getSeatedPlayers = function() return list_copy(seated) end
API.broadcastToAll = function(msg, tint) py.broadcast("broadcast", tostring(msg), nil, rgb(tint)) end
API.broadcastToColor = function(msg, color, tint) py.broadcast("broadcast", tostring(msg), color, rgb(tint)) end
API.printToAll = function(msg, tint) py.broadcast("print", tostring(msg), nil, rgb(tint)) end
API.printToColor = function(msg, color, tint) py.broadcast("print", tostring(msg), color, rgb(tint)) end
API.log = function(value, label)
  local text = format_log(value)
  if label ~= nil then text = tostring(label) .. " " .. text end
  py.log(text)
end
API.logStyle = function() end
API.sendExternalMessage = function(t) py.log("external message " .. json.encode(t)) end
API.stringColorToRGB = function(name) return Color.fromString(name) end
API.destroyObject = function(obj)
  local st = state_of[obj]
  if not st then error("destroyObject: an object was expected", 2) end
  return destroy(st)
end
API.spawnObjectData = function(params)
  if type(params) ~= "table" or type(params.data) ~= "table" then
    error("spawnObjectData: params.data (object data) is required", 2)
  end
  return spawn_with(deep_copy(params.data), params)
end
API.spawnObjectJSON = function(params)
  local ok, data = py.json_decode(params.json)
  if not ok then error("spawnObjectJSON: " .. tostring(data), 2) end
  return spawn_with(data, params)
end
API.spawnObject = function(params)
  return spawn_with({ Name = params.type or "BlockSquare" }, params)
end
--- Strict: a deck group() forms is usable only a frame later (LUA.md §9): until then it is
--- spawning, its GUID unassigned (getObjectFromGUID does not find it) and its methods errors.
API.group = function(list)
  local result, base, formed = {}, nil, nil
  for _, proxy in ipairs(list or {}) do
    local st = state_of[proxy]
    if live(st) and (is_kind(st, "Card") or is_kind(st, "Deck")) then
      if base then
        local into = base
        base = state_of[put_object(base, proxy, GROUP_FRAMES)]
        if base ~= into then formed = base end
      else
        base = st
      end
    elseif live(st) then
      result[#result + 1] = proxy
    end
  end
  if World.strict and formed and formed == base and live(formed) then
    formed.forming = true
    formed.guid_pending = true
    by_guid[formed.guid] = nil
  end
  if base then table.insert(result, 1, base.proxy) end
  return result
end
API.startLuaCoroutine = function(owner, name)
  local st = owner == global.proxy and global or state_of[owner]
  if not st or not st.env then error("startLuaCoroutine: bad owner", 2) end
  local fn = rawget(st.env, name)
  if type(fn) ~= "function" then error("startLuaCoroutine: no function '" .. tostring(name) .. "'", 2) end
  coroutines[#coroutines + 1] = { co = coroutine.create(fn), context = label_of(st) .. "." .. name }
  return true
end
API.JSON = dot_or_colon({
  encode = json.encode,
  encode_pretty = json.encode_pretty,
  decode = function(text)
    if type(text) ~= "string" then error("JSON.decode: a string was expected", 2) end
    if not text:find("%S") then return nil end -- JSON.lua: blank text is nothing, not an error
    local ok, value = py.json_decode(text)
    if not ok then error("JSON.decode: " .. tostring(value), 2) end
    return value
  end,
})
API.UI = global_ui
API.Notes = Notes
API.Player = Player
API.Turns = Turns
API.Vector = Vector
API.Color = Color
API.vector = function(x, y, z) return Vector.new(x, y, z) end -- deprecated lower-case forms
API.color = function(r, g, b, a) return Color.new(r, g, b, a) end
API.Global = global.proxy
API.Time = setmetatable({}, {
  __index = function(_, key)
    if key == "time" then return frame / FPS end
    if key == "delta_time" or key == "fixed_delta_time" then return 1 / FPS end
    return nil
  end,
})

---------------------------------------------------------------------------- rewind stores
-- TTS stores a rewind checkpoint about every 10 s (table.py keeps the schedule) and calls every
-- onSave for it. storeRewindState(and_then, block_further_stores) asks for one now: it is taken
-- before the next frame, then and_then(true, true) runs; with block_further_stores the scheduled
-- ones are held off until allowRewindStore() or 60 s later. A player's own save never is.
local rewind_request = nil      -- {and_then = fn} until the table takes the requested store
local rewind_blocked_until = nil
API.storeRewindState = function(and_then, block_further_stores)
  rewind_request = { and_then = and_then }
  if block_further_stores then rewind_blocked_until = frame + 60 * FPS end
  return true
end
API.allowRewindStore = function()
  rewind_blocked_until = nil
  return true
end
function World.rewind_allowed()
  return rewind_blocked_until == nil or frame >= rewind_blocked_until
end
function World.rewind_requested() return rewind_request ~= nil end
--- The requested store was taken: its and_then runs.
function World.rewind_stored()
  aborted = false
  local request = rewind_request
  rewind_request = nil
  if request and type(request.and_then) == "function" then
    protected("storeRewindState and_then", request.and_then, true, true)
  end
end

---------------------------------------------------------------------------- the clock
local function process_waits()
  local snapshot = list_copy(waits)
  for _, w in ipairs(snapshot) do
    if aborted then break end
    if not w.stopped then
      local context = w.owner .. " Wait." .. w.kind
      if w.kind == "condition" then
        if frame > w.created then
          local ok, done = protected(context .. " condition", w.cond)
          if not ok then
            w.stopped = true
          elseif done then
            w.stopped = true
            protected(context, w.fn)
          elseif w.deadline and frame >= w.deadline then
            w.stopped = true
            if w.timeout_fn then protected(context .. " timeout", w.timeout_fn) end
          end
        end
      elseif frame >= w.due then
        if w.kind == "time" and w.reps ~= 1 then
          if w.reps > 1 then w.reps = w.reps - 1 end
          w.due = w.due + w.interval
        else
          w.stopped = true
        end
        protected(context, w.fn)
      end
    end
  end
  local kept = {}
  for _, w in ipairs(waits) do
    if not w.stopped then kept[#kept + 1] = w end
  end
  waits = kept
end

local function process_moves()
  for _, st in ipairs(objects) do
    local m = moving[st]
    if m and frame >= m.due then
      moving[st] = nil
      if m.pos then set_pos(st, m.pos[1], m.pos[2], m.pos[3]) end
      if m.rot then set_rot(st, m.rot[1], m.rot[2], m.rot[3]) end
      if not rolling[st] then st.resting = true end
      if m.arrive then m.arrive() end
    end
  end
end

--- Dice coming to rest take queued values in rest order, then in the order they were rolled.
local function process_dice()
  local due = {}
  for _, st in ipairs(objects) do
    if rolling[st] and frame >= st.rest_due then due[#due + 1] = st end
  end
  table.sort(due, function(a, b)
    if a.rest_due ~= b.rest_due then return a.rest_due < b.rest_due end
    return a.roll_seq < b.roll_seq
  end)
  for _, st in ipairs(due) do
    do
      rolling[st] = nil
      local rotation = st.pending_rotation
      st.pending_rotation = nil
      if not rotation and rotation_values(st) then
        if #dice_queue == 0 then
          fatal(label_of(st) .. " came to rest but the dice queue is empty")
        end
        local value = table.remove(dice_queue, 1)
        local _, face = find_face(st, value)
        local r = face.Rotation or {}
        rotation = { r.x or 0, r.y or 0, r.z or 0 }
      end
      if rotation then set_rot(st, rotation[1], rotation[2], rotation[3]) end
      if not moving[st] then st.resting = true end
    end
  end
end

local function process_deferred()
  local now, later = {}, {}
  for _, d in ipairs(deferred) do
    if frame >= d.due then now[#now + 1] = d else later[#later + 1] = d end
  end
  deferred = later
  for _, d in ipairs(now) do
    if aborted then
      deferred[#deferred + 1] = d
    else
      protected(d.context, d.fn, table.unpack(d.args, 1, d.args.n))
    end
  end
end

local function process_coroutines()
  local kept = {}
  for _, c in ipairs(coroutines) do
    if not aborted then
      local ok, message = coroutine.resume(c.co)
      if not ok then
        report(c.context, message)
      elseif coroutine.status(c.co) ~= "dead" then
        kept[#kept + 1] = c
      end
    end
  end
  coroutines = kept
end

local function step()
  frame = frame + 1
  sb.clock.seconds = frame / FPS
  if zones_dirty then update_zones(false) end
  process_settling()
  process_moves()
  process_dice()
  process_deferred()
  process_coroutines()
  process_waits()
end

--- What keeps the table busy (nil when settled). Endless Wait.time repeats do not count.
local function busy()
  if #deferred > 0 then return "a spawn/takeObject callback or deferred event" end
  if zones_dirty then return "a zone update" end
  if next(rolling) then return "a die still rolling" end
  if next(moving) then return "an object still moving" end
  if next(settling) then return "an object coming to rest" end
  if #coroutines > 0 then return "a running coroutine" end
  for _, w in ipairs(waits) do
    if not w.stopped and not (w.kind == "time" and w.reps < 0) then
      return w.owner .. " Wait." .. w.kind .. " (id " .. w.id .. ")"
    end
  end
  return nil
end

--- The next frame at which anything can happen.
local function next_frame()
  if zones_dirty or #coroutines > 0 then return frame + 1 end
  local best = math.huge
  local function consider(f) if f < best then best = f end end
  for _, d in ipairs(deferred) do consider(d.due) end
  for st in pairs(rolling) do consider(st.rest_due) end
  for _, m in pairs(moving) do consider(m.due) end
  for _, f in pairs(settling) do consider(f) end
  for _, w in ipairs(waits) do
    if not w.stopped then
      if w.kind == "condition" then return frame + 1 end
      consider(w.due)
    end
  end
  return max(best, frame + 1)
end

---------------------------------------------------------------------------- seats
--- The colours that have a HandTrigger on the table (the seats, GEOMETRY.md §5).
local function hand_colors()
  local set = {}
  for _, st in ipairs(objects) do
    if live(st) and type_of(st) == "Hand" and st.data.FogColor then set[st.data.FogColor] = true end
  end
  return set
end

---------------------------------------------------------------------------- driver API
-- Global snap points: the save's form ({Position = {x, y, z}, Rotation, RotationSnap, Tags})
-- and the API's ({position = Vector, rotation, rotation_snap, tags}), both ways.
local function xyz(v)
  if type(v) ~= "table" then return nil end
  return { x = v.x or v[1] or 0, y = v.y or v[2] or 0, z = v.z or v[3] or 0 }
end

local function snaps_from_save(list)
  local out = {}
  for i, p in ipairs(list or {}) do
    local pos, rot = xyz(p.Position) or { x = 0, y = 0, z = 0 }, xyz(p.Rotation)
    out[i] = { position = newv(pos.x, pos.y, pos.z), rotation_snap = p.RotationSnap == true,
      tags = list_copy(p.Tags) }
    if rot then out[i].rotation = newv(rot.x, rot.y, rot.z) end
  end
  return out
end

local function snaps_to_save(list)
  local out = {}
  for i, p in ipairs(list or {}) do
    local item = { Position = xyz(p.position) or { x = 0, y = 0, z = 0 } }
    if p.rotation ~= nil then item.Rotation = xyz(p.rotation) end
    if p.rotation_snap then item.RotationSnap = true end
    if p.tags and #p.tags > 0 then item.Tags = list_copy(p.tags) end
    out[i] = item
  end
  return out
end

function World.load(save)
  aborted = false
  notes = save.Note or ""
  local tabs = save.TabStates or {}
  local keys = {}
  for k in pairs(tabs) do keys[#keys + 1] = tonumber(k) or 0 end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local tab = tabs[tostring(k)] or tabs[k] or {}
    notebook[#notebook + 1] = { title = tab.title or "", body = tab.body or "", color = tab.color or "Grey" }
  end
  save_turns = save.Turns or {}
  turns.enable = save_turns.Enable == true
  turns.type = (save_turns.Type == 1) and 2 or 1
  turns.order = list_copy(save_turns.TurnOrder)
  turns.reverse_order = save_turns.Reverse == true
  turns.skip_empty_hands = save_turns.SkipEmpty == true
  turns.disable_interactations = save_turns.DisableInteractions == true
  turns.pass_turns = save_turns.PassTurns ~= false
  turns.turn_color = save_turns.TurnColor or ""
  global.script_state = save.LuaScriptState or ""
  global.extra.snap_points = snaps_from_save(save.SnapPoints)
  py.ui_load("Global", save.XmlUI or "")
  for _, data in ipairs(save.ObjectStates or {}) do note_guids(data) end
  local loaded = {}
  for _, data in ipairs(save.ObjectStates or {}) do loaded[#loaded + 1] = new_state(data) end
  if World.strict then
    local hands = hand_colors()
    for _, c in ipairs(seated) do
      if not hands[c] then
        fatal("cannot seat " .. c .. ": the save has no HandTrigger of that colour"
          .. " (in TTS hand zones are the seats)")
      end
    end
  end
  update_zones(true)
  local started = { [global] = start_script(global, save.LuaScript) }
  for _, st in ipairs(loaded) do
    if aborted then return end
    started[st] = start_script(st, st.data.LuaScript)
  end
  if started[global] then run_on_load(global) end
  for _, st in ipairs(loaded) do
    if started[st] and live(st) then run_on_load(st) end
  end
  if World.strict then -- the save's objects settle once: checked, not merged (not established)
    for _, st in ipairs(loaded) do
      if live(st) and not settling[st] then
        settling[st] = frame + 1
        st.load_rest = true
      end
    end
  end
end

--- The clock stops at the end of frame `pause_at` (a save is due then) or before the next frame
--- when a script asked for a rewind store: "paused" (nothing happens in the frames skipped).
local function pause_before(target, pause_at)
  if rewind_request then return true end
  if pause_at and target > pause_at then
    frame = pause_at
    sb.clock.seconds = frame / FPS
    return true
  end
  return false
end

function World.settle(max_frames, pause_at)
  aborted = false
  local limit = frame + max_frames
  while not aborted do
    if rewind_request then return "paused" end
    local what = busy()
    if not what then return true end
    local target = next_frame()
    if target > limit then return false, what end
    if pause_before(target, pause_at) then return "paused" end
    frame = target - 1
    step()
    if pause_at and frame >= pause_at then return "paused" end
  end
  return true
end

function World.advance(frames, pause_at)
  aborted = false
  local target_end = frame + frames
  while frame < target_end and not aborted do
    local target = next_frame()
    if target > target_end then target = target_end end
    if pause_before(target, pause_at) then return "paused" end
    frame = target - 1
    step()
    if pause_at and frame >= pause_at then
      sb.clock.seconds = frame / FPS
      return "paused"
    end
  end
  sb.clock.seconds = frame / FPS
end

function World.frame() return frame end
function World.global_env() return global.env end
function World.object_env(guid)
  local st = by_guid[guid]
  return st and st.env
end
function World.seat(colors)
  local hands = World.strict and #objects > 0 and hand_colors() -- before load: checked by load
  local list = {}
  for _, c in ipairs(colors) do
    if not IS_COLOR[c] then return false, "unknown player colour " .. tostring(c) end
    if hands and not hands[c] then
      return false, "cannot seat " .. c .. ": the table has no HandTrigger of that colour"
        .. " (in TTS hand zones are the seats)"
    end
    list[#list + 1] = c
  end
  seated = list
  return true
end

--- Strict: only seated players click, and the spectators (Grey) and the GM (Black), who are at
--- the table without a seat: a script must refuse what they may not do.
local SPECTATORS = { Grey = true, Black = true }
local function refuse_unseated(color)
  if World.strict and not seat_index(color) and not SPECTATORS[color] then
    return color .. " is not seated: only seated players (and Grey, Black) can click"
  end
  return nil
end
function World.queue_dice(values)
  for _, v in ipairs(values) do dice_queue[#dice_queue + 1] = v end
end
function World.dice_left() return #dice_queue end
function World.dice_queue() return list_copy(dice_queue) end

function World.click_button(guid, key, color, alt)
  aborted = false
  local refused = refuse_unseated(color)
  if refused then return false, refused end
  local st = by_guid[guid]
  if not st then return false, "no object with GUID " .. tostring(guid) end
  local index
  if type(key) == "number" then
    index = key + 1
  else
    for i, b in ipairs(st.buttons) do
      if tostring(b.label) == key then index = i; break end
    end
  end
  local b = index and st.buttons[index]
  if not b then return false, "no button " .. tostring(key) .. " on " .. label_of(st) end
  local owner = global
  if b.function_owner ~= nil then owner = b.function_owner == global.proxy and global or state_of[b.function_owner] end
  if not owner or not owner.env then return false, "button function_owner has no script" end
  local fn = rawget(owner.env, b.click_function)
  if type(fn) ~= "function" then
    return false, "no function '" .. tostring(b.click_function) .. "' in " .. label_of(owner)
  end
  protected(label_of(owner) .. "." .. b.click_function, fn, st.proxy, color, alt == true)
  return true
end

function World.ui_event(owner_key, name, color, value, id)
  aborted = false
  local refused = refuse_unseated(color)
  if refused then return false, refused end
  local st = owner_key == "Global" and global or by_guid[owner_key]
  if not st or not st.env then return false, "no script for UI owner " .. tostring(owner_key) end
  local fn = rawget(st.env, name)
  if type(fn) ~= "function" then return false, "no function '" .. name .. "' in " .. label_of(st) end
  protected(label_of(st) .. "." .. name, fn, player(color), value, id)
  return true
end

--- Whether a global snap point attracts `st`: it has no tags, or one of st's.
local function snaps_to(point, st)
  if #(point.tags or {}) == 0 then return true end
  for _, tag in ipairs(point.tags) do
    if has_tag(st, tag) then return true end
  end
  return false
end

--- Strict: where a player aiming at (x, z) lets go of `st`: above it, and off it by up to
--- DROP_SLOP (never nearer another snap point that attracts it) when it is a global snap point
--- that attracts it, which the object then snaps to; elsewhere it falls straight down.
local function release_point(st, x, y, z)
  local nearest, other = nil, math.huge
  for _, point in ipairs(global.extra.snap_points or {}) do
    if snaps_to(point, st) then
      local p = xyz(point.position)
      local d = math.sqrt((p.x - x) ^ 2 + (p.z - z) ^ 2)
      if d < World.same_spot and not nearest then
        nearest = p
      elseif d < other then
        other = d
      end
    end
  end
  if not nearest then return x, y + DROP_LIFT, z end
  local reach = math.min(DROP_SLOP, 0.49 * other) * drop_random()
  local angle = 2 * math.pi * drop_random()
  return x + reach * cos(angle), y + DROP_LIFT, z + reach * math.sin(angle)
end

--- A player picks up `guid` and drops it aimed at `position` (where it is when nil). Strict:
--- onObjectDrop fires where the player let go (release_point), before the object snaps or
--- falls to `position` and rests DROP_FRAMES later (LUA.md §9); lax: at `position`, at rest.
function World.drop(color, guid, position)
  aborted = false
  local st = by_guid[guid]
  if not st then return false, "no object with GUID " .. tostring(guid) end
  st.held_by_color = color
  fire("onObjectPickUp", color, st.proxy)
  fire_object(st, "onPickUp", color)
  if World.strict and live(st) and st.held_by_color == color then
    moving[st] = nil
    local x, y, z = get_pos(st)
    if position then x, y, z = vec(position) end
    local rx, ry, rz = release_point(st, x, y, z)
    set_pos(st, rx, ry, rz)
    settling[st] = nil
    st.resting = false
    moving[st] = { pos = { x, y, z }, due = frame + DROP_FRAMES }
    if zones_dirty then update_zones(false) end
    st.held_by_color = nil
    fire("onObjectDrop", color, st.proxy)
    fire_object(st, "onDrop", color)
    return true
  end
  if position then
    moving[st] = nil
    set_pos(st, vec(position))
  end
  if zones_dirty then update_zones(false) end
  st.held_by_color = nil
  mark_rest(st)
  fire("onObjectDrop", color, st.proxy)
  fire_object(st, "onDrop", color)
  return true
end

function World.call_object(guid, name, ...)
  aborted = false
  local st = guid == "Global" and global or by_guid[guid]
  if not st or not st.env then return false, "no script for " .. tostring(guid) end
  local fn = rawget(st.env, name)
  if type(fn) ~= "function" then return false, "no function '" .. name .. "' in " .. label_of(st) end
  local res = table.pack(sb.run(fn, ...))
  if not res[1] then return false, res[2], res[3] end
  return true, World.jsonable(res[2])
end

--- Replace object references by their GUIDs so a value can go to Python.
function World.jsonable(v)
  if type(v) ~= "table" then return v end
  if v == global.proxy then return "Global" end
  if state_of[v] then return state_of[v].guid end
  local c = {}
  for k, x in pairs(v) do c[k] = World.jsonable(x) end
  return c
end

local function snapshot(st, lean)
  local contained = {}
  if is_container(st) and not lean then
    for i, d in ipairs(container_list(st)) do
      contained[i] = { guid = d.GUID, name = d.Name, nickname = d.Nickname or "", gm_notes = d.GMNotes or "",
        tags = list_copy(d.Tags) }
    end
  end
  return {
    guid = st.guid, name = st.data.Name, nickname = st.data.Nickname or "", tags = list_copy(st.data.Tags),
    gm_notes = st.data.GMNotes or "", description = st.data.Description or "",
    position = { get_pos(st) }, rotation = { get_rot(st) }, face_down = face_down(st),
    locked = st.data.Locked == true, value = get_value(st), quantity = M.getQuantity(st),
    contained = not lean and contained or nil, type = type_of(st), resting = st.resting,
    spawning = st.spawning == true,
  }
end

--- One object's snapshot (by GUID), or every loose object's; `lean`: without `contained`.
function World.snapshot(guid, lean)
  if guid then
    local st = by_guid[guid]
    return st and snapshot(st, lean)
  end
  local list = {}
  for _, st in ipairs(objects) do
    if live(st) then list[#list + 1] = snapshot(st, lean) end
  end
  return list
end

function World.buttons(guid)
  local st = by_guid[guid]
  if not st then return nil end
  local out = {}
  for i, b in ipairs(st.buttons) do
    out[i] = World.jsonable({ index = i - 1, label = b.label, click_function = b.click_function,
      tooltip = b.tooltip })
  end
  return out
end

function World.notebook()
  local out = {}
  for i, tab in ipairs(notebook) do out[i] = { title = tab.title, body = tab.body, color = tab.color } end
  return out
end
function World.notes() return notes end

function World.save_state()
  aborted = false
  local data = {}
  for _, st in ipairs(objects) do
    if live(st) then -- a shallow copy: jsonable below copies it whole (one copy, not two)
      local d = {}
      for k, v in pairs(st.data) do d[k] = v end
      local state = script_state_of(st)
      if state then d.LuaScriptState = state end
      data[#data + 1] = d
    end
  end
  local state = script_state_of(global)
  if state then global.script_state = state end
  local tabs = {}
  for i, tab in ipairs(notebook) do
    tabs[tostring(i - 1)] = { id = i - 1, title = tab.title, body = tab.body, color = tab.color,
      visibleColor = { r = 0.5, g = 0.5, b = 0.5 } }
  end
  local turn_save = deep_copy(save_turns)
  turn_save.Enable = turns.enable
  turn_save.Type = turns.type == 2 and 1 or 0
  turn_save.TurnOrder = list_copy(turns.order)
  turn_save.Reverse = turns.reverse_order
  turn_save.SkipEmpty = turns.skip_empty_hands
  turn_save.DisableInteractions = turns.disable_interactations
  turn_save.PassTurns = turns.pass_turns
  turn_save.TurnColor = turns.turn_color
  return World.jsonable({ objects = data, script_state = global.script_state or "", notes = notes,
    tabs = tabs, turns = turn_save, snap_points = snaps_to_save(global.extra.snap_points) })
end

return World
