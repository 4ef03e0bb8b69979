-- Web links onto app routes: wf.app's link_prefixes read a link under an outside prefix as the
-- app URL under the inside one, which then goes through the door every link from outside takes.
local wf = require "wayfinder"

local CATALOG = "lua/spec/apps/catalog"

local function urls(stack)
  local list = {}
  for i, entry in ipairs(stack) do list[i] = entry.url end
  return list
end

describe("a web link under a link prefix", function()
  local app
  before_each(function() app = assert(wf.testing.launch(CATALOG)) end)
  after_each(function() app:close() end)

  it("opens the app route under the inside prefix, with its back stack", function()
    assert.is_true(app:handle_link("https://shop.example.com/cat/shoes/item/3"))
    assert.same({ "tt://home", "tt://cat/shoes", "tt://cat/shoes/item/3" }, urls(app:tree().root.entries))
  end)

  it("takes the longest prefix, its scheme and host in any case", function()
    assert.is_true(app:handle_link("HTTPS://shop.EXAMPLE.com/m/hats"))
    assert.equal("tt://cat/hats", app:url())
  end)

  it("is refused as any link is when its route is not external, changing nothing", function()
    local before = app:tree()
    local ok, reason = app:handle_link("https://shop.example.com/odd")
    assert.is_false(ok)
    assert.equal("cannot open 'tt://odd' from outside the app: its route 'tt://odd' is not marked external", reason)
    ok, reason = app:handle_link("https://shop.example.com/nothing/here")
    assert.is_false(ok)
    assert.matches("no route matches", reason)
    assert.same(before, app:tree())
  end)

  it("is read only under a whole prefix: another host, and a path that differs in case, are not the shop's", function()
    local ok, reason = app:handle_link("https://shop.example.com.elsewhere.net/cat/shoes")
    assert.is_false(ok)
    assert.matches("no route uses the scheme 'https'", reason)
    ok, reason = app:handle_link("https://shop.example.com/M/hats")
    assert.is_false(ok)
    assert.matches("'tt://M/hats'", reason, 1, true)
  end)

  it("is not read so when the app opens it itself", function()
    app:open("https://shop.example.com/cat/shoes")
    assert.same({ "tt://home" }, urls(app:tree().root.entries))
  end)
end)
