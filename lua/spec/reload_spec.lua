-- Hot reload end to end: edit a copy of an app on disk, reload, and find the same place.
local wf = require "wayfinder"

local NOTES = "lua/spec/apps/notes"

-- The copy's app.lua with `from` (a Lua pattern) replaced by `to`, once.
local function edited(copy, from, to)
  local source = wf.testing.read(copy .. "/app.lua")
  local changed, count = source:gsub(from, to)
  assert.equal(1, count)
  wf.testing.write(copy .. "/app.lua", changed)
end

describe("reload", function()
  local copy, app
  before_each(function()
    copy = wf.testing.copy_app(NOTES)
    app = assert(wf.testing.launch(copy))
  end)
  after_each(function() app:close() end)

  it("swaps in the edited scripts and keeps the place and the saved state", function()
    app:open("tt://note/plan")
    app:open("tt://type/draft")
    edited(copy, [["Note " %.%. self%.text]], [["Edited " .. self.text]])
    local ok, report = app:reload()
    assert.is_true(ok)
    assert.same({}, report.added)
    assert.same({}, report.removed)
    assert.equal("tt://note/plan", app:url())
    assert.same({ title = "Edited plan", lines = { "draft: draft" }, links = {} }, app:render())
    assert.equal(1, app:stats().reloads)
  end)

  it("reports routes added, removed and changed", function()
    edited(copy, [[wf.map:from%("tt://modal/%(id%)", Page, { mode = "modal" }%)]],
      [[wf.map:from("tt://modal/(id)", Page) wf.map:from("tt://help", Page)]])
    local ok, report = app:reload()
    assert.is_true(ok)
    assert.same({ "tt://help" }, report.added)
    assert.same({ "tt://modal/(id)" }, report.changed)
    assert.is_true(app:open("tt://help"))
  end)

  it("drops entries of a removed route with a warning", function()
    app:open("tt://page/1")
    app:open("tt://note/x")
    edited(copy, [[wf.map:from%("tt://page/%(id%)", Page%)]], "")
    local ok, report = app:reload()
    assert.is_true(ok)
    assert.same({ "tt://page/(id)" }, report.removed)
    assert.equal(1, #report.warnings)
    assert.matches("tt://page/1", report.warnings[1])
    assert.equal("tt://note/x", app:url())
    app:back()
    assert.equal("tt://tab/1", app:url())
  end)

  it("keeps the running app when the edit is broken, and recovers at the next good save", function()
    local NOTES_SOURCE = wf.testing.read(copy .. "/app.lua")
    app:open("tt://page/5")
    wf.testing.write(copy .. "/app.lua", NOTES_SOURCE .. "\nthis is not lua\n")
    local ok, err = app:reload()
    assert.is_false(ok)
    assert.matches("app%.lua:%d+:", err)
    assert.equal("tt://page/5", app:url())
    assert.is_true(app:open("tt://page/6"))

    wf.testing.write(copy .. "/app.lua", NOTES_SOURCE .. "\nerror('refused at load')\n")
    ok, err = app:reload()
    assert.is_false(ok)
    assert.matches("app%.lua:%d+: refused at load", err)

    wf.testing.write(copy .. "/app.lua", NOTES_SOURCE)
    assert.is_true(app:reload())
    assert.equal("tt://page/6", app:url())
    assert.equal(1, app:stats().reloads)
  end)

  it("survives a relaunch after a reload", function()
    edited(copy, [["Page " %.%. tostring%(self%.id%)]], [["P" .. tostring(self.id)]])
    app:open("tt://page/8")
    assert.is_true(app:reload())
    assert.is_true(app:relaunch())
    assert.equal("P8", app:render().title)
  end)
end)
