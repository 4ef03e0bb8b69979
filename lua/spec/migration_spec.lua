-- State versions and migrations: a state records the version of the app that saved it; an older
-- one goes through the app's migrate before it is restored, a newer one is set aside.
local wf = require "wayfinder"

local SHOP = "lua/spec/apps/shop"

-- A state file as version `version` of the shop wrote it: a cart with its lines as one text,
-- over the home screen, sharing one context layer.
local function version_2_state(version)
  return '{"format":"wayfinder.navigation","version":1,"app":"shop","app_version":' .. version .. ','
    .. '"saved_at":"2026-01-01T00:00:00Z","mode":"all",'
    .. '"root":{"kind":"stack","entries":[{"url":"tt://home","context":1},'
    .. '{"url":"tt://cart/ann?ref=mail","state":{"count":"2 pears, 1 fig"},"context":1}]},'
    .. '"modals":[],"contexts":[{"name":"app","app":true,"values":{"theme":"dark","cleared":null}},{"inner":0,"values":{"seen":true}}]}'
end

local function exists(path)
  return (pcall(wf.testing.read, path))
end

local function moved_to(warning)
  return assert(warning:match("it was moved to (%S+) and the app starts fresh"), warning)
end

-- A copy of the shop whose migrate is `body` (the function's body, with state and from).
local function shop_migrating(body)
  local copy = wf.testing.copy_app(SHOP)
  local source = wf.testing.read(copy .. "/app.lua")
  local start = assert(source:find("  migrate = function(state, from)", 1, true))
  wf.testing.write(copy .. "/app.lua", source:sub(1, start - 1) .. "  migrate = function(state, from, to)\n" .. body .. "\n  end,\n}\n")
  return copy
end

-- The shop launched from a copy that says it is version 2, with the copy and its own source, so a
-- test can save the source (version 3) over it as a hot reload.
local function launched_at_version_2()
  local copy = wf.testing.copy_app(SHOP)
  local source = wf.testing.read(copy .. "/app.lua")
  wf.testing.write(copy .. "/app.lua", (source:gsub("version = 3", "version = 2")))
  return assert(wf.testing.launch(copy)), copy, source
end

describe("a state of an older version", function()
  it("is migrated from version 2 to version 3 before it is restored", function()
    local copy = wf.testing.copy_app(SHOP)
    local state = copy .. "/state.json"
    wf.testing.write(state, version_2_state(2))
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.same({}, app:stats().warnings)
    -- The moved URL, the migrated screen state, the query carried over.
    assert.equal("tt://cart?owner=ann&ref=mail", app:url())
    assert.same({ title = "Cart of ann", lines = { "2 x pears", "1 x fig" }, links = {} }, app:render())
    app:close()
    local saved = wf.testing.read(state)
    assert.matches('"app_version":3', saved)
    assert.matches('"cleared":null', saved, "a stored nil of a context survives the migration")

    -- Version 3 is not migrated again (its lines are no longer text).
    local again = assert(wf.testing.launch(copy, { state = state }))
    assert.same({ "2 x pears", "1 x fig" }, again:render().lines)
    assert.same({}, again:stats().warnings)
    again:close()
  end)

  it("hands migrate the tree by name, contexts shared as tables, and the versions", function()
    local copy = shop_migrating([[
    assert(from == 1 and to == 3, "versions " .. tostring(from) .. " " .. tostring(to))
    assert(state.app == "shop" and state.mode == "all" and state.saved_at == "2026-01-01T00:00:00Z")
    assert(state.tabs == nil and #state.stack == 2 and #state.modals == 0 and state.popover == nil)
    local home, cart = state.stack[1], state.stack[2]
    assert(home.url == "tt://home" and home.important == false and home.state == nil)
    assert(cart.url == "tt://cart/ann?ref=mail" and cart.state.count == "2 pears, 1 fig")
    assert(home.context == cart.context, "one layer, one table")
    assert(cart.context.values.seen == true and cart.context.app == nil)
    local app = cart.context.inner
    assert(app.app == true and app.name == "app" and app.values.theme == "dark" and app.nils.cleared == true)
    cart.state = { lines = { { name = "plum", quantity = 3 } } }
    state.stack = { cart, home }
    app.values.theme = "light"
    return state]])
    local state = copy .. "/state.json"
    wf.testing.write(state, version_2_state(1))
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.same({}, app:stats().warnings)
    assert.equal("tt://home", app:url())
    assert.is_true(app:back())
    assert.equal("tt://cart?owner=ann&ref=mail", app:url())
    assert.same({ "3 x plum" }, app:render().lines)
    app:close()
    local saved = wf.testing.read(state)
    assert.matches('"theme":"light"', saved)
    assert.matches('"app_version":3', saved)
  end)

  it("lets migrate change the tree's shape: tabs, a modal, a popover", function()
    local copy = shop_migrating([[
    local cart = state.stack[2]
    state.stack = nil
    state.tabs = { { { url = "tt://home" } }, { { url = "tt://product/4" } } }
    state.selected = 2
    state.modals = { { cart } }
    state.popover = { url = "tt://product/5", title = "Five" }
    return state]])
    local state = copy .. "/state.json"
    wf.testing.write(state, version_2_state(2))
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.same({}, app:stats().warnings)
    local tree = app:tree()
    assert.equal(2, tree.root.selected)
    assert.equal("tt://product/5", tree.popover.url)
    assert.equal("tt://cart?owner=ann&ref=mail", tree.modals[1].entries[1].url)
    assert.is_true(app:dismiss())
    assert.is_true(app:dismiss())
    assert.equal("tt://product/4", app:url())
    app:close()
  end)

  it("is restored as it is by an app that raised its version without a migrate", function()
    local copy = wf.testing.copy_app(SHOP)
    local source = wf.testing.read(copy .. "/app.lua")
    local start = assert(source:find("  migrate = function(state, from)", 1, true))
    wf.testing.write(copy .. "/app.lua", source:sub(1, start - 1) .. "}\n")
    local state = copy .. "/state.json"
    wf.testing.write(state, version_2_state(2))
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.same({}, app:stats().warnings)
    assert.equal("tt://cart?owner=ann&ref=mail", app:url())
    app:close()
    assert.matches('"app_version":3', wf.testing.read(state))
  end)

  local failures = {
    { "raises", 'error("no such shelf")', "app%.lua:63: no such shelf" },
    { "loops", "while true do end", "app%.lua:63: time budget of 50 ms exceeded" },
    { "returns nothing", "state.stack = {}", "it returned nothing, not the state table" },
    { "returns a number", "return 42", "it returned a number, not the state table" },
    { "returns an entry without a URL", "state.stack[1].url = nil return state", "stack%[1%]%.url must be a string, got nil" },
    { "returns a function in a screen's state", "state.stack[2].state.f = print return state", "stack%[2%]%.state%.f is a function, not plain data" },
    { "returns a field it does not know", "state.stack[1].titel = 'x' return state", "stack%[1%] has an unknown field 'titel'" },
    { "returns both a stack and tabs", "state.tabs = { state.stack } return state", "has both stack and tabs" },
    { "returns a tab number out of range", "state.tabs = { state.stack } state.stack = nil state.selected = 2 return state",
      "selected must be a tab number from 1 to 1, got 2" },
    { "returns a context chained to itself", "local c = state.stack[1].context c.inner = c return state", "stack%[1%]%.context%.inner chains back to itself" },
    { "returns two app contexts", "state.stack[1].context.app = true return state", "more than one app context" },
    { "returns a waiting open that is not a table", "state.pending = 'tt://home' return state", "pending must be a table, got string" },
    { "returns a waiting open without a URL", "state.pending = { since = state.saved_at } return state", "pending%.url must be a string, got nil" },
    { "returns a waiting open without its time", "state.pending = { url = 'tt://home' } return state", "pending%.since must be a string, got nil" },
    { "returns a waiting open whose time is not a time", "state.pending = { url = 'tt://home', since = 'yesterday' } return state",
      "pending%.since: 'yesterday' is not a time such as 2026%-01%-01T00:00:00Z" },
    { "returns a waiting open with a field it does not know", "state.pending = { url = 'tt://home', since = state.saved_at, when = 1 } return state",
      "pending has an unknown field 'when'" },
    { "returns a waiting open with a presentation the host does not know",
      "state.pending = { url = 'tt://home', since = state.saved_at, presentation = 'sideways' } return state",
      "pending%.presentation: must be one of push, replace, replace_root, clear_all, refresh, pop, none; got 'sideways'" },
    { "returns a waiting open with a function in its state",
      "state.pending = { url = 'tt://home', since = state.saved_at, state = { f = print } } return state", "pending%.state%.f is a function, not plain data" },
    { "returns a waiting open whose link is not a boolean",
      "state.pending = { url = 'tt://home', since = state.saved_at, link = 'yes' } return state", "pending%.link must be a boolean, got string" },
  }
  for _, case in ipairs(failures) do
    it("starts fresh, the old file kept aside, when migrate " .. case[1], function()
      local copy = shop_migrating(case[2])
      local state = copy .. "/state.json"
      local text = version_2_state(2)
      wf.testing.write(state, text)
      local app = assert(wf.testing.launch(copy, { state = state, time_limit = 50 }))
      assert.equal("tt://home", app:url())
      local warnings = app:stats().warnings
      assert.equal(1, #warnings, table.concat(warnings, "\n"))
      assert.matches("the saved navigation state could not be migrated: its migration from version 2 to 3 "
        .. "%(migrate at app%.lua:62%) failed: .*" .. case[3], warnings[1])
      local aside = moved_to(warnings[1])
      assert.matches("state%.json%.unmigrated%-%d+T%d+Z$", aside)
      assert.equal(text, wf.testing.read(aside))
      app:close()
      assert.matches('"app_version":3', wf.testing.read(state))
    end)
  end
end)

-- The open a guard kept waiting (docs/persistence.md, "An open that waits for its guard") is part
-- of the state migrate sees: as state.pending, by name, to rewrite or drop.
describe("the waiting open of an older state", function()
  -- Ten minutes after the states above were saved: their waiting opens are still fresh.
  local function soon() return 1767226200 end
  local function with_pending(text, pending)
    return (text:gsub(',"contexts":', ',"pending":' .. pending .. ',"contexts":', 1))
  end
  local BASKET = '{"url":"tt://basket/4","query":{"note":"ring"},"parent":"tt://home","state":{"step":2},'
    .. '"presentation":"replace","link":true,"since":"2026-01-01T00:05:00Z"}'

  it("is handed to migrate as state.pending, by name, and what it rewrites waits", function()
    local copy = shop_migrating([[
    local p = state.pending
    assert(p.url == "tt://basket/4" and p.query.note == "ring" and p.parent == "tt://home" and p.state.step == 2,
      "the action's fields")
    assert(p.presentation == "replace" and p.link == true and p.since == "2026-01-01T00:05:00Z", "how and when")
    p.query.note = "knock"
    p.state.step = 3
    p.presentation = "push"
    return state]])
    local state = copy .. "/state.json"
    wf.testing.write(state, with_pending(version_2_state(2), BASKET))
    local app = assert(wf.testing.launch(copy, { state = state, clock = soon }))
    assert.same({}, app:stats().warnings)
    -- Migrated, then moved as every saved URL is; its guard still stops it.
    assert.same({ url = "tt://checkout/4", link = true, presentation = "push", since = 1767225900 }, app:pending())
    app:close()
    local saved = wf.testing.read(state)
    assert.matches('"pending":{"url":"tt://checkout/4","query":{"note":"knock"},"parent":"tt://home","state":{"step":3},'
      .. '"presentation":"push","link":true,"since":"2026%-01%-01T00:05:00Z"}', saved)
    -- Paying lets it through.
    app = assert(wf.testing.launch(copy, { state = state, clock = soon }))
    assert.is_true(app:open("tt://pay"))
    assert.equal("tt://checkout/4", app:url())
    assert.is_nil(app:pending())
    app:close()
  end)

  it("is migrated with the entries by the app's own migrate, then opens when nothing stops it", function()
    local copy = wf.testing.copy_app(SHOP)
    local state = copy .. "/state.json"
    wf.testing.write(state, with_pending(version_2_state(2), '{"url":"tt://cart/bo","state":{"count":"3 plums"},"since":"2026-01-01T00:05:00Z"}'))
    local app = assert(wf.testing.launch(copy, { state = state, clock = soon }))
    assert.same({}, app:stats().warnings)
    assert.equal("tt://cart?owner=bo", app:url())
    assert.same({ "3 x plums" }, app:render().lines)
    assert.is_nil(app:pending())
    app:close()
  end)

  it("may be dropped by migrate, or given to a state that had none", function()
    local copy = shop_migrating("state.pending = nil return state")
    local state = copy .. "/state.json"
    wf.testing.write(state, with_pending(version_2_state(2), BASKET))
    local app = assert(wf.testing.launch(copy, { state = state, clock = soon }))
    assert.same({}, app:stats().warnings)
    assert.is_nil(app:pending())
    assert.equal("tt://cart?owner=ann&ref=mail", app:url())
    app:close()
    assert.is_nil(wf.testing.read(state):find('"pending"', 1, true))

    copy = shop_migrating('state.pending = { url = "tt://checkout/9", link = true, since = state.saved_at } return state')
    state = copy .. "/state.json"
    wf.testing.write(state, version_2_state(2))
    app = assert(wf.testing.launch(copy, { state = state, clock = soon }))
    assert.same({ url = "tt://checkout/9", link = true, since = 1767225600 }, app:pending())
    app:close()
  end)

  it("that migrate makes older than its expiration is dropped at restore, with a warning", function()
    local copy = shop_migrating('state.pending.since = "2025-12-31T00:00:00Z" return state')
    local state = copy .. "/state.json"
    wf.testing.write(state, with_pending(version_2_state(2), BASKET))
    local app = assert(wf.testing.launch(copy, { state = state, clock = soon }))
    assert.is_nil(app:pending())
    assert.same({ "dropped the pending 'tt://checkout/4': it waited longer than 3600 s" }, app:stats().warnings)
    app:close()
  end)

  it("goes through migrate at a hot reload that raises the version", function()
    local app, copy, source = launched_at_version_2()
    local ok, reason = app:handle_link("tt://checkout/5")
    assert.is_false(ok)
    assert.matches("waits: its guard stopped it", reason)
    assert.equal("tt://checkout/5", app:pending().url)
    wf.testing.write(copy .. "/app.lua", (source:gsub("if from <= 2 then", [[if from == 2 and state.pending then
      state.pending.url = "tt://checkout/50"
    end
    if false then]])))
    assert.is_true(app:reload())
    assert.equal("tt://checkout/50", app:pending().url)
    assert.is_true(app:open("tt://pay"))
    assert.equal("tt://checkout/50", app:url())
    app:close()
  end)
end)

describe("a migration", function()
  it("may not save, restore or navigate: the state it migrates is the one the file holds", function()
    local copy = shop_migrating([[
    local saved, why = wf.navigator:persist()
    assert(saved == nil and why:find("while the saved one is being restored", 1, true), tostring(why))
    local restored, why_not = wf.navigator:restore()
    assert(restored == nil and why_not:find("while the saved one is being restored", 1, true), tostring(why_not))
    local opened, refusal = wf.navigator:open("tt://product/9")
    assert(opened == nil and refusal:find("busy with migrating the saved state", 1, true), tostring(refusal))
    return state]])
    local state = copy .. "/state.json"
    wf.testing.write(state, version_2_state(2))
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.same({}, app:stats().warnings)
    assert.equal("tt://cart?owner=ann&ref=mail", app:url())
    app:close()
  end)

  it("that saved before it raised has not replaced the file it kept aside", function()
    local copy = shop_migrating('wf.navigator:persist() error("no such shelf")')
    local state = copy .. "/state.json"
    local text = version_2_state(2)
    wf.testing.write(state, text)
    local app = assert(wf.testing.launch(copy, { state = state }))
    local warnings = app:stats().warnings
    assert.equal(1, #warnings, table.concat(warnings, "\n"))
    assert.equal(text, wf.testing.read(moved_to(warnings[1])))
    app:close()
  end)
end)

describe("a state of a newer version", function()
  it("is set aside, kept, and the app starts fresh", function()
    local copy = wf.testing.copy_app(SHOP)
    local state = copy .. "/state.json"
    local text = version_2_state(4)
    wf.testing.write(state, text)
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.equal("tt://home", app:url())
    local warnings = app:stats().warnings
    assert.equal(1, #warnings)
    assert.matches("the saved navigation state was saved by version 4 of the app, newer than this one %(version 3%); "
      .. "it was moved to .*state%.json%.newer%-%d+T%d+Z and the app starts fresh", warnings[1])
    assert.equal(text, wf.testing.read(moved_to(warnings[1])))
    app:close()
  end)
end)

describe("an app without a version", function()
  it("is version 1, and a state file without one is version 1", function()
    local copy = wf.testing.copy_app("lua/spec/apps/expiring")
    local state = copy .. "/state.json"
    wf.testing.write(state, '{"format":"wayfinder.navigation","version":1,"app":"expiring","saved_at":"2026-01-01T00:00:00Z",'
      .. '"mode":"all","root":{"kind":"stack","entries":[{"url":"tt://order","important":true}]},"modals":[]}')
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.equal("tt://order", app:url())
    assert.same({}, app:stats().warnings)
    app:close()
    assert.matches('"app_version":1', wf.testing.read(state))
    assert.is_false(exists(state .. ".launching"))
  end)
end)

describe("a hot reload that raises the version", function()
  it("migrates the tree it keeps", function()
    local app, copy, source = launched_at_version_2()
    assert.is_true(app:open("tt://cart?owner=bo"))
    assert.is_true(app:open("tt://add/kiwi/4"))
    wf.testing.write(copy .. "/app.lua", (source:gsub("if from <= 2 then", [[if from == 2 then
      each_entry(state, function(entry)
        if entry.state and entry.state.lines then entry.state.lines[1].quantity = 40 end
      end)
    end
    if false then]])))
    assert.is_true(app:reload())
    assert.same({ "40 x kiwi" }, app:render().lines)
    app:close()
  end)

  it("is refused when the migration fails, and the app runs on", function()
    local app, copy, source = launched_at_version_2()
    assert.is_true(app:open("tt://product/3"))
    wf.testing.write(copy .. "/app.lua", (source:gsub("if from <= 2 then", 'error("not now") if false then')))
    local ok, reason = app:reload()
    assert.is_false(ok)
    assert.matches("reload failed, the app runs on unchanged: its migration from version 2 to 3 %(migrate at app%.lua:62%) "
      .. "failed: app%.lua:63: not now", reason)
    assert.equal("tt://product/3", app:url())
    app:close()
  end)
end)

describe("wf.app's version and migrate", function()
  for _, case in ipairs {
    { "version = 0", "version must be an integer from 1, got 0" },
    { "version = 2.5", "version must be an integer from 1, got 2.5" },
    { 'version = "3"', "option 'version' must be a number, got string" },
    { "migrate = true", "option 'migrate' must be a function, got boolean" },
  } do
    it("refuses " .. case[1] .. " at the script's line", function()
      local copy = wf.testing.copy_app(SHOP)
      wf.testing.write(copy .. "/app.lua", 'local wf = require "wayfinder"\n\nwf.app { name = "shop", ' .. case[1] .. " }\n")
      local app, reason = wf.testing.launch(copy)
      assert.is_nil(app)
      assert.matches("app%.lua:3: wf%.app: " .. case[2], reason)
    end)
  end
end)
