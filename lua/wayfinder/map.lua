-- wf.map: the URL map. Patterns, matching and URL generation are native (docs/matching.md); this
-- file checks arguments so mistakes name the script's own line, deduces constructors, and reads
-- object fields for URL generation (fields may come through __index chains, which only Lua can
-- follow).
local native = require "wayfinder.native.map"
local deduce = require "wayfinder.constructor"
local fields = require "wayfinder.fields"
local natives = require "wayfinder.native_screen"

local map = {}

local exported = native.fields()
-- The options map:from takes, as the host lists them (their values, such as which modes there
-- are, the host checks).
local options_list = fields.list(exported.options)
local option = fields.keys(exported.options)
local MODE, PARENT, GUARD = option.mode, option.parent, option.guard
-- The keys of a route's description (RouteDescription.swift): the fields Lua reads and adds.
local route_key = fields.keys(exported.route)
local TARGET, PARAM_NAMES, METHOD, SELECTOR = route_key.target, route_key.paramNames, route_key.method, route_key.selector
local SELECTOR_OPTION = fields.keys(exported.option_keys).selector
-- What native.add is told of a target (RouteTargetField.swift), and the modes of a route that
-- opens no screen (RouteOption.swift).
local target_key = fields.keys(exported.target)
local T_CLASS, T_NATIVE = target_key.class, target_key.native
local mode_name = fields.keys(exported.modes)
local MODE_NONE, MODE_EXTERNAL = mode_name.none, mode_name.external

-- class -> { [generator name] = { pattern = ..., fields = { ... } } }; weak, so a map never
-- keeps a class alive on its own.
local generators = setmetatable({}, { __mode = "k" })

local function check_self(self, method)
  if self ~= map then error("call it as wf.map:" .. method .. "(...), with a colon", 3) end
end

local function class_name(class)
  local name = rawget(class, "__name")
  return type(name) == "string" and name or nil
end

-- Adds what only Lua can know to a native route: the constructor a class target would get.
local function describe(route)
  if route == nil then return nil end
  if type(route[TARGET]) == "table" then
    local method, selector = deduce(route[TARGET], route[PARAM_NAMES], route[SELECTOR_OPTION])
    route[METHOD] = method
    if selector then route[SELECTOR] = selector end
  end
  return route
end

function map:from(pattern, target, options)
  check_self(self, "from")
  if type(pattern) ~= "string" then error("map:from needs a pattern string, got " .. type(pattern), 2) end
  local kind = type(target)
  if kind ~= "table" and kind ~= "function" then
    error("map:from('" .. pattern .. "', target): the target must be a controller class or a function, got " .. kind, 2)
  end
  if options ~= nil then
    if type(options) ~= "table" then error("map:from: options must be a table, got " .. type(options), 2) end
    fields.check(options_list, options, "map:from", "option", 2)
  end
  local native_name = natives.name_of(target)
  if native_name and options and (options[MODE] == MODE_NONE or options[MODE] == MODE_EXTERNAL) then
    error("map:from('" .. pattern .. "'): the native screen '" .. native_name .. "' cannot be an action (mode " .. MODE_NONE .. ")", 2)
  end
  local described = { [T_CLASS] = kind == "table" and class_name(target) or nil, [T_NATIVE] = native_name }
  local parent = options and options[PARENT]
  local ok, err = native.add(pattern, target, described, options or {}, options and options[GUARD],
    type(parent) == "function" and parent or nil)
  if not ok then error(err, 2) end
  return self
end

-- moved(old_pattern, new_pattern): URLs of the old pattern now live at the new one
-- (docs/matching.md, "Moved routes").
function map:moved(old_pattern, new_pattern)
  check_self(self, "moved")
  if type(old_pattern) ~= "string" then error("map:moved needs the old pattern (a string), got " .. type(old_pattern), 2) end
  if type(new_pattern) ~= "string" then error("map:moved needs the new pattern (a string), got " .. type(new_pattern), 2) end
  local ok, err = native.moved(old_pattern, new_pattern)
  if not ok then error(err, 2) end
  return self
end

function map:remove(pattern)
  check_self(self, "remove")
  if type(pattern) ~= "string" then error("map:remove needs a pattern string, got " .. type(pattern), 2) end
  return native.remove(pattern)
end

function map:match(url)
  check_self(self, "match")
  if type(url) ~= "string" then return nil, "a URL must be a string, got " .. type(url) end
  local route, reason = native.match(url)
  if not route then return nil, reason end
  return describe(route)
end

function map:routes()
  check_self(self, "routes")
  local routes = native.routes()
  for _, route in ipairs(routes) do describe(route) end
  return routes
end

-- Whether a Lua pattern ends with an anchoring `$`: read token by token, so `%$` (an escaped
-- dollar), `%bx$` (a balance) and a `$` inside a set are not mistaken for one.
local function ends_with_anchor(spec)
  local i, n, anchor = 1, #spec, false
  while i <= n do
    local c = spec:sub(i, i)
    anchor = false
    if c == "%" then
      i = i + (spec:sub(i + 1, i + 1) == "b" and 4 or 2)
    elseif c == "[" then
      i = i + 1
      if spec:sub(i, i) == "^" then i = i + 1 end
      if spec:sub(i, i) == "]" then i = i + 1 end
      while i <= n and spec:sub(i, i) ~= "]" do
        i = i + (spec:sub(i, i) == "%" and 2 or 1)
      end
      i = i + 1
    else
      anchor = c == "$" and i == n
      i = i + 1
    end
  end
  return anchor
end

function map:type(name, spec)
  check_self(self, "type")
  if type(name) ~= "string" then error("map:type needs a type name, got " .. type(name), 2) end
  local convert
  if type(spec) == "string" then
    local ok, err = pcall(string.find, "", spec)
    if not ok then error("map:type('" .. name .. "'): bad Lua pattern: " .. tostring(err), 2) end
    -- Anchored by wrapping the pattern in its own anchors; the author's own (a leading `^`, a
    -- final anchoring `$`) are taken off first, since inside they would be literal characters.
    local body = spec
    if body:sub(1, 1) == "^" then body = body:sub(2) end
    if ends_with_anchor(body) then body = body:sub(1, -2) end
    local anchored = "^" .. body .. "$"
    convert = function(text)
      if string.find(text, anchored) then return text end
      return nil
    end
  elseif type(spec) == "function" then
    convert = spec
  else
    error("map:type('" .. name .. "', spec): spec must be a Lua pattern string or a function, got " .. type(spec), 2)
  end
  local ok, err = native.add_type(name, convert)
  if not ok then error(err, 2) end
  return self
end

function map:url(class, name, pattern)
  check_self(self, "url")
  if pattern == nil then name, pattern = nil, name end
  if type(class) ~= "table" then error("map:url needs a class table, got " .. type(class), 2) end
  if name ~= nil and type(name) ~= "string" then error("map:url: the generator name must be a string", 2) end
  if type(pattern) ~= "string" then error("map:url needs a pattern string, got " .. type(pattern), 2) end
  local read, err = native.generator(pattern)
  if not read then error(err, 2) end
  generators[class] = generators[class] or {}
  generators[class][name or ""] = { pattern = pattern, fields = read }
  return self
end

-- Reads "album.title" as obj.album.title; nil when any step is missing.
local function read_field(obj, path)
  local value = obj
  for part in string.gmatch(path, "[^.]+") do
    if type(value) ~= "table" then return nil end
    value = value[part]
  end
  return value
end

function map:url_for(obj, name)
  check_self(self, "url_for")
  if type(obj) ~= "table" then return nil, "url_for needs an object (a table), got " .. type(obj) end
  local class = getmetatable(obj)
  while type(class) == "table" do
    local named = generators[class]
    local generator = named and named[name or ""]
    if generator then
      local values = {}
      for _, field in ipairs(generator.fields) do
        local value = read_field(obj, field)
        -- A URL is text: a field of other bytes is the object's data, answered with a reason.
        if type(value) == "string" and not utf8.len(value) then
          return nil, "field '" .. field .. "' is not valid UTF-8, which a URL cannot carry"
        end
        values[field] = value
      end
      return native.fill(generator.pattern, values)
    end
    class = getmetatable(class)
  end
  local what = getmetatable(obj) and class_name(getmetatable(obj)) or "this object"
  return nil, "no URL generator" .. (name and (" named '" .. name .. "'") or "") .. " for " .. what
end

-- url_for_route(name, params): the URL of the route named `name`, each param checked (missing,
-- unknown, or of a type the route's param cannot carry); a mistake is raised at the caller's line.
function map:url_for_route(name, params)
  check_self(self, "url_for_route")
  if type(name) ~= "string" then error("url_for_route needs a route name (a string), got " .. type(name), 2) end
  if params ~= nil and type(params) ~= "table" then
    error("url_for_route('" .. name .. "', params): params must be a table, got " .. type(params), 2)
  end
  local url, reason = native.url_for_route(name, params)
  if not url then error(reason, 2) end
  return url
end

-- Used by the host to describe a match (the CLI's `method` field).
map._deduce = deduce

return map
