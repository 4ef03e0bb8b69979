-- Routes by name: wf.url_for_route, nav:open { route = ..., params = ... } and app:open_route fill
-- a named route's pattern from its params, and refuse a missing, unknown or mistyped param at the
-- caller's line, naming the route and the param.
local wf = require "wayfinder"

local Item = wf.controller "NamedItem"
function Item:init(route) self.url = route.url end

wf.map:from("tt://shelf/(c)/item/(id:int)", Item, { name = "shelf_item" })
wf.map:from("tt://find?q=(q)", Item, { name = "find" })
wf.map:from("tt://loose/()", Item, { name = "loose" })

-- The message of the error `fn` raises, and the line it is expected at (the line after the call
-- to here).
local function raised(fn)
  local line = debug.getinfo(2, "l").currentline
  local ok, message = pcall(fn)
  assert.is_false(ok)
  return message, "named_routes_spec.lua:" .. line .. ": "
end

describe("wf.url_for_route", function()
  it("fills the named route's pattern from its params, escaping as URLs are", function()
    assert.equal("tt://shelf/red%20shoes/item/3", wf.url_for_route("shelf_item", { c = "red shoes", id = 3 }))
    assert.equal("tt://find?q=a%26b", wf.url_for_route("find", { q = "a&b" }))
    assert.equal("tt://find?q=x", wf.map:url_for_route("find", { q = "x" }))
  end)

  it("refuses a missing param at the caller's line, naming the route and the param", function()
    local message, at = raised(function() wf.url_for_route("shelf_item", { c = "hats" }) end)
    assert.equal(at .. "route 'shelf_item' (tt://shelf/(c)/item/(id:int)) needs the param 'id' (its params: c, id)", message)
    message, at = raised(function() wf.url_for_route("find") end)
    assert.equal(at .. "route 'find' (tt://find?q=(q)) needs the param 'q' (its params: q)", message)
  end)

  it("refuses an unknown param and a mistyped one", function()
    local message, at = raised(function() wf.url_for_route("shelf_item", { c = "hats", id = 3, colour = "red" }) end)
    assert.equal(at .. "route 'shelf_item' (tt://shelf/(c)/item/(id:int)) has no param 'colour' (its params: c, id)", message)
    message, at = raised(function() wf.url_for_route("shelf_item", { c = "hats", id = "three" }) end)
    assert.equal(at .. "route 'shelf_item' (tt://shelf/(c)/item/(id:int)): param 'id' = 'three' is not a valid int", message)
    message = raised(function() wf.url_for_route("shelf_item", { c = "hats", id = 2.5 }) end)
    assert.matches("param 'id'", message, 1, true)
    message = raised(function() wf.url_for_route("shelf_item", { c = {}, id = 1 }) end)
    assert.matches("route 'shelf_item' (tt://shelf/(c)/item/(id:int)): param 'c' is a table", message, 1, true)
  end)

  it("refuses a name no route has, a route it cannot fill, and arguments of the wrong type", function()
    local message, at = raised(function() wf.url_for_route("nowhere", {}) end)
    assert.matches(at .. "no route is named 'nowhere' (named: ", message, 1, true)
    assert.matches("find", message, 1, true)
    message = raised(function() wf.url_for_route("loose", {}) end)
    assert.matches("cannot be opened by name", message, 1, true)
    message, at = raised(function() wf.url_for_route(7) end)
    assert.equal(at .. "wf.url_for_route needs a route name (a string), got number", message)
    message, at = raised(function() wf.url_for_route("find", "q") end)
    assert.equal(at .. "wf.url_for_route('find', params): params must be a table, got string", message)
  end)
end)

describe("nav:open { route = ..., params = ... }", function()
  it("refuses a missing param at the caller's line before anything opens", function()
    local message, at = raised(function() wf.navigator:open { route = "shelf_item", params = { id = 1 } } end)
    assert.equal(at .. "nav:open: route 'shelf_item' (tt://shelf/(c)/item/(id:int)) needs the param 'c' (its params: c, id)", message)
    message, at = raised(function() wf.navigator:open { route = "find", url = "tt://find?q=1", params = { q = 1 } } end)
    assert.equal(at .. "nav:open: give the action a url or a route, not both", message)
    message, at = raised(function() wf.navigator:open { url = "tt://find?q=1", params = { q = 1 } } end)
    assert.equal(at .. "nav:open: action field 'params' goes with 'route' (the route's name)", message)
    message, at = raised(function() wf.navigator:replace { route = "find", params = { x = 1 } } end)
    assert.equal(at .. "nav:replace: route 'find' (tt://find?q=(q)) has no param 'x' (its params: q)", message)
  end)
end)

describe("app:open_route", function()
  local app
  before_each(function() app = assert(wf.testing.launch("lua/spec/apps/catalog")) end)
  after_each(function() app:close() end)

  it("opens the app's own named route, its back stack built", function()
    assert.is_true(app:open_route("item", { c = "shoes", id = 3 }))
    assert.equal("tt://cat/shoes/item/3", app:url())
    assert.equal(3, #app:tree().root.entries)
  end)

  it("refuses a mistyped param at the spec's line, the app unchanged", function()
    local before = app:tree()
    local message, at = raised(function() app:open_route("item", { c = "shoes", id = "x" }) end)
    assert.equal(at .. "app:open_route: route 'item' (tt://cat/(c)/item/(id:int)): param 'id' = 'x' is not a valid int", message)
    message, at = raised(function() app:open_route("shelf_item", { c = "a", id = 1 }) end)
    assert.matches(at .. "app:open_route: no route is named 'shelf_item' (named: item, category)", message, 1, true)
    assert.same(before, app:tree())
  end)
end)
