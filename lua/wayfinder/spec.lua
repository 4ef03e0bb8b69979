-- Specs written in Lua, in busted's vocabulary (LUA-API.md, "Tests written in Lua"): describe,
-- it, pending, before_each, after_each, setup, teardown, and assert with equal, same, truthy,
-- falsy, is_true, is_false, is_nil, not_nil, has_error, matches (also as assert.are.equal and
-- assert.are.same). Loading a spec file only records its blocks and tests; the host runs them,
-- one call per step, so every step has the host's time budget and an error's traceback.
local spec = {}

local function new_block(name)
  return { kind = "block", name = name, children = {}, setup = {}, teardown = {}, before_each = {}, after_each = {} }
end

local root = new_block(nil)
local current = root

local function check_name(what, name)
  if type(name) ~= "string" then error(what .. " needs a name (a string), got " .. type(name), 3) end
end

local function check_fn(what, fn)
  if type(fn) ~= "function" then error(what .. " needs a function, got " .. type(fn), 3) end
end

function spec.describe(name, fn)
  check_name("describe", name); check_fn("describe", fn)
  local block = new_block(name)
  current.children[#current.children + 1] = block
  local outer = current
  current = block
  fn()
  current = outer
end

-- it(name, fn); without fn the test is pending.
function spec.it(name, fn)
  check_name("it", name)
  if fn ~= nil then check_fn("it", fn) end
  current.children[#current.children + 1] = { kind = "test", name = name, fn = fn, pending = fn == nil }
end

function spec.pending(name)
  check_name("pending", name)
  current.children[#current.children + 1] = { kind = "test", name = name, pending = true }
end

for _, hook in ipairs { "before_each", "after_each", "setup", "teardown" } do
  spec[hook] = function(fn)
    check_fn(hook, fn)
    local list = current[hook]
    list[#list + 1] = fn
  end
end

-- Assertions. -----------------------------------------------------------------------------

-- How a value reads in a failure message: strings quoted, tables written out (keys sorted,
-- nesting cut at depth 4), anything else by tostring.
local function show(value, depth)
  depth = depth or 0
  if type(value) == "string" then return string.format("%q", value) end
  if type(value) ~= "table" or getmetatable(value) ~= nil then return tostring(value) end
  if depth >= 4 then return "{...}" end
  local keys = {}
  for key in pairs(value) do keys[#keys + 1] = key end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
    return type(a) < type(b)
  end)
  local parts, n = {}, #value
  for _, key in ipairs(keys) do
    local shown = show(value[key], depth + 1)
    if math.type(key) == "integer" and key >= 1 and key <= n then
      parts[#parts + 1] = shown
    else
      local label = type(key) == "string" and key:match("^[%a_][%w_]*$") and key or ("[" .. show(key, depth + 1) .. "]")
      parts[#parts + 1] = label .. " = " .. shown
    end
  end
  return "{ " .. table.concat(parts, ", ") .. " }"
end

local function deep_equal(a, b, seen)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  seen = seen or {}
  if seen[a] == b then return true end
  seen[a] = b
  for key, value in pairs(a) do
    if not deep_equal(value, b[key], seen) then return false end
  end
  for key in pairs(b) do
    if a[key] == nil then return false end
  end
  return true
end

-- Raises a failure at the spec's line (two levels up: the spec called the assertion).
local function fail(message, expected, actual, has_values)
  local text = message
  if has_values then text = text .. "\nexpected: " .. show(expected) .. "\nactual:   " .. show(actual) end
  spec._assertion_failed = true
  error(text, 3)
end

local checks = {}

function checks.equal(expected, actual, message)
  if expected ~= actual then fail(message or "expected values to be equal", expected, actual, true) end
end

function checks.same(expected, actual, message)
  if not deep_equal(expected, actual) then fail(message or "expected values to be the same", expected, actual, true) end
end

function checks.truthy(value, message)
  if not value then fail(message or "expected a truthy value", "not nil or false", value, true) end
end

function checks.falsy(value, message)
  if value then fail(message or "expected a falsy value", "nil or false", value, true) end
end

function checks.is_true(value, message)
  if value ~= true then fail(message or "expected true", true, value, true) end
end

function checks.is_false(value, message)
  if value ~= false then fail(message or "expected false", false, value, true) end
end

function checks.is_nil(value, message)
  if value ~= nil then fail(message or "expected nil", nil, value, true) end
end

function checks.not_nil(value, message)
  if value == nil then fail(message or "expected a value, got nil") end
end

-- has_error(fn [, expected]): fn must raise; with `expected`, its message must be that (with or
-- without the "file:line: " Lua puts in front).
function checks.has_error(fn, expected, message)
  if type(fn) ~= "function" then fail("assert.has_error needs a function, got " .. type(fn)) end
  local ok, err = pcall(fn)
  spec._assertion_failed = false -- an assertion that failed inside fn was expected
  if ok then fail(message or "expected an error", expected or "an error", "no error", true) end
  if expected ~= nil then
    local text = type(err) == "string" and err or nil
    local bare = text and text:gsub("^[^\n]-:%d+: ", "", 1)
    if not (err == expected or bare == expected) then
      fail(message or "expected a different error", expected, err, true)
    end
  end
end

function checks.matches(pattern, text, message)
  if type(text) ~= "string" or not text:find(pattern) then
    fail(message or ("expected a string matching " .. show(pattern)), pattern, text, true)
  end
end

checks.is_not_nil = checks.not_nil
checks.error = checks.has_error

local assert_table = setmetatable({}, {
  -- assert(value [, message]) still works as Lua's assert.
  __call = function(_, value, message, ...)
    if not value then
      spec._assertion_failed = true
      error(message or "assertion failed!", 2)
    end
    return value, message, ...
  end,
  __index = function(_, name)
    local check = checks[name]
    if check == nil then error("assert." .. tostring(name) .. " is not an assertion", 2) end
    return check
  end,
})
rawset(assert_table, "are", setmetatable({}, { __index = function(_, name) return assert_table[name] end }))
rawset(assert_table, "is", assert_table.are)
spec.assert = assert_table

-- What the host calls. ---------------------------------------------------------------------

-- The recorded blocks and tests.
function spec._tree()
  return root
end

-- Whether the last error came from an assertion (a failure) rather than the code (an error).
function spec._take_failure()
  local failed = spec._assertion_failed == true
  spec._assertion_failed = false
  return failed
end

-- Makes the vocabulary global, as busted does.
function spec._install(env)
  require("wayfinder").testing = require "wayfinder.testing"
  for _, name in ipairs { "describe", "it", "pending", "before_each", "after_each", "setup", "teardown", "assert" } do
    env[name] = spec[name]
  end
end

return spec
