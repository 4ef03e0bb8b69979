-- Tables that are not plain data (array items mixed with string keys) in an action's query and
-- in a context: kept by reference while the app runs, left out of the saved state alone, by key.
local wf = require "wayfinder"

local APP = [[
local wf = require "wayfinder"
local Page = wf.controller "Page"
function Page:init(route)
  self.seen = {}
  for key, value in pairs(route.query) do self.seen[#self.seen + 1] = tostring(key) .. "=" .. type(value) end
  table.sort(self.seen)
end
function Page:render() return { title = self.url, lines = self.seen } end
wf.map:from("tt://page/(id)", Page)
-- Actions that open with a query table, as a script would.
wf.map:from("tt://mixed", function()
  return wf.navigator:open { url = "tt://page/2", query = { items = { 1, x = 3 }, n = 2 } } ~= nil
end, { mode = "none" })
wf.map:from("tt://mixed-query", function()
  return wf.navigator:open { url = "tt://page/3", query = { 1, x = 3 } } ~= nil
end, { mode = "none" })
wf.map:from("tt://remember", function()
  local list = { 1, x = 3 }
  wf.context.app:set("list", list)
  wf.context.app:set("kept", "yes")
  assert(wf.context.app:get("list") == list, "held by reference")
end, { mode = "none" })
wf.app { name = "plain", root = "tt://page/home", persistence = "all" }
]]

local function launch_copy()
  local dir = wf.testing.copy_app("lua/spec/apps/notes")
  wf.testing.write(dir .. "/app.lua", APP)
  return assert(wf.testing.launch(dir))
end

describe("a mixed table in an action's query", function()
  local app
  before_each(function() app = launch_copy() end)
  after_each(function() app:close() end)

  it("drops only that value from the saved query, with a warning naming its key", function()
    assert.is_true(app:open("tt://page/1"))
    assert.is_true(app:open("tt://mixed"))
    assert.same({ "items=table", "n=number" }, app:render().lines)
    assert.is_true(app:relaunch())
    assert.equal("tt://page/2", app:url())
    assert.same({ "n=number" }, app:render().lines)
    local warned = false
    for _, warning in ipairs(app:stats().warnings) do
      if warning:find("query.items (a table) cannot be written", 1, true) then warned = true end
    end
    assert.is_true(warned)
  end)

  it("keeps the string keys of a query table that has array items too", function()
    assert.is_true(app:open("tt://mixed-query"))
    assert.same({ "1=number", "x=number" }, app:render().lines)
    assert.is_true(app:relaunch())
    assert.same({ "x=number" }, app:render().lines)
    local warned = false
    for _, warning in ipairs(app:stats().warnings) do
      if warning:find("query key 1 (not a string)", 1, true) then warned = true end
    end
    assert.is_true(warned)
  end)
end)

describe("a mixed table as a context value", function()
  it("is stored by reference and left out of the saved state by its key", function()
    local app = launch_copy()
    assert.is_true(app:open("tt://remember"))
    assert.is_true(app:relaunch())
    local warned = false
    for _, warning in ipairs(app:stats().warnings) do
      if warning:find("the app context: list (a table) cannot be written", 1, true) then warned = true end
    end
    assert.is_true(warned)
    app:close()
  end)
end)
