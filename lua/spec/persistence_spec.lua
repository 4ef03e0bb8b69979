-- Persistence end to end: the app relaunched from its state file comes back where it was.
local wf = require "wayfinder"

local NOTES = "lua/spec/apps/notes"

describe("persistence through relaunch", function()
  local app
  before_each(function() app = assert(wf.testing.launch(NOTES)) end)
  after_each(function() app:close() end)

  it("comes back with the same tree, making only the visible controller", function()
    app:open("tt://page/1")
    app:open("tt://page/2")
    app:select(2)
    app:open("tt://page/3")
    local before = app:tree()
    assert.is_true(app:relaunch())
    assert.equal("tt://page/3", app:url())
    assert.equal(2, app:stats().launches)
    assert.equal(1, app:stats().constructed)
    local after = app:tree()
    assert.equal(#before.root.tabs, #after.root.tabs)
    for i, tab in ipairs(before.root.tabs) do
      for j, entry in ipairs(tab.entries) do assert.equal(entry.url, after.root.tabs[i].entries[j].url) end
    end
    -- The rest is made on the way back.
    app:select(1)
    assert.equal("tt://page/2", app:url())
    assert.equal(2, app:stats().constructed)
  end)

  it("gives a restored controller what its persist hook saved", function()
    app:open("tt://note/shopping")
    app:open("tt://type/milk")
    app:open("tt://type/, eggs")
    assert.same({ "draft: milk, eggs" }, app:render().lines)
    assert.is_true(app:relaunch())
    assert.same({ title = "Note shopping", lines = { "draft: milk, eggs" }, links = {} }, app:render())
  end)

  it("keeps modals across a relaunch", function()
    app:open("tt://modal/9")
    app:relaunch()
    assert.equal("tt://modal/9", app:url())
    assert.is_true(app:dismiss())
    assert.equal("tt://tab/1", app:url())
  end)

  it("uses the state file it is given, and a second app reads it", function()
    local copy = wf.testing.copy_app(NOTES)
    local state = copy .. "/state.json"
    local first = assert(wf.testing.launch(NOTES, { state = state }))
    first:open("tt://page/42")
    first:close()
    local second = assert(wf.testing.launch(NOTES, { state = state }))
    assert.equal("tt://page/42", second:url())
    second:close()
  end)

  it("starts fresh, with a warning, from a corrupt state file", function()
    local copy = wf.testing.copy_app(NOTES)
    local state = copy .. "/state.json"
    wf.testing.write(state, '{"format": "wayfinder.navigation", "version": 1, "root": ')
    local fresh = assert(wf.testing.launch(NOTES, { state = state }))
    assert.equal("tt://tab/1", fresh:url())
    local warnings = fresh:stats().warnings
    assert.equal(1, #warnings)
    assert.matches("could not be read", warnings[1])
    fresh:close()
  end)
end)
