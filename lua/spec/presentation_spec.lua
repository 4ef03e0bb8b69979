-- The presentation verbs (push, replace, replace_root, clear_all, refresh, pop, none), given by a
-- route or by an open, and pop to root: what each leaves in the tree, and that it is saved.
local wf = require "wayfinder"

local DESK = "lua/spec/apps/desk"

local function urls(stack)
  local list = {}
  for i, entry in ipairs(stack) do list[i] = entry.url end
  return list
end

describe("a presentation", function()
  local app
  before_each(function() app = assert(wf.testing.launch(DESK)) end)
  after_each(function() app:close() end)

  local function root() return urls(app:tree().root.entries) end

  it("replace takes the visible screen's place, so back goes where it went before", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://page/b"))
    assert.is_true(app:replace("tt://page/c"))
    assert.same({ "tt://home", "tt://page/a", "tt://page/c" }, root())
    assert.is_true(app:back())
    assert.equal("tt://page/a", app:url())
  end)

  it("given by the route: each wizard step replaces the one before", function()
    assert.is_true(app:open("tt://page/start"))
    assert.is_true(app:open("tt://wizard/1", { presentation = "push" }))
    assert.is_true(app:open("tt://wizard/2"))
    assert.is_true(app:open("tt://wizard/3"))
    assert.same({ "tt://home", "tt://page/start", "tt://wizard/3" }, root())
  end)

  it("replace_root leaves the visible stack just the new screen", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://page/x", { presentation = "replace_root" }))
    assert.same({ "tt://page/x" }, root())
    assert.is_false(app:back())
  end)

  it("clear_all closes every modal, pops to the root, then opens", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://sheet"))
    assert.is_true(app:open("tt://page/in-sheet"))
    assert.is_true(app:open("tt://restart"))
    assert.equal(0, #app:tree().modals)
    assert.same({ "tt://home", "tt://restart" }, root())
    -- To the root screen itself: nothing more opens.
    assert.is_true(app:open("tt://home", { presentation = "clear_all" }))
    assert.same({ "tt://home" }, root())
  end)

  it("refresh makes the visible screen again, keeping what it saves", function()
    assert.is_true(app:open("tt://counter"))
    assert.is_true(app:open("tt://bump"))
    assert.is_true(app:open("tt://bump"))
    assert.same({ "count 2", "made 1" }, app:render().lines)
    assert.is_true(app:open("tt://reload"))
    assert.same({ "count 2", "made 2" }, app:render().lines)
    assert.is_true(app:open("tt://counter", { presentation = "refresh" }))
    assert.same({ "count 2", "made 3" }, app:render().lines)
    assert.same({ "tt://home", "tt://counter" }, root())
    -- The URL an open's own refresh names is the instruction only: no route need match it.
    assert.is_true(app:open("tt://no/such/route", { presentation = "refresh" }))
    assert.same({ "count 2", "made 4" }, app:render().lines)
    assert.same({ "tt://home", "tt://counter" }, root())
  end)

  it("pop goes back one, then opens the URL unless it is the screen now showing", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://page/b"))
    local made = app:stats().constructed
    assert.is_true(app:open("tt://page/a", { presentation = "pop" }))
    assert.same({ "tt://home", "tt://page/a" }, root())
    assert.equal(made, app:stats().constructed)
    assert.is_true(app:open("tt://page/c", { presentation = "pop" }))
    assert.same({ "tt://home", "tt://page/c" }, root())
  end)

  it("none changes nothing", function()
    local before, made = app:tree(), app:stats().constructed
    assert.is_true(app:open("tt://page/a", { presentation = "none" }))
    assert.same(before, app:tree())
    assert.equal(made, app:stats().constructed)
  end)

  it("that would leave the root without a screen is refused, changing nothing", function()
    local before = app:tree()
    local ok, reason = app:open("tt://sheet", { presentation = "replace" })
    assert.is_false(ok)
    assert.equal("cannot open 'tt://sheet' with presentation replace: it would leave the root stack without a screen", reason)
    assert.same(before, app:tree())
  end)

  it("leaves a tree that is saved and restored as it is", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://sheet"))
    assert.is_true(app:replace("tt://page/b"))
    assert.is_true(app:open("tt://page/c"))
    assert.is_true(app:open("tt://page/d", { presentation = "pop" }))
    local before = app:tree()
    assert.is_true(app:relaunch())
    local after = app:tree()
    assert.same(urls(before.root.entries), urls(after.root.entries))
    assert.same(urls(before.modals[1].entries), urls(after.modals[1].entries))
    assert.same({ "tt://page/b", "tt://page/d" }, urls(after.modals[1].entries))
  end)

  -- From home > shelf/s > page/a > page/b, each verb opening tt://page/c (share: the shelf
  -- again), the tree it leaves, which a relaunch restores as it is.
  for _, case in ipairs {
    { "push", { "tt://home", "tt://shelf/s", "tt://page/a", "tt://page/b", "tt://page/c" } },
    { "replace", { "tt://home", "tt://shelf/s", "tt://page/a", "tt://page/c" } },
    { "replace_root", { "tt://page/c" } },
    { "clear_all", { "tt://home", "tt://page/c" } },
    { "refresh", { "tt://home", "tt://shelf/s", "tt://page/a", "tt://page/b" } },
    { "pop", { "tt://home", "tt://shelf/s", "tt://page/a", "tt://page/c" } },
    { "none", { "tt://home", "tt://shelf/s", "tt://page/a", "tt://page/b" } },
    { "share", { "tt://home", "tt://shelf/s" } },
  } do
    it(case[1] .. " leaves its tree, and a relaunch restores it", function()
      for _, url in ipairs { "tt://shelf/s", "tt://page/a", "tt://page/b" } do assert.is_true(app:open(url)) end
      local made = app:stats().constructed
      if case[1] == "share" then
        assert.is_true(app:open("tt://shelf/s"))
      else
        assert.is_true(app:open("tt://page/c", { presentation = case[1] }))
      end
      assert.same(case[2], root())
      -- refresh made the visible screen again; none made nothing.
      if case[1] == "refresh" then assert.equal(made + 1, app:stats().constructed) end
      if case[1] == "none" or case[1] == "share" then assert.equal(made, app:stats().constructed) end
      assert.is_true(app:relaunch())
      assert.same(case[2], root())
      assert.equal(case[2][#case[2]], app:url())
    end)
  end

  it("pop_to_root closes the popover and pops the visible stack", function()
    assert.is_true(app:open("tt://page/a"))
    assert.is_true(app:open("tt://page/b"))
    assert.is_true(app:pop_to_root())
    assert.same({ "tt://home" }, root())
    local ok, reason = app:pop_to_root()
    assert.is_false(ok)
    assert.equal("nothing to pop", reason)
  end)

  it("that the host does not know is the spec's mistake, raised at its line", function()
    assert.has_error(function() app:open("tt://page/a", { presentation = "sideways" }) end,
      "app:open: presentation must be one of push, replace, replace_root, clear_all, refresh, pop, none; got 'sideways'")
    assert.has_error(function() app:open("tt://page/a", { mode = "modal" }) end, "app:open: unknown option 'mode' (known: presentation)")
  end)
end)

-- The spec file's own navigator: nav:replace, nav:pop_to_root, an action's presentation.
local Screen = wf.controller "VerbScreen"
function Screen:init(route) self.url = route.url end
wf.map:from("tt://verb/(name)", Screen)

describe("the navigator's verbs", function()
  local nav = wf.navigator

  it("replace and an action's presentation", function()
    assert(nav:open("tt://verb/a"))
    assert(nav:open("tt://verb/b"))
    assert.equal("tt://verb/c", nav:replace("tt://verb/c").url)
    assert(nav:open { url = "tt://verb/d", presentation = "replace_root" })
    assert.same({ "tt://verb/d" }, urls(nav:tree().root.entries))
    assert(nav:open("tt://verb/e"))
    assert.equal(1, nav:replace({ url = "tt://verb/f", query = { n = 1 } }).query.n)
    assert.same({ "tt://verb/d", "tt://verb/f" }, urls(nav:tree().root.entries))
    assert.is_true(nav:pop_to_root())
    assert.is_false(nav:pop_to_root())
    assert.same({ "tt://verb/d" }, urls(nav:tree().root.entries))
  end)

  it("refuses a presentation it does not know at the script's line", function()
    assert.has_error(function() nav:open { url = "tt://verb/x", presentation = "sideways" } end,
      "nav:open: presentation must be one of push, replace, replace_root, clear_all, refresh, pop, none; got 'sideways'")
    assert.has_error(function() nav:replace(3) end, "nav:replace needs a URL string or an action table { url = ..., query = ... }, got number")
    assert.has_error(function() wf.map:from("tt://verb/odd", Screen, { presentation = "sideways" }) end,
      "map:from: presentation must be one of push, replace, replace_root, clear_all, refresh, pop, none; got 'sideways'")
  end)

  it("reports a route's presentation and guard in map:match", function()
    local guard = function() return true end
    wf.map:from("tt://verb/guarded", Screen, { presentation = "clear_all", guard = guard })
    local route = assert(wf.map:match("tt://verb/guarded"))
    assert.equal("clear_all", route.presentation)
    assert.equal(guard, route.guard)
    assert.equal("push", wf.map:match("tt://verb/plain").presentation)
    assert.is_nil(wf.map:match("tt://verb/plain").guard)
  end)
end)
