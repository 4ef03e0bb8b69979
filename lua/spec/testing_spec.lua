-- wf.testing: the driver's calls, their answers for good and bad input.
local wf = require "wayfinder"

local NOTES = "lua/spec/apps/notes"

-- The message of the error fn raises.
local function error_of(fn)
  local ok, err = pcall(fn)
  assert.is_false(ok)
  return err
end

-- Made while the file loads: wf.testing is there from a spec file's first line.
local COPIED_AT_LOAD = wf.testing.copy_app(NOTES)

describe("wf.testing at a spec file's top level", function()
  it("copies an app while the file loads", function()
    local app = assert(wf.testing.launch(COPIED_AT_LOAD))
    assert.equal("tt://tab/1", app:url())
    app:close()
  end)
end)

describe("wf.testing.launch", function()
  local app
  before_each(function() app = assert(wf.testing.launch(NOTES)) end)
  after_each(function() app:close() end)

  it("starts the app as a user would: its first tab visible", function()
    assert.equal("tt://tab/1", app:url())
    assert.same({ constructed = 1, launches = 1, reloads = 0, warnings = {}, running = true }, app:stats())
  end)

  it("opens, goes back, selects tabs and dismisses, answering true or false and a reason", function()
    assert.is_true(app:open("tt://page/7"))
    assert.equal("tt://page/7", app:url())
    assert.is_true(app:back())
    assert.equal("tt://tab/1", app:url())
    local ok, err = app:back()
    assert.is_false(ok)
    assert.equal("nothing to go back to", err)

    assert.is_true(app:select(2))
    assert.equal("tt://tab/2", app:url())
    ok, err = app:select(3)
    assert.is_false(ok)
    assert.equal("there is no tab 3", err)

    assert.is_true(app:open("tt://modal/1"))
    assert.is_true(app:dismiss())
    ok, err = app:dismiss()
    assert.is_false(ok)
    assert.equal("nothing to dismiss", err)
  end)

  it("answers a bad URL with false and a reason; the app is unchanged", function()
    app:open("tt://page/1")
    local before = app:tree()
    for _, url in ipairs { "tt://nowhere", "not a url", "tt://page/%zz", "" } do
      local ok, err = app:open(url)
      assert.is_false(ok)
      assert.matches("cannot open", err)
    end
    local ok, err = app:open("tt://page/\255")
    assert.is_false(ok)
    assert.equal("the url is not valid UTF-8 (byte 11 of 11)", err)
    assert.same(before, app:tree())
  end)

  it("reports an error in a script's action with its file and line", function()
    local ok, err = app:open("tt://type/hello")
    assert.is_false(ok)
    assert.matches("no note is open", err)
    assert.equal("tt://tab/1", app:url())
  end)

  it("returns the tree and the screen as plain data", function()
    app:open("tt://page/3")
    local tree = app:tree()
    assert.equal("tabs", tree.root.kind)
    assert.equal(1, tree.root.selected)
    assert.equal("tt://page/3", tree.root.tabs[1].entries[2].url)
    assert.same({ title = "Page 3", lines = {}, links = { { title = "Note", url = "tt://note/3" } } }, app:render())
  end)

  it("counts the controllers made", function()
    app:open("tt://page/1")
    app:open("tt://page/2")
    app:back()
    assert.equal(3, app:stats().constructed)
  end)

  it("is closed by close: the calls then fail", function()
    assert.is_true(app:close())
    assert.is_true(app:close())
    assert.is_false(app:stats().running)
    local ok, err = app:open("tt://page/1")
    assert.is_false(ok)
    assert.matches("is closed", err)
    assert.matches("testing_spec.lua:%d+: the app .* is closed", error_of(function() app:url() end))
  end)
end)

describe("wf.testing, bad input", function()
  it("answers nil and a reason for an app that does not load", function()
    local app, err = wf.testing.launch("lua/spec/apps/missing")
    assert.is_nil(app)
    assert.matches("no such file or directory", err)

    local copy = wf.testing.copy_app(NOTES)
    wf.testing.write(copy .. "/app.lua", "local x = \n")
    app, err = wf.testing.launch(copy)
    assert.is_nil(app)
    assert.matches("app.lua:2:", err)
  end)

  it("refuses options it does not know", function()
    local app, err = wf.testing.launch(NOTES, { colour = "red" })
    assert.is_nil(app)
    assert.matches("option colour", err)
    assert.matches("options must be a table", error_of(function() wf.testing.launch(NOTES, "fast") end))
    assert.matches("needs an app path", error_of(function() wf.testing.launch(42) end))
  end)

  it("stops an app whose constructor loops, at its time budget", function()
    local copy = wf.testing.copy_app(NOTES)
    wf.testing.write(copy .. "/app.lua", [[
      local wf = require "wayfinder"
      local Slow = wf.controller "Slow"
      function Slow:init() while true do end end
      wf.map:from("tt://slow", Slow)
      wf.map:from("tt://fine", wf.controller "Fine")
      wf.app { root = "tt://fine" }
    ]])
    local app = assert(wf.testing.launch(copy, { time_limit = 50 }))
    local ok, err = app:open("tt://slow")
    assert.is_false(ok)
    assert.matches("time", err)
    assert.equal("tt://fine", app:url())
    app:close()
  end)

  it("writes only inside a copy made by copy_app", function()
    local copy = wf.testing.copy_app(NOTES)
    wf.testing.write(copy .. "/extra.lua", "return 1")
    assert.matches("not inside a copy", error_of(function() wf.testing.write(NOTES .. "/app.lua", "x") end))
    assert.matches("not inside a copy", error_of(function() wf.testing.write(copy .. "/../escape.lua", "x") end))
    assert.matches("not inside a copy", error_of(function() wf.testing.write("/tmp/elsewhere.lua", "x") end))
    assert.matches("no such file", error_of(function() wf.testing.copy_app("lua/spec/apps/missing") end))
  end)
end)
