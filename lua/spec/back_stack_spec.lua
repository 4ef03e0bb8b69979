-- Back stacks from the link: a route's parent may be a pattern filled from the route's own
-- params, or a function of the match, so a link deep into the app lands with its way back built.
local wf = require "wayfinder"

local CATALOG = "lua/spec/apps/catalog"

local function urls(stack)
  local list = {}
  for i, entry in ipairs(stack) do list[i] = entry.url end
  return list
end

describe("a parent pattern", function()
  local app
  before_each(function() app = assert(wf.testing.launch(CATALOG)) end)
  after_each(function() app:close() end)

  it("is filled from the child's params, each parent bringing its own", function()
    assert.is_true(app:handle_link("tt://cat/shoes/item/3"))
    assert.same({ "tt://home", "tt://cat/shoes", "tt://cat/shoes/item/3" }, urls(app:tree().root.entries))
    assert.is_true(app:back())
    assert.equal("tt://cat/shoes", app:url())
  end)

  it("fills each open with that open's params, escaping what needs it", function()
    assert.is_true(app:open("tt://cat/hats/item/1"))
    assert.same({ "tt://home", "tt://cat/hats", "tt://cat/hats/item/1" }, urls(app:tree().root.entries))
    -- Home, the grandparent, is already there: it comes forward, and the new category goes on it.
    assert.is_true(app:open("tt://cat/red%20shoes/item/2"))
    assert.same({ "tt://home", "tt://cat/red%20shoes", "tt://cat/red%20shoes/item/2" }, urls(app:tree().root.entries))
  end)

  it("brings forward a parent already showing instead of opening it again", function()
    assert.is_true(app:open("tt://cat/shoes"))
    assert.is_true(app:open("tt://cat/shoes/item/3"))
    assert.same({ "tt://home", "tt://cat/shoes", "tt://cat/shoes/item/3" }, urls(app:tree().root.entries))
  end)
end)

describe("a parent function", function()
  local app
  before_each(function() app = assert(wf.testing.launch(CATALOG)) end)
  after_each(function() app:close() end)

  it("is asked with the match and may answer no parent", function()
    assert.is_true(app:handle_link("tt://sale/7"))
    assert.same({ "tt://home", "tt://cat/sale-7", "tt://sale/7" }, urls(app:tree().root.entries))
    assert.is_true(app:open("tt://sale/500"))
    assert.same({ "tt://home", "tt://cat/sale-7", "tt://sale/7", "tt://sale/500" }, urls(app:tree().root.entries))
  end)
end)

describe("a parent at load", function()
  local Page = wf.controller "BackStackPage"
  function Page:init() end

  local function refusal(fn)
    local ok, message = pcall(fn)
    assert.is_false(ok)
    return message
  end

  it("that needs a param the route does not have is refused at the script's line", function()
    local line = debug.getinfo(1, "l").currentline + 1
    local message = refusal(function() wf.map:from("tt://x/(id:int)", Page, { parent = "tt://cat/(c)" }) end)
    assert.matches("back_stack_spec.lua:" .. line .. ": ", message, 1, true)
    assert.matches("parent 'tt://cat/(c)' cannot be filled", message, 1, true)
    assert.matches("needs the param 'c', which 'tt://x/(id:int)' does not have (its params: id)", message, 1, true)
    assert.is_nil((wf.map:match("tt://x/1")))
  end)

  it("refuses an anonymous param, a non-URL and a value that is neither text nor a function", function()
    assert.matches("anonymous param", refusal(function() wf.map:from("tt://y/(c)", Page, { parent = "tt://cat/()" }) end), 1, true)
    assert.matches("is not a URL", refusal(function() wf.map:from("tt://y/(c)", Page, { parent = "no url" }) end), 1, true)
    assert.matches("option 'parent' must be a URL, a pattern of the route's params or a function, got an integer",
      refusal(function() wf.map:from("tt://y/(c)", Page, { parent = 4 }) end), 1, true)
    assert.is_nil((wf.map:match("tt://y/1")))
  end)

  it("reports a pattern as given and a function as the function", function()
    local function above() return nil end
    wf.map:from("tt://z/(c)/(d)", Page, { parent = "tt://cat/(c)" })
    wf.map:from("tt://w/(c)", Page, { parent = above })
    assert.equal("tt://cat/(c)", wf.map:match("tt://z/a/b").parent)
    assert.equal(above, wf.map:match("tt://w/a").parent)
  end)
end)

describe("a parent function that answers wrongly", function()
  it("fails the open, naming the function's line, the tree unchanged", function()
    local app = assert(wf.testing.launch(CATALOG))
    local before = app:tree()
    local ok, reason = app:open("tt://odd")
    assert.is_false(ok)
    assert.matches("the parent function of 'tt://odd' (app.lua:19) returned an integer; it must return a URL string or nil",
      reason, 1, true)
    assert.same(before, app:tree())
    app:close()
  end)
end)
