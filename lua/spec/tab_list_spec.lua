-- A saved state meets an app whose tab list changed since: the tree follows the new list.
local wf = require "wayfinder"

local NOTES = "lua/spec/apps/notes"

describe("tabs changed since the state was saved", function()
  it("keeps the stacks of kept tabs, adds new tabs, drops removed ones with a warning", function()
    local copy = wf.testing.copy_app(NOTES)
    local state = copy .. "/state.json"
    local first = assert(wf.testing.launch(copy, { state = state }))
    assert.is_true(first:open("tt://page/1"))
    assert.is_true(first:select(2))
    assert.is_true(first:open("tt://page/2"))
    assert.is_true(first:close())

    local source = wf.testing.read(copy .. "/app.lua")
    local changed = source:gsub('tabs = { "tt://tab/1", "tt://tab/2" }', 'tabs = { "tt://tab/2", "tt://tab/3" }')
    assert.is_true(source ~= changed)
    wf.testing.write(copy .. "/app.lua", changed)

    local second = assert(wf.testing.launch(copy, { state = state }))
    local tabs = second:tree().root.tabs
    assert.equal(2, #tabs)
    assert.same({ "tt://tab/2", "tt://page/2" }, { tabs[1].entries[1].url, tabs[1].entries[2].url })
    assert.equal(1, #tabs[2].entries)
    assert.equal("tt://tab/3", tabs[2].entries[1].url)
    assert.equal("tt://page/2", second:url(), "the selected tab is still selected")
    local warnings = second:stats().warnings
    assert.equal(1, #warnings)
    assert.matches("added tt://tab/3", warnings[1])
    assert.matches("removed tt://tab/1", warnings[1])
    assert.is_true(second:select(2))
    assert.equal("tt://tab/3", second:url())
    second:close()
  end)
end)
