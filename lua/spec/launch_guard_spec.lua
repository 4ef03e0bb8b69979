-- A saved state that stops every launch: two launches in a row that never show a screen, and the
-- third sets the state aside (kept beside it) and starts fresh, with a warning naming the entry
-- the launches were restoring and why the last one failed.
local wf = require "wayfinder"

local MOODY = "lua/spec/apps/moody"
local LIMITS = { time_limit = 50 }

-- A copy of the app with a state saved in `mood`, showing tt://page/7 over the home screen.
local function saved_in(mood)
  local copy = wf.testing.copy_app(MOODY)
  local state = copy .. "/state.json"
  local app = assert(wf.testing.launch(copy, { state = state }))
  assert.is_true(app:open("tt://page/7"))
  assert.is_true(app:open("tt://mood/" .. mood))
  app:close()
  return copy, state, wf.testing.read(state)
end

local function fails_to_launch(copy, state)
  local app, reason = wf.testing.launch(copy, { state = state, time_limit = LIMITS.time_limit })
  assert.is_nil(app)
  return reason
end

local function exists(path)
  return (pcall(wf.testing.read, path))
end

-- The path a warning says the state was moved to.
local function moved_to(warning)
  return assert(warning:match("it was moved to (%S+) and the app starts fresh"), warning)
end

describe("a state that stops every launch", function()
  for _, case in ipairs {
    { mood = "broken", error = "app%.lua:10: no screen can be made in a broken mood" },
    { mood = "dizzy", error = "app%.lua:11: time budget of 50 ms exceeded" },
  } do
    it("is set aside at the third launch when every constructor " .. (case.mood == "broken" and "raises" or "loops"), function()
      local copy, state, saved = saved_in(case.mood)
      assert.matches(case.error, fails_to_launch(copy, state))
      assert.matches('"launches":1', wf.testing.read(state .. ".launching"))
      assert.matches(case.error, fails_to_launch(copy, state))
      assert.matches('"launches":2', wf.testing.read(state .. ".launching"))
      assert.equal(saved, wf.testing.read(state), "the failed launches leave the state as it was")

      local app = assert(wf.testing.launch(copy, { state = state, time_limit = LIMITS.time_limit }))
      assert.equal("tt://home", app:url())
      local warnings = app:stats().warnings
      assert.equal(1, #warnings, table.concat(warnings, "\n"))
      assert.matches("the saved navigation state stopped the last 2 launches before they showed a screen "
        .. "%(restoring 'tt://page/7': the last one failed with " .. case.error .. "%)", warnings[1])
      local aside = moved_to(warnings[1])
      assert.matches("state%.json%.crashed%-%d+T%d+Z$", aside)
      assert.equal(saved, wf.testing.read(aside), "kept, not deleted")
      assert.is_false(exists(state .. ".launching"))
      app:close()

      -- The fresh state saved at close is an ordinary one.
      local again = assert(wf.testing.launch(copy, { state = state }))
      assert.equal("tt://home", again:url())
      assert.same({}, again:stats().warnings)
      again:close()
    end)
  end

  it("counts only launches in a row: one that shows a screen clears the mark", function()
    local copy, state = saved_in("broken")
    fails_to_launch(copy, state)
    -- For one launch the app takes a broken mood in its stride; the state it saves keeps the mood.
    local app_lua = wf.testing.read(copy .. "/app.lua")
    wf.testing.write(copy .. "/app.lua", (app_lua:gsub('mood == "broken"', 'mood == "never"')))
    local fixed = assert(wf.testing.launch(copy, { state = state }))
    assert.equal("tt://page/7", fixed:url())
    assert.is_false(exists(state .. ".launching"))
    fixed:close()
    wf.testing.write(copy .. "/app.lua", app_lua)

    fails_to_launch(copy, state)
    fails_to_launch(copy, state)
    local third = assert(wf.testing.launch(copy, { state = state }))
    assert.matches("stopped the last 2 launches", third:stats().warnings[1])
    third:close()
  end)

  it("does not count a launch whose restore drops a screen that fails and shows the one below", function()
    local copy = wf.testing.copy_app(MOODY)
    local state = copy .. "/state.json"
    wf.testing.write(copy .. "/app.lua", wf.testing.read(copy .. "/app.lua") .. [[
local Fragile = wf.controller("Fragile", Page)
function Fragile:init() error("this one never comes back") end
wf.map:from("tt://fragile", Fragile)
]])
    wf.testing.write(state, '{"format":"wayfinder.navigation","version":1,"app":"moody","saved_at":"2026-01-01T00:00:00Z",'
      .. '"mode":"all","root":{"kind":"stack","entries":[{"url":"tt://home"},{"url":"tt://fragile"}]},"modals":[]}')
    for _ = 1, 3 do
      local app = assert(wf.testing.launch(copy, { state = state }))
      assert.equal("tt://home", app:url())
      assert.matches("dropped 'tt://fragile': app%.lua:%d+: this one never comes back", app:stats().warnings[1])
      assert.is_false(exists(state .. ".launching"))
      app:close()
      wf.testing.write(state, (wf.testing.read(state):gsub('"url":"tt://home"', '%0},{"url":"tt://fragile"', 1)))
    end
  end)

  it("leaves a file at the mark's path that is not a mark as it is, and runs unguarded", function()
    local copy, state = saved_in("happy")
    wf.testing.write(state .. ".launching", "my own notes")
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.equal("tt://page/7", app:url())
    assert.matches("launches are not guarded against a saved state that stops them: .*state%.json%.launching: "
      .. "it is not a Wayfinder launch mark; it was left as it is", app:stats().warnings[1])
    app:close()
    assert.equal("my own notes", wf.testing.read(state .. ".launching"))
  end)

  it("counts a damaged mark of its own as one launch", function()
    local copy, state = saved_in("broken")
    wf.testing.write(state .. ".launching", '{"format":"wayfinder.launch","launc')
    assert.matches("no screen can be made", fails_to_launch(copy, state))
    assert.matches('"launches":2', wf.testing.read(state .. ".launching"))
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.matches("stopped the last 2 launches", app:stats().warnings[1])
    app:close()
  end)
end)
