-- Corrupt state files: a file that is recognizably Wayfinder's (it holds the format marker) is
-- moved aside and the app starts fresh, with a warning that says why and where the file went, and
-- saves a good file again; any other file is refused and left as it is.
local wf = require "wayfinder"

local FAULTY = "lua/faults/apps/faulty"

-- A real state file of the app, after a few opens.
local function saved_state(copy)
  local state = copy .. "/state.json"
  local app = assert(wf.testing.launch(copy, { state = state }))
  for i = 1, 5 do assert(app:open("tt://page/" .. i)) end
  app:close()
  return state, wf.testing.read(state)
end

local function starts_fresh(copy, state, text)
  wf.testing.write(state, text)
  local app = assert(wf.testing.launch(copy, { state = state }))
  local warnings = app:stats().warnings
  assert.equal("tt://ok", app:url())
  assert.equal(1, #warnings)
  assert.matches("the saved navigation state could not be read %(.+%); it was moved to .*state%.json%.corrupt%-", warnings[1])
  assert.is_true(app:open("tt://page/9"))
  app:close()
  -- The file written at close is good: the next launch comes back to it.
  local again = assert(wf.testing.launch(copy, { state = state }))
  assert.equal("tt://page/9", again:url())
  assert.same({}, again:stats().warnings)
  again:close()
end

-- A file that is not recognizably a state (no format marker) could be anyone's: the launch is
-- refused, naming it, and the file stays as it was.
local function left_alone(copy, state, text)
  wf.testing.write(state, text)
  local app, err = wf.testing.launch(copy, { state = state })
  assert.is_nil(app)
  assert.matches("state%.json: it is not a Wayfinder state file; it was left as it is", err)
  assert.equal(text, wf.testing.read(state))
end

local function refused(copy, state, text)
  if text:find('"wayfinder.navigation"', 1, true) then
    starts_fresh(copy, state, text)
  else
    left_alone(copy, state, text)
  end
end

describe("a corrupt state file", function()
  local copy, state, good
  setup(function()
    copy = wf.testing.copy_app(FAULTY)
    state, good = saved_state(copy)
  end)

  it("is a valid file to begin with", function()
    local app = assert(wf.testing.launch(copy, { state = state }))
    assert.equal("tt://page/5", app:url())
    app:close()
    wf.testing.write(state, good)
  end)

  -- Cut short at sixty points from empty to one byte short (the test's names are made
  -- before the file exists, so they count sixtieths).
  for point = 0, 59 do
    it("cut short at " .. point .. "/60 of its length", function()
      refused(copy, state, good:sub(1, math.min(#good - 1, #good * point // 60)))
    end)
  end

  local variants = {
    { "of another format", function(text) return (text:gsub('"wayfinder.navigation"', '"someone.else"')) end },
    { "of a future version", function(text) return (text:gsub('"version"%s*:%s*1', '"version": 99')) end },
    { "with a field of the wrong type", function(text) return (text:gsub('"mode"%s*:%s*"all"', '"mode": 7')) end },
    { "that is not JSON", function() return "this is not a state file" end },
    { "that is JSON null", function() return "null" end },
    { "that is a JSON array", function() return "[1, 2, 3]" end },
    { "nested ten thousand deep", function() return ("["):rep(10000) .. ("]"):rep(10000) end },
    { "with a context index out of range", function(text) return (text:gsub('"context":%s*%d+', '"context": 99', 1)) end },
    { "with a tab selection out of range", function() return '{"format":"wayfinder.navigation","version":1,"mode":"all",'
        .. '"root":{"kind":"tabs","selected":5,"tabs":[[{"url":"tt://ok"}]]},"modals":[],"contexts":[]}' end },
  }
  for _, variant in ipairs(variants) do
    it(variant[1], function()
      local text = variant[2](good)
      assert.is_true(text ~= good, "the variant changes the file")
      refused(copy, state, text)
    end)
  end
end)
