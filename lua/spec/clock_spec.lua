-- wf.testing's fake clock: a launched app reads the time only through the spec's clock, so
-- expiry is tested without waiting.
local wf = require "wayfinder"

local EXPIRING = "lua/spec/apps/expiring"

describe("a fake clock", function()
  local now, app
  local function clock() return now end

  before_each(function()
    now = 1000000
    app = assert(wf.testing.launch(EXPIRING, { clock = clock }))
  end)
  after_each(function() app:close() end)

  it("restores a state younger than the expiration", function()
    assert.is_true(app:open("tt://page/deep"))
    assert.is_true(app:advance(59))
    assert.is_true(app:relaunch())
    assert.equal("tt://page/deep", app:url())
  end)

  it("starts fresh once the state is older than the expiration, after advance", function()
    assert.is_true(app:open("tt://page/deep"))
    assert.is_true(app:relaunch())
    assert.equal("tt://page/deep", app:url())
    assert.is_true(app:advance(61))
    assert.is_true(app:relaunch())
    assert.equal("tt://page/home", app:url())
  end)

  it("follows the clock function too, and relaunch keeps the clock", function()
    assert.is_true(app:open("tt://page/deep"))
    assert.is_true(app:relaunch())
    now = now + 3600
    assert.is_true(app:relaunch())
    assert.equal("tt://page/home", app:url())
  end)

  it("keeps an expired state when an important screen is in it", function()
    assert.is_true(app:open("tt://order"))
    assert.is_true(app:advance(24 * 3600))
    assert.is_true(app:relaunch())
    assert.equal("tt://order", app:url())
  end)

  it("does not restore a state saved in the future (the clock went back)", function()
    assert.is_true(app:open("tt://page/deep"))
    assert.is_true(app:relaunch())
    now = now - 10
    assert.is_true(app:relaunch())
    assert.equal("tt://page/home", app:url())
  end)

  it("refuses to run backwards or by something that is not a number", function()
    local ok, err = app:advance(-1)
    assert.is_false(ok)
    assert.matches("finite number of seconds >= 0", err)
    ok, err = app:advance("soon")
    assert.is_false(ok)
    assert.matches("number of seconds, got", err)
    ok, err = app:advance(0/0)
    assert.is_false(ok)
    assert.matches("finite number of seconds >= 0", err)
  end)

  it("fails the operation, not the app, when the clock answers badly", function()
    assert.is_true(app:open("tt://page/deep"))
    now = "noon"
    local ok, err = app:relaunch()
    assert.is_false(ok)
    assert.matches("the clock function returned a string", err)
    assert.equal("tt://page/deep", app:url())
    now = 1000000
    assert.is_true(app:relaunch())
    assert.equal("tt://page/deep", app:url())
  end)

  it("reports an error raised in the clock function with its line", function()
    local broken, err = wf.testing.launch(EXPIRING, { clock = function() error("no time") end })
    assert.is_nil(broken)
    assert.matches("clock_spec.lua:%d+: no time", err)
    local ok, reason = wf.testing.launch(EXPIRING, { clock = 12 })
    assert.is_nil(ok)
    assert.matches("option clock = 12 is not understood", reason)
  end)
end)

describe("without a fake clock", function()
  it("reads the system's clock, and advance still moves it on", function()
    local app = assert(wf.testing.launch(EXPIRING))
    assert.is_true(app:open("tt://page/deep"))
    assert.is_true(app:relaunch())
    assert.equal("tt://page/deep", app:url())
    assert.is_true(app:advance(120))
    assert.is_true(app:relaunch())
    assert.equal("tt://page/home", app:url())
    app:close()
  end)
end)
