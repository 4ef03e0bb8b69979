-- An answer a screen gives the one that opened it, through a context layer they share, is the
-- state's like any context value: a relaunch between the two does not lose it.
local wf = require "wayfinder"

local ANSWERS = "lua/spec/apps/answers"

describe("a context answer across a relaunch", function()
  local app
  before_each(function() app = assert(wf.testing.launch(ANSWERS)) end)
  after_each(function() app:close() end)

  it("reaches the opener when the app relaunched while the answering screen showed", function()
    app:open("tt://dish/soup")
    app:open("tt://note")
    assert.is_true(app:relaunch())
    assert.equal("A note on the soup", app:render().title)
    app:open("tt://note/hot")
    assert.equal("tt://dish/soup", app:url())
    assert.same({ "note: hot" }, app:render().lines)
  end)

  it("is still there after a relaunch once the opener shows it", function()
    app:open("tt://dish/soup")
    app:open("tt://note")
    app:open("tt://note/hot")
    assert.is_true(app:relaunch())
    assert.same({ "note: hot" }, app:render().lines)
    assert.is_true(app:back())
    assert.same({ "note: nil" }, app:render().lines)
  end)
end)
