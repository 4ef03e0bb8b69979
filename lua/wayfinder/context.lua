-- wf.context: the context chain (docs/lua-api.md). Layers, lookups and values live in Swift
-- (ContextChain); this file gives each layer its Lua object, typed fields, and the observers,
-- which stay in Lua so an owner is held weakly even when its callback captures it.
local native = require "wayfinder.native.context"
local fields_of = require "wayfinder.fields"

-- The fields of wf.context { ... }, as the host lists them (ContextOption.swift).
local exported = native.fields()
local options_list = fields_of.list(exported)
local option = fields_of.keys(exported)
local O_NAME, O_INNER, O_FIELDS = option.name, option.inner, option.fields

local methods = {}
local Context = { __name = "wf.context", __metatable = "wf.context" }

local CORE, ID, NAME, INNER, FIELDS, OBSERVERS = {}, {}, {}, {}, {}, {}

-- The contexts that have observers, by their Swift id, so a set made anywhere (from Lua or
-- Swift) reaches them. Only these: opening a screen makes a context, and nothing else needs
-- finding by id.
local observed = setmetatable({}, { __mode = "v" })
local known = setmetatable({}, { __mode = "k" })

local function is_context(value)
  return known[value] == true
end

local function check_self(self, method)
  if not known[self] then error("call it as ctx:" .. method .. "(...), with a colon", 3) end
end

local function check_key(key, level)
  if type(key) ~= "string" or key == "" then
    error("a context key must be a non-empty string, got " .. (type(key) == "string" and "an empty string" or type(key)), level + 1)
  end
end

local function check_name(name, level)
  if name ~= nil and type(name) ~= "string" then error("a context name must be a string, got " .. type(name), level + 1) end
end

local app

-- The fields of a context that declares none (only ever read).
local NO_FIELDS = {}

-- The Lua object for a Swift layer: made by new, or by the host for a restored layer. A layer
-- the navigator makes for an open has no Swift layer until something needs it (core_of).
local function wrap(core, id, name, inner, fields)
  local ctx = setmetatable({ [CORE] = core, [ID] = id, [NAME] = name, [INNER] = inner, [FIELDS] = fields or NO_FIELDS }, Context)
  known[ctx] = true
  return ctx
end

-- The context's Swift layer, made now (and its inner ones) if the context has none yet. Most
-- screens never touch their context, and making a layer is a crossing into Swift, so the layer
-- an open makes waits until it is read, written, observed or saved. The layers waiting are
-- found in a loop and made innermost first: screens opened one on another make a chain as long
-- as the script pleases.
local function core_of(ctx)
  local core = rawget(ctx, CORE)
  if core ~= nil then return core end
  local waiting = {}
  local layer = ctx
  while layer ~= nil and rawget(layer, CORE) == nil do
    waiting[#waiting + 1] = layer
    layer = rawget(layer, INNER)
  end
  local inner_core = layer and rawget(layer, CORE)
  for index = #waiting, 1, -1 do
    local made, id = native.new(nil, inner_core, nil)
    if made == nil then error(id, 0) end
    rawset(waiting[index], CORE, made)
    rawset(waiting[index], ID, id)
    inner_core = made
  end
  return inner_core
end

local function new(spec)
  spec = spec or {}
  if type(spec) ~= "table" then
    error("wf.context needs a table such as { " .. O_NAME .. " = \"flow\", " .. O_INNER .. " = ctx }, got " .. type(spec), 3)
  end
  fields_of.check(options_list, spec, "wf.context", "option", 3)
  local name = spec[O_NAME]
  check_name(name, 3)
  local inner = spec[O_INNER]
  if inner == nil then inner = app elseif inner == false then inner = nil end
  if inner ~= nil and not is_context(inner) then
    error("wf.context: inner must be a context (made by wf.context), got " .. type(inner), 3)
  end
  local fields = spec[O_FIELDS]
  if fields ~= nil then
    if type(fields) ~= "table" then error("wf.context: fields must be a table { name = \"type\" }", 3) end
    for field in pairs(fields) do
      if methods[field] then error("wf.context: field '" .. tostring(field) .. "' would hide a method", 3) end
    end
  end
  local core, id = native.new(name, inner and core_of(inner), fields)
  if core == nil then error(id, 3) end
  return wrap(core, id, name, inner, fields)
end

-- A fresh layer over `inner`, over the app context when `inner` is not a context: the layer the
-- navigator makes on every open, without the checks a script's spec needs (its Swift layer is
-- made when needed, core_of).
local function layer(inner)
  if not known[inner] then inner = app end
  local ctx = setmetatable({ [INNER] = inner, [FIELDS] = NO_FIELDS }, Context)
  known[ctx] = true
  return ctx
end

-- The native calls answer their result, or nil and the reason; a result may itself be nil, so
-- the reason tells them apart.
methods.get = function(self, key, name)
  check_self(self, "get"); check_key(key, 2); check_name(name, 2)
  local value, reason = native.get(core_of(self), key, name)
  if reason ~= nil then error(reason, 2) end
  return value
end

function methods:set(key, value, name)
  check_self(self, "set"); check_key(key, 2); check_name(name, 2)
  local ok, reason = native.set(core_of(self), key, value, name)
  if not ok then error(reason, 2) end
  return self
end

function methods:remove(key, name)
  check_self(self, "remove"); check_key(key, 2); check_name(name, 2)
  local removed, reason = native.remove(core_of(self), key, name)
  if reason ~= nil then error(reason, 2) end
  return removed
end

function methods:keys()
  check_self(self, "keys")
  return native.keys(core_of(self))
end

function methods:dump()
  check_self(self, "dump")
  return native.dump(core_of(self))
end

-- observe(key, owner, fn): fn(owner, value, key) after every set of key on this context.
function methods:observe(key, owner, fn)
  check_self(self, "observe"); check_key(key, 2)
  if owner == nil then error("ctx:observe needs an owner (usually the controller); it is held weakly", 2) end
  if type(fn) ~= "function" then error("ctx:observe needs a function(owner, value, key), got " .. type(fn), 2) end
  local ok, err = native.observe(core_of(self), key)
  if not ok then error(err, 2) end
  local observers = self[OBSERVERS]
  if not observers then
    observers = {}
    rawset(self, OBSERVERS, observers)
    observed[rawget(self, ID)] = self
  end
  local list = observers[key]
  if not list then
    list = setmetatable({}, { __mode = "k" })
    observers[key] = list
  end
  local fns = list[owner]
  if not fns then
    fns = {}
    list[owner] = fns
  end
  fns[#fns + 1] = fn
  return self
end

function methods:unobserve(owner)
  check_self(self, "unobserve")
  local observers = self[OBSERVERS]
  if observers then
    for _, list in pairs(observers) do list[owner] = nil end
  end
  return self
end

function Context.__index(self, key)
  local method = methods[key]
  if method then return method end
  if rawget(self, FIELDS)[key] then return methods.get(self, key) end
  if key == O_NAME then return rawget(self, NAME) end
  return nil
end

function Context.__newindex(self, key, value)
  if rawget(self, FIELDS)[key] then
    local ok, err = native.set(core_of(self), key, value, nil)
    if not ok then error(err, 2) end
    return
  end
  error("ctx." .. tostring(key) .. " is not a field of this context (use ctx:set(key, value), or declare fields)", 2)
end

function Context.__tostring(self)
  return "wf.context" .. (rawget(self, NAME) and (" '" .. rawget(self, NAME) .. "'") or "")
end

-- What the host calls. -----------------------------------------------------------------

-- An error object as text: its __tostring's answer, else (none, or one that raises) its type.
local function describe_error(err)
  local kind = type(err)
  if kind == "string" or kind == "number" then return tostring(err) end
  local mt = getmetatable(err)
  if type(mt) == "table" and rawget(mt, "__tostring") then
    local ok, text = pcall(tostring, err)
    if ok and type(text) == "string" then return text end
  end
  return "(error object is a " .. kind .. " value)"
end

-- A set of key on the context with this id: calls its observers, each protected; returns the
-- errors (file:line first) so the host reports them without undoing the set.
local function dispatch(id, key, value)
  local ctx = observed[id]
  local observers = ctx and rawget(ctx, OBSERVERS)
  local list = observers and observers[key]
  local failures = {}
  if not list then return failures end
  local calls = {}
  for owner, fns in pairs(list) do
    for _, fn in ipairs(fns) do calls[#calls + 1] = { owner, fn } end
  end
  for _, call in ipairs(calls) do
    local ok, err = pcall(call[2], call[1], value, key)
    if not ok then failures[#failures + 1] = describe_error(err) end
  end
  return failures
end

-- A controller left the tree: observers it owns go, wherever they are.
local function forget(owner)
  for _, ctx in pairs(observed) do
    local observers = rawget(ctx, OBSERVERS)
    if observers then
      for _, list in pairs(observers) do list[owner] = nil end
    end
  end
end

app = new { [O_NAME] = "app", [O_INNER] = false }


local module = setmetatable({
  app = app, is = is_context, _new = new, _layer = layer, _dispatch = dispatch, _forget = forget, _wrap = wrap, _core = core_of,
}, {
  __call = function(_, spec)
    local ctx = new(spec) -- not a tail call: errors name the caller's line
    return ctx
  end,
})

return module
