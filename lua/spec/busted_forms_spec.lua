-- busted's rules for how blocks, tests and hooks are written (docs/testing.md, "wayfinder test").

-- Every block and hook may be called curried: given a name, it answers the function taking the body.
-- luacheck: globals CURRIED_INSULATED
describe "curried forms" (function()
  randomize(false)
  local order = {}

  setup "prepares" (function() order[#order + 1] = "setup" end)
  strict_setup "prepares strictly" (function() order[#order + 1] = "strict_setup" end)
  lazy_setup "prepares lazily" (function() order[#order + 1] = "lazy_setup" end)
  before_each "before" (function() order[#order + 1] = "before" end)
  after_each "after" (function() order[#order + 1] = "after" end)
  teardown "cleans" (function() order[#order + 1] = "teardown" end)

  it "runs a curried test after every curried hook" (function()
    order[#order + 1] = "it"
    assert.same({ "setup", "strict_setup", "lazy_setup", "before", "it" }, order)
  end)

  test "names a test with test" (function()
    assert.same("after", order[#order - 1])
    assert.same("before", order[#order])
  end)

  spec "names a test with spec" (function() assert.equal("before", order[#order]) end)

  context "a curried context" (function()
    it "runs inside it" (function() assert.is_true(true) end)
  end)

  insulate "a curried insulate" (function()
    it "runs inside it" (function() CURRIED_INSULATED = true end)
  end)

  expose "a curried expose" (function()
    it "runs inside it" (function() assert.is_nil(CURRIED_INSULATED) end)
  end)

  it "given a name alone is no test until given its body" (function()
    assert.is_function(it "never given a body")
  end)

  -- Given something else than a function, the curried form fails at the spec's line.
  local ok, err = pcall(function() it "given a number" (42) end)
  it "refuses a body that is not a function, at the spec's line" (function()
    assert.is_false(ok)
    assert.matches("^busted_forms_spec%.lua:%d+: it needs a function, got number", err)
  end)

  local hook_ok, hook_err = pcall(function() before_each "named" ("text") end)
  it "refuses a hook's body that is not a function, at the spec's line" (function()
    assert.is_false(hook_ok)
    assert.matches("^busted_forms_spec%.lua:%d+: before_each needs a function, got string", hook_err)
  end)
end)

-- randomize as busted's: a seed gives busted's order (Lua's generator seeded with it, each place
-- from the last down swapped with one at or before it, the block's hooks counted among its
-- children); false or nil turns shuffling off, even under --shuffle.
randomize(false)

local ran = { seeded = {}, seeded_again = {}, off = {}, nil_off = {} }

local function busteds_order(seed, children)
  local order = {}
  for i, child in ipairs(children) do order[i] = child end
  math.randomseed(seed)
  for n = #order, 2, -1 do
    local k = math.random(n)
    order[n], order[k] = order[k], order[n]
  end
  local tests = {}
  for _, child in ipairs(order) do
    if child ~= "hook" then tests[#tests + 1] = child end
  end
  return tests
end

describe("randomize with a seed", function()
  before_each(function() end)
  randomize(42)
  for i = 1, 9 do it("test " .. i, function() ran.seeded[#ran.seeded + 1] = i end) end
end)

describe("randomize with true and a seed", function()
  randomize(true, 7)
  for i = 1, 9 do it("test " .. i, function() ran.seeded_again[#ran.seeded_again + 1] = i end) end
end)

describe("randomize turned off", function()
  randomize()
  randomize(false)
  for i = 1, 9 do it("test " .. i, function() ran.off[#ran.off + 1] = i end) end
end)

describe("randomize turned off with nil", function()
  randomize(nil)
  for i = 1, 9 do it("test " .. i, function() ran.nil_off[#ran.nil_off + 1] = i end) end
end)

describe("the orders randomize gave", function()
  it("follow busted's shuffle for the seed, hooks counted", function()
    assert.same(busteds_order(42, { "hook", 1, 2, 3, 4, 5, 6, 7, 8, 9 }), ran.seeded)
    assert.same(busteds_order(7, { 1, 2, 3, 4, 5, 6, 7, 8, 9 }), ran.seeded_again)
    assert.are_not.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9 }, ran.seeded)
  end)

  it("keep the written order when turned off", function()
    assert.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9 }, ran.off)
    assert.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9 }, ran.nil_off)
  end)
end)

-- Blocks and hooks are declared in describe bodies only: inside a test or a hook they fail, in
-- busted's words, at the line that called them.
describe("blocks and hooks inside a test", function()
  local in_hook
  before_each(function()
    local _, err = pcall(function() it("in a hook", function() end) end)
    in_hook = err
  end)

  it("fail in busted's words at the caller's line", function()
    local vocabulary = {
      describe = describe, context = context, insulate = insulate, expose = expose, it = it, test = test, spec = spec,
      before_each = before_each, after_each = after_each, setup = setup, teardown = teardown, strict_setup = strict_setup,
      strict_teardown = strict_teardown, lazy_setup = lazy_setup, lazy_teardown = lazy_teardown, randomize = randomize,
    }
    for word, declare in pairs(vocabulary) do
      local ok, err = pcall(function() declare(function() end) end)
      assert.is_false(ok)
      assert.matches("^busted_forms_spec%.lua:%d+: '" .. word .. "' not supported inside current context block$", err)
    end
  end)

  it("fail inside a hook too", function()
    assert.matches("^busted_forms_spec%.lua:%d+: 'it' not supported inside current context block$", in_hook)
  end)

  local in_finally
  it("pending fails inside a finally, as busted's does", function()
    finally(function() in_finally = table.pack(pcall(function() pending("late") end)) end)
  end)

  it("(the finally above ran and pending failed there)", function()
    assert.is_false(in_finally[1])
    assert.matches("^busted_forms_spec%.lua:%d+: 'pending' not supported inside current context block$", in_finally[2])
  end)
end)

-- setup (strict_setup) runs when its block starts, tests or none; lazy_setup before the first test
-- under its block, so not at all in a block holding only test-less describes; a lazy teardown runs
-- only when its lazy setup did.
local hooks_ran = {}
local function log(word) return function() hooks_ran[#hooks_ran + 1] = word end end

describe("a block with no tests", function()
  strict_setup(log "strict_setup")
  lazy_setup(log "lazy_setup")
  lazy_teardown(log "lazy_teardown")
  teardown(log "teardown")
end)

describe("a block holding only test-less describes", function()
  lazy_setup(log "lazy_setup 2")
  setup(log "setup 2")
  describe("empty", function() end)
  describe("empty too", function() end)
end)

describe("a block whose test is in an inner block", function()
  lazy_setup(log "lazy_setup 3")
  lazy_teardown(log "lazy_teardown 3")
  describe("inner", function()
    setup(log "inner setup")
    it("runs after the outer lazy setup", function() hooks_ran[#hooks_ran + 1] = "test" end)
  end)
end)

describe("the hooks that ran", function()
  it("are the strict ones and the lazy ones a test needed", function()
    assert.same({ "strict_setup", "teardown", "setup 2", "inner setup", "lazy_setup 3", "test", "lazy_teardown 3" }, hooks_ran)
  end)
end)

-- Each block has its own environment, as in busted: globals set in a describe body, its setups
-- and hooks last until the block ends, those set in a test until the test ends.
-- luacheck: globals BLOCK_GLOBAL SETUP_GLOBAL HOOK_GLOBAL TEST_GLOBAL
describe("environments", function()
  randomize(false)

  describe("a block that sets globals", function()
    BLOCK_GLOBAL = "block"
    setup(function() SETUP_GLOBAL = "setup" end)
    before_each(function() HOOK_GLOBAL = "hook" end)

    it("sees its own, its setup's and its hooks'", function()
      TEST_GLOBAL = "test"
      assert.same({ "block", "setup", "hook", "test" }, { BLOCK_GLOBAL, SETUP_GLOBAL, HOOK_GLOBAL, TEST_GLOBAL })
    end)

    it("does not see an earlier test's", function()
      assert.is_nil(TEST_GLOBAL)
      assert.equal("block", BLOCK_GLOBAL)
    end)
  end)

  it("does not see a block's that ended", function()
    assert.is_nil(BLOCK_GLOBAL); assert.is_nil(SETUP_GLOBAL); assert.is_nil(HOOK_GLOBAL); assert.is_nil(TEST_GLOBAL)
  end)

  describe("finally", function()
    randomize(false)
    local in_hook = "unset"
    local in_body = finally
    local cleanup = spy.new(function() end)
    before_each(function() in_hook = finally end)

    it("is nil inside hooks and describe bodies", function()
      assert.is_nil(in_hook)
      assert.is_nil(in_body)
      assert.is_function(finally)
    end)

    it("takes a callable table, such as a spy", function()
      finally(cleanup)
      assert.spy(cleanup).was_not.called()
    end)

    it("called it after that test", function()
      assert.spy(cleanup).was.called(1)
    end)

    it("refuses what cannot be called", function()
      assert.has_error(function() finally({}) end, "finally needs a function or a callable table, got table")
    end)
  end)
end)

-- require "busted" answers busted's module: the vocabulary, publish and subscribe, time, version;
-- read-only.
describe("require 'busted'", function()
  local busted = require "busted"
  local vocabulary = { describe = describe, it = it, spy = spy, assert = assert }

  it("exports what busted's does", function()
    for _, name in ipairs { "publish", "subscribe", "unsubscribe", "gettime", "monotime", "sleep", "fail" } do
      assert.is_function(busted[name], name)
    end
    assert.equal("2.1.1", busted.version)
    for name, value in pairs(vocabulary) do assert.equal(value, busted[name], name) end
  end)

  it("is read-only", function()
    assert.has_error(function() busted.describe = nil end, "Attempt to modify busted")
    assert.has_error(function() busted.anything = 1 end, "Attempt to modify busted")
    assert.equal(vocabulary.describe, busted.describe)
    assert.is_nil(busted.anything)
  end)

  it("carries a message to its channel's subscribers, then to the channels above", function()
    local heard = {}
    local event = busted.subscribe({ "custom", "event" }, function(a, b) heard[#heard + 1] = "event " .. a .. b; return "one", true end)
    busted.subscribe({ "custom" }, function(a) heard[#heard + 1] = "custom " .. a; return "two" end)
    busted.subscribe({ "custom" }, function() heard[#heard + 1] = "never: the one before stopped it" end)
    busted.subscribe({ "custom", "event" }, function() heard[#heard + 1] = "first"; return nil, true end, { priority = 1 })
    busted.subscribe({ "custom", "event" }, function() heard[#heard + 1] = "never: not its kind" end,
      { predicate = function(a) return a == "z" end })
    assert.same({ "one", "two" }, busted.publish({ "custom", "event" }, "a", "b"))
    assert.same({ "first", "event ab", "custom a" }, heard)
    busted.unsubscribe(event.id, { "custom", "event" })
    heard = {}
    busted.publish({ "custom", "event" }, "x", "y")
    assert.same({ "first", "custom x" }, heard)
  end)

  it("waits in sleep", function()
    local before = busted.monotime()
    busted.sleep(0.01)
    assert.is_true(busted.monotime() - before >= 0.01)
    assert.is_number(busted.gettime())
  end)
end)

-- debug in spec files: traceback, getinfo (source, line, name, kind) and getmetatable for the
-- spec's own values; no sethook.
describe("debug in spec files", function()
  it("answers a frame's source, line, name and kind", function()
    local function named() return debug.getinfo(1) end
    local info = named()
    assert.matches("busted_forms_spec%.lua$", info.short_src)
    assert.equal("@", info.source:sub(1, 1))
    assert.equal("Lua", info.what)
    assert.equal("named", info.name)
    assert.equal("local", info.namewhat)
    assert.is_true(info.currentline >= info.linedefined and info.linedefined > 0)
    assert.equal(info.linedefined, debug.getinfo(named).linedefined)
    assert.is_nil(info.func)
    assert.is_nil(debug.getinfo(1000))
  end)

  it("makes a traceback from the caller's frame", function()
    local function inner()
      local traceback = debug.traceback("here", 1)
      return traceback
    end
    local traceback = inner()
    assert.matches("^here\nstack traceback:\n\tbusted_forms_spec%.lua:%d+: in local 'inner'\n\tbusted_forms_spec%.lua:%d+: in function <busted_forms_spec%.lua:%d+>", traceback)
    assert.matches("^stack traceback:\n", debug.traceback())
    local object = {}
    assert.equal(object, debug.traceback(object))
  end)

  it("answers the metatables of the spec's own values", function()
    local metatable = { __index = {} }
    assert.equal(metatable, debug.getmetatable(setmetatable({}, metatable)))
    assert.is_nil(debug.getmetatable(setmetatable({}, { __metatable = "locked" })))
    assert.is_nil(debug.getmetatable({}))
  end)

  it("refuses sethook, saying why", function()
    assert.has_error(function() debug.sethook(print, "l") end,
      "debug.sethook is not available in spec files: the time budget's hook is the host's")
  end)
end)
