-- The LuaLS definitions (lua/wayfinder/meta/wayfinder.lua) against the module a running host
-- exports: every public name (not starting with "_") the host has is declared, with the same kind
-- (function, table, string), and every declared name exists. A binding added without an
-- annotation fails here.
local wf = require "wayfinder"

local function load_meta()
  local chunk = assert(loadfile("lua/wayfinder/meta/wayfinder.lua", "t", {}))
  return chunk()
end

-- Every public name reachable from root by pairs, as "prefix.name" -> type.
local function names(root, prefix)
  local found, seen = {}, {}
  local function walk(t, path)
    if seen[t] then return end
    seen[t] = true
    for key, value in pairs(t) do
      if type(key) == "string" and key:sub(1, 1) ~= "_" then
        local name = path .. "." .. key
        found[name] = type(value)
        if type(value) == "table" then walk(value, name) end
      end
    end
  end
  walk(root, prefix)
  return found
end

local function differences(exported, declared)
  local missing, extra = {}, {}
  for name, kind in pairs(exported) do
    if declared[name] == nil then
      missing[#missing + 1] = name
    elseif declared[name] ~= kind then
      missing[#missing + 1] = name .. " (a " .. kind .. ", declared as a " .. declared[name] .. ")"
    end
  end
  for name in pairs(declared) do
    if exported[name] == nil then extra[#extra + 1] = name end
  end
  table.sort(missing); table.sort(extra)
  return missing, extra
end

describe("the LuaLS definitions", function()
  it("declare every name the wayfinder module exports, and no other", function()
    local meta = load_meta()
    local exported, declared = names(wf, "wf"), names(meta, "wf")
    assert.equal("function", exported["wf.navigator.open"]) -- the navigator lists its methods
    local missing, extra = differences(exported, declared)
    assert.same({}, missing, "exported but not declared")
    assert.same({}, extra, "declared but not exported")
  end)

  it("declare the methods of contexts, controller classes and launched apps", function()
    local _, classes = load_meta()
    for name in pairs(classes.context) do
      assert.equal("function", type(wf.context.app[name]), "context method " .. name)
    end
    assert.equal("function", type(wf.controller("Probe").new))
    local app = assert(wf.testing.launch("lua/spec/apps/notes"))
    for name in pairs(classes.testing_app) do
      assert.equal("function", type(app[name]), "wf.testing app method " .. name)
    end
    app:close()
  end)

  it("notice a name the module has and the definitions lack", function()
    local meta = load_meta()
    local exported = names(wf, "wf")
    exported["wf.codec.invented"] = "function"
    local missing = differences(exported, names(meta, "wf"))
    assert.same({ "wf.codec.invented" }, missing)
  end)
end)
