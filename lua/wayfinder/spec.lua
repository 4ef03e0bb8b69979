-- Specs written in Lua, with busted's vocabulary and rules (docs/testing.md):
-- describe (context, insulate, expose), it (test, spec), pending, before_each, after_each, setup
-- and teardown (strict_ and lazy_ alike), finally, randomize; assert, spy, stub, mock and match
-- are luassert's, loaded read-only from where its package put it. Loading a spec file runs its
-- top level; a describe body runs when the run reaches it. The host runs every step (a describe
-- body, a setup, a before_each, a test...) as its own call, so each has the time budget and an
-- error's traceback.
local native = require "wayfinder.native.spec"

local spec = {}

local raise = error
local host_require = require

-- Blocks. ----------------------------------------------------------------------------------

local blocks = {}

-- The block whose body is running (nil while a hook or a test runs, where describe and it
-- are refused, as busted refuses them).
local current

-- The longest full name a test may have (its blocks' names and its own, joined by spaces, as
-- TAP and JUnit print it): refused at the line that names it, before the host reads any of it.
local max_full_name = 4096

-- The length of `name` joined to the full name of the block whose body is running.
local function full_length(name)
  if current == nil or current.name == nil then return #name end
  return current.full_length + 1 + #name
end

local function new_block(name, fn, mode)
  local block = {
    id = #blocks + 1, name = name, fn = fn, mode = mode, children = {},
    setup = {}, teardown = {}, before_each = {}, after_each = {},
    full_length = name and full_length(name) or 0,
  }
  blocks[block.id] = block
  return block
end

local root = new_block(nil, nil, "insulate")
current = root
-- Whether a test body (or its finally) is running: pending() then marks the test pending.
local in_test = false
-- The function a running test gave to finally.
local finally_fn

local function check_name(what, name)
  if type(name) ~= "string" then raise(what .. " needs a name (a string), got " .. type(name), 3) end
  local length = full_length(name)
  if length > max_full_name then
    raise(what .. ": the full name is " .. length .. " bytes, more than " .. max_full_name
          .. " (its blocks' names and its own)", 3)
  end
end

local function check_fn(what, fn)
  if type(fn) ~= "function" then raise(what .. " needs a function, got " .. type(fn), 3) end
end

local function check_place(what)
  if current == nil then
    raise(what .. " is not supported here: call it in a spec file's top level or in a describe body", 3)
  end
end

local function describer(mode)
  return function(name, fn)
    check_place("describe")
    check_name("describe", name); check_fn("describe", fn)
    local block = new_block(name, fn, mode)
    current.children[#current.children + 1] = { kind = "block", id = block.id, name = name }
  end
end

spec.describe = describer("describe")
spec.context = spec.describe
spec.insulate = describer("insulate")
spec.expose = describer("expose")

-- it(name, fn); without fn there is no test at all (busted 2.1.1 neither runs nor counts it).
function spec.it(name, fn)
  check_place("it")
  check_name("it", name)
  if fn == nil then return end
  check_fn("it", fn)
  current.children[#current.children + 1] = { kind = "test", name = name, fn = fn }
end
spec.test = spec.it
spec.spec = spec.it

-- A failed assertion and pending() inside a test are raised as verdicts: tables whose text is
-- their whole message, marked for the host, which knows that very value again when the step ends
-- (by identity, never by its text) and counts the test failed or pending. A script that catches
-- one with pcall gets the table; tostring gives its text, as busted's failures do.
local verdict_mt = { __tostring = function(verdict) return verdict.message end }

-- A verdict of `kind` ("failure" or "pending") whose text is `message`, marked: the caller
-- raises it next, itself, so the verdict adds no frame to the stack its traceback shows.
local function verdict(kind, message)
  local raised = setmetatable({ message = message }, verdict_mt)
  native.raising(raised, kind)
  return raised
end

-- pending(name [, fn]) in a block declares a pending test; pending([message]) inside a test
-- stops it and marks it pending.
function spec.pending(name)
  if in_test then
    raise(verdict("pending", "pending" .. (name ~= nil and (": " .. tostring(name)) or "")), 0)
  end
  check_place("pending")
  check_name("pending", name)
  current.children[#current.children + 1] = { kind = "test", name = name, pending = true }
end

-- finally(fn) inside a test: fn runs after the test, whatever became of it.
function spec.finally(fn)
  check_fn("finally", fn)
  if not in_test then raise("finally is only available inside a test", 2) end
  finally_fn = fn
end

local hooks = {
  before_each = "before_each", after_each = "after_each",
  setup = "setup", strict_setup = "setup", lazy_setup = "setup",
  teardown = "teardown", strict_teardown = "teardown", lazy_teardown = "teardown",
}
for name, list_name in pairs(hooks) do
  spec[name] = function(fn)
    check_place(name)
    check_fn(name, fn)
    local list = current[list_name]
    list[#list + 1] = fn
  end
end

-- randomize() in a block shuffles its tests and blocks (with the run's seed, else one fixed for the
-- file and block, so a run can be repeated).
function spec.randomize(on)
  check_place("randomize")
  current.randomize = on ~= false
end

-- Raises a failure: `level` is relative to the caller of this function's caller, as for error.
-- A message that is not a string is raised as it is, an error like any other.
local function fail(message, level)
  if type(level) ~= "number" then level = 1 end
  if type(message) ~= "string" then raise(message, 0) end
  local text = message
  if level > 0 then
    local _, positioned = pcall(raise, message, level + 2)
    text = positioned
  end
  raise(verdict("failure", text), 0)
end

function spec.fail(message, level)
  fail(message, (type(level) == "number" and level or 1) + 1)
end

-- Modules: busted's rules. -----------------------------------------------------------------

local globals -- the spec file's environment, set by _install

-- package as specs use it: path searched from the working directory (busted's lpath before
-- Lua's ./?.lua), loaded and preload. A spec file has its own.
local package_table = {
  path = "./src/?.lua;./src/?/?.lua;./src/?/init.lua;./?.lua;./?/init.lua",
  cpath = "",
  config = "/\n;\n?\n!\n-\n",
  loaded = {},
  preload = {},
}
for _, name in ipairs { "string", "table", "math", "utf8", "coroutine", "os" } do
  package_table.loaded[name] = _G[name]
end
spec.package = package_table

local loading = {}

local function assertion_module(name, require_fn)
  local relative = name:gsub("%.", "/")
  local text, chunkname
  if relative:find("/", 1, true) then text, chunkname = native.assertion_source(relative .. ".lua") end
  if text == nil then text, chunkname = native.assertion_source(relative .. "/init.lua") end
  if text == nil then raise("module '" .. name .. "' not found among luassert's files", 3) end
  local env = spec._assertion_env(name, require_fn)
  local chunk, err = load(text, chunkname, "t", env)
  if not chunk then raise(err, 0) end
  return chunk(name)
end

local function project_module(name)
  if not name:find("^[%w_][%w_%-%./]*$") or name:find("%.%.") or name:find("//") then return nil end
  local file = name:gsub("%.", "/")
  local outside = {}
  for template in package_table.path:gmatch("[^;]+") do
    local path = template:gsub("%?", file)
    local text, why = native.project_source(path)
    if text then return text, path end
    if why == "outside" then outside[#outside + 1] = path end
  end
  return nil, outside
end

local busted_api

-- loadfile and dofile for spec files, confined to the working directory as require is, and
-- text only as the sandbox's load is (apps have neither).
local function spec_loadfile(path, _, env)
  if type(path) ~= "string" then return nil, "loadfile needs a path (reading standard input is not available)" end
  local text, why = native.project_source(path)
  if not text then
    return nil, "cannot open " .. path .. (why == "outside" and " (outside the project directory)" or "")
  end
  return load(text, "@" .. path, "t", env or globals)
end

local function spec_dofile(path)
  local chunk, err = spec_loadfile(path)
  if not chunk then raise(err, 2) end
  return chunk()
end

local function spec_require(name)
  if type(name) ~= "string" then
    raise("bad argument #1 to 'require' (string expected, got " .. type(name) .. ")", 2)
  end
  local loaded = package_table.loaded[name]
  if loaded ~= nil then return loaded end
  if loading[name] then raise("require loop: module '" .. name .. "' is already being loaded", 2) end
  -- Outside the pcall below, so the host's refusal of its native modules names the spec's line.
  if name:find("^wayfinder%.native") then return host_require(name) end
  loading[name] = true
  local missing
  local ok, value = pcall(function()
    local preload = package_table.preload[name]
    if preload ~= nil then return preload(name, ":preload:") end
    if name == "busted" then return busted_api end
    if name == "luassert" or name:find("^luassert%.") or name == "say" then return assertion_module(name, spec_require) end
    if name == "wayfinder" or name:find("^wayfinder%.") then return host_require(name) end
    local text, path = project_module(name)
    if text then
      local chunk, err = load(text, "@" .. path, "t", globals)
      if not chunk then raise(err, 0) end
      return chunk(name, path)
    end
    -- Not on package.path: beside the spec file, where app scripts find their modules.
    local found, module = pcall(host_require, name)
    if found then return module end
    if type(module) == "string" and (module:find("module '" .. name .. "' not found", 1, true)
                                     or module:find("invalid module name '" .. name .. "'", 1, true)) then
      local outside = type(path) == "table" and path or {}
      local searched = package_table.path:gsub("%?", (name:gsub("%.", "/")))
      missing = "module '" .. name .. "' not found: not on package.path (" .. searched .. ") from the working directory, "
        .. "nor beside the spec file" .. (#outside > 0 and (" (outside the project, not searched: " .. table.concat(outside, ", ") .. ")") or "")
      return nil
    end
    raise(module, 0)
  end)
  loading[name] = nil
  if not ok then raise(value, 0) end
  if missing then raise(missing, 2) end
  if value == nil then value = package_table.loaded[name] end
  if value == nil then value = true end
  package_table.loaded[name] = value
  return value
end

-- What luassert's files see beside the spec's globals: stand-ins for the little of debug, io
-- and package they read. None reaches past the sandbox: getinfo answers source and line only,
-- setmetatable takes tables only (refusing __gc as the sandbox's does), io answers that
-- nothing is a file (so luassert never colours its output), getmetatable respects
-- __metatable as the sandbox's does.
local debug_standin = {
  getinfo = function(what)
    if type(what) == "number" then
      local info = native.getinfo(what + 1)
      return info
    end
    return native.getinfo(what)
  end,
  -- A protected metatable (__metatable set) stays hidden: luassert then sees none.
  getmetatable = function(value)
    local metatable = getmetatable(value)
    if type(metatable) ~= "table" then return nil end
    return metatable
  end,
  setmetatable = function(value, metatable)
    if type(value) ~= "table" then raise("debug.setmetatable is available for tables only", 2) end
    return setmetatable(value, metatable)
  end,
  traceback = function(message) return message end,
}
local io_standin = { type = function() return nil end, stdout = {} }
local package_standin = { config = package_table.config }

function spec._assertion_env(name, require_fn)
  local env = { debug = debug_standin, io = io_standin, package = package_standin, require = require_fn }
  -- luassert's assert module raises its failures with error; there they are failures.
  if name == "luassert.assert" then env.error = fail end
  return setmetatable(env, { __index = globals or _G })
end

-- insulate: the globals and package.loaded as they were before the block, restored after it.
local function snapshot()
  local saved_globals, saved_loaded = {}, {}
  for key, value in pairs(globals) do saved_globals[key] = value end
  for key, value in pairs(package_table.loaded) do saved_loaded[key] = value end
  return { globals = saved_globals, loaded = saved_loaded }
end

local function restore(saved)
  for key in pairs(globals) do if saved.globals[key] == nil then globals[key] = nil end end
  for key, value in pairs(saved.globals) do globals[key] = value end
  for key in pairs(package_table.loaded) do if saved.loaded[key] == nil then package_table.loaded[key] = nil end end
  for key, value in pairs(saved.loaded) do package_table.loaded[key] = value end
end

-- What the host calls. ---------------------------------------------------------------------

-- Runs a describe body: records its blocks, tests and hooks.
function spec._expand(id)
  local block = blocks[id]
  if block.mode == "insulate" then block.saved = snapshot() end
  current = block
  block.fn()
  current = nil
end

-- A block's contents: { children, setup, teardown, before_each, after_each, randomize }.
function spec._block(id)
  current = nil
  local block = blocks[id]
  return {
    children = block.children, setup = block.setup, teardown = block.teardown,
    before_each = block.before_each, after_each = block.after_each, randomize = block.randomize == true,
  }
end

-- The end of a block's run: an insulated block's globals and modules are put back.
function spec._leave(id)
  local block = blocks[id]
  if block.saved then restore(block.saved); block.saved = nil end
end

-- Calls a test body (the host calls this wrapper so pending() and finally know a test runs).
function spec._begin_test()
  in_test = true
  finally_fn = nil
end

-- The function the test gave to finally, if any; ends the test.
function spec._end_test()
  local fn = finally_fn
  finally_fn = nil
  return fn
end

function spec._after_test()
  in_test = false
end

-- Makes the vocabulary global, as busted does, with luassert's assert, spy, stub, mock and match.
function spec._install(env, path)
  globals = env
  if type(path) == "string" then package_table.path = path end
  require("wayfinder").testing = require "wayfinder.testing"
  local api = {}
  for _, name in ipairs { "describe", "context", "insulate", "expose", "it", "test", "spec", "pending",
                          "before_each", "after_each", "setup", "teardown", "strict_setup", "strict_teardown",
                          "lazy_setup", "lazy_teardown", "finally", "randomize" } do
    env[name] = spec[name]
    api[name] = spec[name]
  end
  -- As busted's: fail(message [, level]) raises a failure; it is not a global there either.
  api.fail = spec.fail
  local luassert = spec_require "luassert"
  for _, name in ipairs { "spy", "stub", "mock", "match" } do
    api[name] = spec_require("luassert." .. name)
    env[name] = api[name]
  end
  api.assert = luassert
  env.assert = luassert
  busted_api = api
  env.require = spec_require
  env.loadfile = spec_loadfile
  env.dofile = spec_dofile
  env.package = package_table
  package_table.loaded._G = env
  package_table.loaded.wayfinder = require "wayfinder"
end

return spec
