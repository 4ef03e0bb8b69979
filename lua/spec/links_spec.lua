-- Links from outside the app (nav:handle_link, app:handle_link) and route guards: only routes
-- marked external open from outside, old URLs move first, parents go beneath; a guard that stops
-- an open keeps it pending, through a relaunch, until it lets it through.
local wf = require "wayfinder"

local DESK = "lua/spec/apps/desk"

local function urls(stack)
  local list = {}
  for i, entry in ipairs(stack) do list[i] = entry.url end
  return list
end

describe("a link from outside", function()
  local app
  before_each(function() app = assert(wf.testing.launch(DESK)) end)
  after_each(function() app:close() end)

  it("opens a route marked external, on top of what is there", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:handle_link("tt://page/news"))
    assert.same({ "tt://home", "tt://page/a", "tt://page/news" }, urls(app:tree().root.entries))
  end)

  it("refuses any other route, and a URL handed outside, changing nothing", function()
    local before = app:tree()
    local ok, reason = app:handle_link("tt://settings")
    assert.is_false(ok)
    assert.equal("cannot open 'tt://settings' from outside the app: its route 'tt://settings' is not marked external", reason)
    ok, reason = app:handle_link("tel:5555")
    assert.is_false(ok)
    assert.matches("no route uses the scheme 'tel'", reason)
    ok, reason = app:handle_link("tt://nowhere/at/all")
    assert.is_false(ok)
    assert.matches("no route matches", reason)
    assert.same(before, app:tree())
    assert.same({}, app:stats().warnings)
    -- The app itself opens the same screen.
    assert.is_true(app:open("tt://settings"))
  end)

  it("rewrites an old URL through the moves before it asks whether it may open", function()
    assert.is_true(app:handle_link("tt://p/old?x=1"))
    assert.equal("tt://page/old?x=1", app:url())
    local ok, reason = app:handle_link("tt://prefs")
    assert.is_false(ok)
    assert.matches("its route 'tt://settings' is not marked external", reason)
  end)

  it("places its parent beneath it, so back goes somewhere sensible", function()
    assert.is_true(app:handle_link("tt://about/hours"))
    assert.same({ "tt://home", "tt://page/about", "tt://about/hours" }, urls(app:tree().root.entries))
    assert.is_true(app:back())
    assert.equal("tt://page/about", app:url())
  end)

  it("lands on the restored tree after a relaunch", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://sheet"))
    assert.is_true(app:relaunch())
    assert.is_true(app:handle_link("tt://page/b"))
    local tree = app:tree()
    assert.same({ "tt://home", "tt://page/a" }, urls(tree.root.entries))
    assert.same({ "tt://sheet", "tt://page/b" }, urls(tree.modals[1].entries))
  end)

  it("is refused with the app's reason from the script's own navigator too", function()
    assert.has_error(function() wf.navigator:handle_link(42) end, "nav:handle_link needs a URL string, got number")
    local controller, reason = wf.navigator:handle_link("tt://spec/inside")
    assert.is_nil(controller)
    assert.matches("is not marked external", reason)
  end)
end)

-- wf.testing.launch(app, { link = url }): a link from outside at launch, as `wayfinder run --link`
-- gives one: the state restored first, then the link, through the same door as app:handle_link.
describe("a link at launch", function()
  it("lands on top of the restored tree", function()
    local copy = wf.testing.copy_app(DESK)
    local state = copy .. "/state.json"
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://sheet"))
    app:close()
    app = assert(wf.testing.launch(copy, { state = state, link = "tt://page/b" }))
    local tree = app:tree()
    assert.same({ "tt://home", "tt://page/a" }, urls(tree.root.entries))
    assert.same({ "tt://sheet", "tt://page/b" }, urls(tree.modals[1].entries))
    assert.same({}, app:stats().warnings)
    -- A relaunch does not bring the link again: it came once.
    assert.is_true(app:back())
    assert.is_true(app:relaunch())
    assert.equal("tt://sheet", app:url())
    app:close()
  end)

  it("places its parent beneath it, and moves an old URL first", function()
    local app = assert(wf.testing.launch(DESK, { link = "tt://about/hours" }))
    assert.same({ "tt://home", "tt://page/about", "tt://about/hours" }, urls(app:tree().root.entries))
    app:close()
    app = assert(wf.testing.launch(DESK, { link = "tt://p/old?x=1" }))
    assert.equal("tt://page/old?x=1", app:url())
    app:close()
  end)

  it("lands in the tab that holds its parent", function()
    local app = assert(wf.testing.launch("lua/examples/restaurant", { link = "tt://about/story" }))
    local tree = app:tree()
    assert.equal(5, tree.root.selected)
    assert.same({ "tt://menu/5", "tt://about/story" }, urls(tree.root.tabs[5].entries))
    app:close()
  end)

  it("that a guard stops waits, through a relaunch, and opens after sign-in", function()
    local copy = wf.testing.copy_app(DESK)
    local state = copy .. "/state.json"
    local app = assert(wf.testing.launch(copy, { state = state, link = "tt://order/9" }))
    assert.equal("tt://signin?for=tt%3A%2F%2Forder%2F9", app:url())
    assert.is_true(app:pending().link)
    assert.is_true(app:relaunch())
    assert.equal("tt://order/9", app:pending().url)
    assert.is_true(app:open("tt://signin/as/ann"))
    assert.same({ "tt://home", "tt://order/9" }, urls(app:tree().root.entries))
    app:close()
    -- A guard that names nothing keeps it waiting too: the app launched, the link waits.
    app = assert(wf.testing.launch(DESK, { link = "tt://vault" }))
    assert.equal("tt://home", app:url())
    assert.equal("tt://vault", app:pending().url)
    assert.is_true(app:open("tt://signin/as/bo"))
    assert.equal("tt://vault", app:url())
    app:close()
  end)

  it("refused (not external, malformed, nowhere) fails the launch with the reason and changes nothing", function()
    local copy = wf.testing.copy_app(DESK)
    local state = copy .. "/state.json"
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.is_true(app:open("tt://page/a"))
    app:close()
    local saved = wf.testing.read(state):gsub('"saved_at":"[^"]*"', "")
    local cases = {
      { "tt://settings", "^cannot launch .-: cannot open 'tt://settings' from outside the app: its route 'tt://settings' is not marked external$" },
      { "tt://page/%zz", "cannot open 'tt://page/%%zz': invalid percent escape" },
      { "not a url", "cannot open 'not a url': no scheme" },
      { "tel:5555", "no route uses the scheme 'tel'" },
      { "tt://broken", "its route 'tt://broken' is not marked external" },
    }
    for _, case in ipairs(cases) do
      local refused, reason = wf.testing.launch(copy, { state = state, link = case[1] })
      assert.is_nil(refused)
      assert.matches(case[2], reason)
      assert.equal(saved, (wf.testing.read(state):gsub('"saved_at":"[^"]*"', "")))
    end
    app = assert(wf.testing.launch(copy, { state = state }))
    assert.equal("tt://page/a", app:url())
    app:close()
  end)

  it("must be a URL string, checked as the other options are", function()
    local app, reason = wf.testing.launch(DESK, { link = 5 })
    assert.is_nil(app)
    assert.matches("option link = 5 is not understood .*link = URL", reason)
    -- A spec that asserts the launch fails at its own line.
    local ok, err = pcall(function() assert(wf.testing.launch(DESK, { link = "tt://settings" })) end)
    assert.is_false(ok)
    assert.matches("links_spec%.lua:%d+: cannot launch", err)
  end)
end)

describe("the restaurant", function()
  it("lands a link in the tab holding its parent", function()
    local app = assert(wf.testing.launch("lua/examples/restaurant"))
    assert.is_true(app:open("tt://food/porridge"))
    assert.is_true(app:handle_link("tt://about/story"))
    local tree = app:tree()
    assert.equal(5, tree.root.selected)
    assert.same({ "tt://menu/5", "tt://about/story" }, urls(tree.root.tabs[5].entries))
    assert.same({ "tt://menu/1", "tt://food/porridge" }, urls(tree.root.tabs[1].entries))
    app:close()
  end)
end)

describe("a guard", function()
  local app
  before_each(function() app = assert(wf.testing.launch(DESK, { time_limit = 50 })) end)
  after_each(function() app:close() end)

  it("opens what it names instead, keeps the URL pending and opens it once it lets it through", function()
    assert.is_true(app:open("tt://order/7"))
    assert.equal("tt://signin?for=tt%3A%2F%2Forder%2F7", app:url())
    local pending = app:pending()
    assert.equal("tt://order/7", pending.url)
    assert.is_false(pending.link)
    assert.is_true(app:open("tt://signin/as/ann"))
    assert.equal("tt://order/7", app:url())
    assert.is_nil(app:pending())
    assert.equal(0, #app:tree().modals)
  end)

  it("keeps a link pending through a relaunch, then opens it after sign-in", function()
    assert.is_true(app:handle_link("tt://order/9"))
    assert.is_true(app:relaunch())
    assert.matches("^tt://signin", app:url())
    local pending = app:pending()
    assert.equal("tt://order/9", pending.url)
    assert.is_true(pending.link)
    assert.is_true(app:open("tt://signin/as/bo"))
    assert.equal("tt://order/9", app:url())
    assert.same({ "tt://home", "tt://order/9" }, urls(app:tree().root.entries))
  end)

  it("that names nothing leaves the tree as it was and the URL waiting", function()
    local before = app:tree()
    local ok, reason = app:open("tt://vault")
    assert.is_false(ok)
    assert.equal("'tt://vault' waits: its guard stopped it; it is kept pending and opens once the guard lets it through", reason)
    assert.same(before, app:tree())
    ok, reason = app:resume()
    assert.is_false(ok)
    assert.equal("'tt://vault' still waits: its guard stops it", reason)
    -- Signing in commits a change (an action), after which the guard is asked again.
    assert.is_true(app:open("tt://signin/as/cy"))
    assert.equal("tt://vault", app:url())
    ok, reason = app:resume()
    assert.is_false(ok)
    assert.equal("nothing is pending", reason)
  end)

  it("that raises, loops or answers wrongly fails the open with its line, changing nothing", function()
    local before = app:tree()
    local cases = {
      { "tt://broken", "cannot open 'tt://broken': .-app%.lua:%d+: the guard broke" },
      { "tt://dizzy", "cannot open 'tt://dizzy': .-app%.lua:%d+: time budget of 50 ms exceeded" },
      { "tt://chatty", "the guard of 'tt://chatty' %(.-app%.lua:%d+%) returned a string; it must return true, or false and a URL to open instead" },
    }
    for _, case in ipairs(cases) do
      local ok, reason = app:open(case[1])
      assert.is_false(ok)
      assert.matches(case[2], reason)
      assert.same(before, app:tree())
      assert.is_nil(app:pending())
    end
  end)

  it("sending to another guarded URL and back is cut like a redirect loop", function()
    local ok, reason = app:open("tt://ping")
    assert.is_false(ok)
    assert.matches("^redirect loop cut after 8 hops: tt://ping %-> tt://pong %-> tt://ping", reason)
    assert.equal("tt://home", app:url())
    assert.is_nil(app:pending())
  end)

  it("keeps the waiting open through a hot reload", function()
    local copy = wf.testing.copy_app(DESK)
    local edited = assert(wf.testing.launch(copy))
    assert.is_true(edited:handle_link("tt://order/4"))
    wf.testing.write(copy .. "/app.lua", wf.testing.read(copy .. "/app.lua") .. "\n-- edited\n")
    assert.is_true(edited:reload())
    assert.equal("tt://order/4", edited:pending().url)
    assert.is_true(edited:open("tt://signin/as/eve"))
    assert.equal("tt://order/4", edited:url())
    edited:close()
  end)

  it("asked for while the tree is changing is refused as busy, and goes on waiting", function()
    assert.is_false(app:open("tt://vault"))
    assert.is_true(app:open("tt://eager"))
    local lines = app:render().lines
    assert.equal("nil", lines[1])
    assert.matches("^cannot open 'tt://vault' while the navigator is busy", lines[2])
    assert.equal("tt://vault", app:pending().url)
    assert.same({}, app:stats().warnings)
  end)

  it("of an action that waited leaves the open that action's own guard stopped waiting in turn", function()
    assert.is_true(app:open("tt://checkout"))
    assert.equal("tt://checkout", app:pending().url)
    assert.is_true(app:open("tt://signin/as/ann"))
    assert.equal("tt://confirmed", app:pending().url)
    assert.same({}, app:stats().warnings)
  end)

  it("keeps the newest stopped open", function()
    assert.is_true(app:open("tt://order/1"))
    assert.is_true(app:dismiss())
    assert.is_true(app:open("tt://order/2"))
    assert.equal("tt://order/2", app:pending().url)
  end)
end)

describe("a pending open's age", function()
  local now, app
  before_each(function()
    now = 1000000
    app = assert(wf.testing.launch(DESK, { clock = function() return now end }))
  end)
  after_each(function() app:close() end)

  it("counts by the host's clock: after an hour it is dropped, not opened", function()
    assert.is_true(app:handle_link("tt://order/3"))
    assert.equal(1000000, app:pending().since)
    assert.is_true(app:advance(3601))
    assert.is_true(app:open("tt://signin/as/di"))
    assert.equal("tt://home", app:url())
    assert.is_nil(app:pending())
    assert.matches("dropped the pending 'tt://order/3': it waited longer than 3600 s", app:stats().warnings[1])
  end)

  it("is not brought back by a relaunch once it expired", function()
    assert.is_true(app:handle_link("tt://order/3"))
    assert.is_true(app:relaunch())
    assert.is_not_nil(app:pending())
    now = now + 3601
    assert.is_true(app:relaunch())
    assert.is_nil(app:pending())
    assert.same({ "dropped the pending 'tt://order/3': it waited longer than 3600 s" }, app:stats().warnings)
  end)
end)

describe("a saved waiting open", function()
  local function state_with(pending)
    return '{"format":"wayfinder.navigation","version":1,"app":"desk","app_version":1,"saved_at":"2001-09-09T01:46:40Z",'
      .. '"mode":"all","root":{"kind":"stack","entries":[{"url":"tt://home"},{"url":"tt://page/a"}]},"modals":[],"pending":' .. pending .. '}'
  end
  local function clock() return 1000000000 end

  it("that is damaged makes the state unreadable: it is set aside as it was, and the app starts fresh", function()
    local copy = wf.testing.copy_app(DESK)
    local state = copy .. "/state.json"
    local text = state_with('{"url":"tt://order/4","link":"yes","since":"2001-09-09T01:46:40Z"}')
    wf.testing.write(state, text)
    local app = assert(wf.testing.launch(copy, { state = state, clock = clock }))
    assert.equal("tt://home", app:url())
    assert.is_nil(app:pending())
    local warning = app:stats().warnings[1]
    assert.matches("could not be read %(pending%.link: true or false expected, found a string%)", warning)
    assert.equal(text, wf.testing.read(assert(warning:match("it was moved to (%S+) and the app starts fresh"))))
    app:close()
  end)

  it("that can no longer open is dropped with a warning, and the rest of the state restored", function()
    local copy = wf.testing.copy_app(DESK)
    local state = copy .. "/state.json"
    for _, case in ipairs {
      { '{"url":"tt://settings","link":true,"since":"2001-09-09T01:40:00Z"}', "its route 'tt://settings' is not marked external" },
      { '{"url":"tt://gone/for/good","since":"2001-09-09T01:40:00Z"}', "no route matches" },
      { '{"url":"tt://broken","since":"2001-09-09T01:40:00Z"}', "app%.lua:%d+: the guard broke" },
    } do
      wf.testing.write(state, state_with(case[1]))
      local app = assert(wf.testing.launch(copy, { state = state, clock = clock }))
      assert.equal("tt://page/a", app:url())
      assert.is_nil(app:pending())
      local warnings = app:stats().warnings
      assert.equal(1, #warnings, table.concat(warnings, "\n"))
      assert.matches("^dropped the pending '.-': .*" .. case[2], warnings[1])
      app:close()
    end
  end)
end)

-- The spec file's own navigator: guards asked by nav:open, nav:resume and nav:pending.
local Page = wf.controller "SpecPage"
function Page:init(route) self.url = route.url end
local unlocked = false
wf.map:from("tt://spec/inside", Page)
wf.map:from("tt://spec/locked", Page, { guard = function() return unlocked end })

describe("nav:resume", function()
  it("opens the pending URL when its guard lets it through", function()
    local nav = wf.navigator
    assert(nav:open("tt://spec/inside"))
    local controller, reason = nav:open("tt://spec/locked")
    assert.is_nil(controller)
    assert.matches("waits", reason)
    assert.equal("tt://spec/locked", nav:pending().url)
    assert.is_false(nav:resume())
    unlocked = true
    local opened = nav:resume()
    assert.equal("tt://spec/locked", opened.url)
    assert.is_nil(nav:pending())
    assert.is_false(nav:resume())
    unlocked = false
    assert.is_nil(nav:open("tt://spec/locked"))
    assert.is_true(nav:drop_pending())
    assert.is_false(nav:drop_pending())
  end)

  it("reads and sets how long a pending open waits", function()
    local nav = wf.navigator
    assert.equal(3600, nav.pending_expiration)
    nav.pending_expiration = 60
    assert.equal(60, nav.pending_expiration)
    assert.has_error(function() nav.pending_expiration = -1 end, "nav.pending_expiration must be a number of seconds >= 0 (0 = never), got -1")
    nav.pending_expiration = 3600
  end)

  it("refuses a guard that is not a function at the script's line", function()
    assert.has_error(function() wf.map:from("tt://spec/odd", Page, { guard = true }) end,
      "map:from: option 'guard' must be a function, got boolean")
  end)
end)
