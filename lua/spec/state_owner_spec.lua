-- A state file belongs to the app that saved it: another app refuses it and leaves it as it is.
local wf = require "wayfinder"

local NOTES = "lua/spec/apps/notes"

describe("a state file of another app", function()
  local copy, state, foreign
  before_each(function()
    copy = wf.testing.copy_app(NOTES)
    state = copy .. "/state.json"
    foreign = '{"format":"wayfinder.navigation","version":1,"app":"restaurant","saved_at":"2026-01-01T00:00:00Z",'
      .. '"mode":"all","root":{"kind":"stack","entries":[{"url":"tt://page/7"}]},"modals":[],"contexts":[]}'
    wf.testing.write(state, foreign)
  end)

  it("is refused at launch with a reason naming both apps, and left untouched", function()
    local app, reason = wf.testing.launch(NOTES, { state = state })
    assert.is_nil(app)
    assert.matches("belongs to the app 'restaurant', not 'notes'", reason)
    assert.matches("left untouched", reason)
    assert.equal(foreign, wf.testing.read(state))
  end)

  local function document(owner)
    return '{"format":"wayfinder.navigation","version":1,' .. owner .. '"saved_at":"2026-01-01T00:00:00Z",'
      .. '"mode":"all","root":{"kind":"tabs","selected":2,"tabs":[[{"url":"tt://tab/1"}],[{"url":"tt://tab/2"},{"url":"tt://page/7"}]]},'
      .. '"modals":[],"contexts":[]}'
  end

  it("is refused and left untouched when it names no app (Wayfinder always writes the name)", function()
    for _, owner in ipairs({ "", '"app":null,' }) do
      wf.testing.write(state, document(owner))
      local app, reason = wf.testing.launch(NOTES, { state = state })
      assert.is_nil(app)
      assert.matches("names no app, so it may not be 'notes''s; it is left untouched", reason)
      assert.equal(document(owner), wf.testing.read(state))
    end
  end)

  it("is restored when it names this app", function()
    wf.testing.write(state, document('"app":"notes",'))
    local app = assert(wf.testing.launch(NOTES, { state = state }))
    assert.equal("tt://page/7", app:url())
    app:close()
  end)
end)

describe("an app renamed by a hot reload", function()
  it("keeps saving to the file it restored from", function()
    local copy = wf.testing.copy_app(NOTES)
    local state = copy .. "/state.json"
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.is_true(app:open("tt://page/1"))
    assert.is_true(app:relaunch())
    assert.matches('"app":"notes"', wf.testing.read(state))
    local source = wf.testing.read(copy .. "/app.lua")
    local renamed = source:gsub('name = "notes"', 'name = "jottings"')
    assert.is_true(renamed ~= source)
    wf.testing.write(copy .. "/app.lua", renamed)
    assert.is_true(app:reload())
    assert.is_true(app:open("tt://page/2"))
    assert.is_true(app:close())
    assert.matches('"app":"jottings"', wf.testing.read(state))
  end)
end)
