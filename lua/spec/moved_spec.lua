-- Renamed routes: wf.map:moved(old, new) rewrites saved URLs of the old shape at restore, and
-- URLs of the old shape that no route matches when they are opened.
local wf = require "wayfinder"

local SHOP = "lua/spec/apps/shop"

local function state_with(urls)
  local entries = {}
  for i, url in ipairs(urls) do entries[i] = '{"url":"' .. url .. '"}' end
  return '{"format":"wayfinder.navigation","version":1,"app":"shop","app_version":3,"saved_at":"2026-01-01T00:00:00Z",'
    .. '"mode":"all","root":{"kind":"stack","entries":[' .. table.concat(entries, ",") .. ']},"modals":[]}'
end

-- A copy of the shop with `lines` added at the end of its app.lua.
local function shop_with(lines)
  local copy = wf.testing.copy_app(SHOP)
  wf.testing.write(copy .. "/app.lua", wf.testing.read(copy .. "/app.lua") .. lines)
  return copy
end

describe("a moved route", function()
  it("rewrites saved URLs at restore: params by name, the query and fragment kept", function()
    local copy = wf.testing.copy_app(SHOP)
    local state = copy .. "/state.json"
    wf.testing.write(state, state_with { "tt://home", "tt://item/12?ref=ad&flag&tag=a&tag=b", "tt://cart/zoe#top" })
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.same({}, app:stats().warnings)
    local urls = {}
    for i, entry in ipairs(app:tree().root.entries) do urls[i] = entry.url end
    assert.same({ "tt://home", "tt://product/12?ref=ad&flag&tag=a&tag=b", "tt://cart?owner=zoe#top" }, urls)
    assert.is_true(app:back())
    assert.same({ title = "Product 12", lines = { "from ad" }, links = {} }, app:render())
    app:close()
    assert.matches('"url":"tt://product/12%?ref=ad&flag&tag=a&tag=b"', wf.testing.read(state))
  end)

  it("rewrites an old URL when it is opened, by a script or a spec", function()
    local app = assert(wf.testing.launch(SHOP))
    assert.is_true(app:open("tt://item/9?ref=mail"))
    assert.equal("tt://product/9?ref=mail", app:url())
    assert.is_true(app:open("tt://cart/li"))
    assert.equal("tt://cart?owner=li", app:url())
    app:close()
  end)

  it("gives a URL it cannot rewrite no route, saying why", function()
    local app = assert(wf.testing.launch(SHOP))
    local ok, reason = app:open("tt://item/nine")
    assert.is_false(ok)
    assert.equal("cannot open 'tt://item/nine': no route matches; it moved to 'tt://product/nine', which no route matches", reason)
    app:close()
  end)

  it("drops at restore a saved URL it cannot rewrite, with a warning", function()
    local copy = wf.testing.copy_app(SHOP)
    local state = copy .. "/state.json"
    wf.testing.write(state, state_with { "tt://home", "tt://item/nine" })
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.equal("tt://home", app:url())
    local warnings = app:stats().warnings
    assert.equal(3, #warnings)
    assert.equal("'tt://item/nine' matches a moved route but cannot move: it moved to 'tt://product/nine', which no route matches", warnings[1])
    assert.matches("dropped 'tt://item/nine'", warnings[2])
    -- The file keeps what was dropped until the app navigates.
    assert.matches("an entry of the saved navigation state could not be restored", warnings[3])
    app:close()
  end)

  it("never moves a URL a live route matches; * does not count", function()
    local copy = shop_with [[
wf.map:from("tt://item/special", Home)
wf.map:from("*", Home)
]]
    local app = assert(wf.testing.launch(copy))
    assert.is_true(app:open("tt://item/special"))
    assert.equal("tt://item/special", app:url())
    assert.is_true(app:open("tt://item/5"))
    assert.equal("tt://product/5", app:url())
    assert.is_true(app:open("tt://elsewhere"))
    assert.equal("tt://elsewhere", app:url())
    app:close()
  end)

  it("follows a chain of moves, and keeps a tab whose URL moved", function()
    local copy = shop_with [[
wf.map:moved("tt://goods/(id)", "tt://item/(id)")
wf.map:type("sku", "[A-Z]+%d+")
wf.map:moved("tt://sku/(code:sku)", "tt://cart?owner=(code)")
wf.app { name = "shop", version = 3, tabs = { "tt://home", "tt://product/1" } }
]]
    local state = copy .. "/state.json"
    wf.testing.write(state, '{"format":"wayfinder.navigation","version":1,"app":"shop","app_version":3,"saved_at":"2026-01-01T00:00:00Z",'
      .. '"mode":"all","root":{"kind":"tabs","selected":2,"tabs":[[{"url":"tt://home"}],[{"url":"tt://goods/1"},{"url":"tt://sku/AB12"}]]},"modals":[]}')
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.same({}, app:stats().warnings, "the second tab is still the tab of tt://product/1")
    assert.equal("tt://cart?owner=AB12", app:url())
    assert.is_true(app:back())
    assert.equal("tt://product/1", app:url())
    assert.is_false(app:open("tt://sku/ab"))
    app:close()
  end)

  for _, case in ipairs {
    { "a new pattern naming a param the old does not bind", 'wf.map:moved("tt://old/(a)", "tt://product/(b)")',
      "pattern 'tt://product/%(b%)': names 'b' that the old pattern 'tt://old/%(a%)' does not bind" },
    { "an old pattern that is a live route", 'wf.map:moved("tt://product/(n:int)", "tt://home")',
      "pattern 'tt://product/%(n:int%)': is the live route 'tt://product/%(initWithProduct:int%)'" },
    { "a live route on an old pattern", 'wf.map:from("tt://item/(n)", Home)',
      "pattern 'tt://item/%(n%)': its URLs moved to 'tt://product/%(id%)'" },
    { "a cycle", 'wf.map:moved("tt://p/(id)", "tt://q/(id)")\nwf.map:moved("tt://q/(id)", "tt://r/(id)")\nwf.map:moved("tt://r/(id)", "tt://p/(id)")',
      "pattern 'tt://r/%(id%)': the moves would go round in a cycle: 'tt://r/%(id%)' %-> 'tt://p/%(id%)' %-> 'tt://q/%(id%)' %-> 'tt://r/%(id%)'" },
    { "a move onto itself", 'wf.map:moved("tt://x/(id)", "tt://x/(id)")', "cycle: 'tt://x/%(id%)' %-> 'tt://x/%(id%)'" },
    { "* as the old pattern", 'wf.map:moved("*", "tt://home")', "'%*' matches every URL; it cannot move" },
    { "* as the new pattern", 'wf.map:moved("tt://x", "*")', "'%*' cannot generate URLs" },
    { "a pattern that is not one", 'wf.map:moved("tt://x/(", "tt://home")', "pattern 'tt://x/%('" },
    { "a pattern of another type", "wf.map:moved(1, 'tt://home')", "map:moved needs the old pattern %(a string%), got number" },
    { "a call with a dot", "wf.map.moved('tt://x', 'tt://home')", "call it as wf%.map:moved%(%.%.%.%), with a colon" },
  } do
    it("refuses " .. case[1] .. " at load, naming the script's line", function()
      local copy = wf.testing.copy_app(SHOP)
      local source = wf.testing.read(copy .. "/app.lua")
      local lines = select(2, source:gsub("\n", "\n"))
      wf.testing.write(copy .. "/app.lua", source .. case[2] .. "\n")
      local app, reason = wf.testing.launch(copy)
      assert.is_nil(app)
      local line = lines + select(2, case[2]:gsub("\n", "\n")) + 1
      assert.matches("app%.lua:" .. line .. ": .*" .. case[3], reason)
    end)
  end
end)
