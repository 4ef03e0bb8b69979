-- require "busted".bindfenv(fn, name, value), as busted's: fn then sees `name` as value, its other
-- globals as before, and the functions that shared its globals see them unchanged. It rebinds
-- the spec's own functions only: never a host function, nor the runner's or luassert's.
-- luacheck: globals BOUND_NAME OTHER_GLOBAL
local bindfenv = require("busted").bindfenv

describe("bindfenv", function()
  it("gives a spec function a global of its own", function()
    local function read() return BOUND_NAME end
    local function sibling() return BOUND_NAME end
    bindfenv(read, "BOUND_NAME", "bound")
    assert.equal("bound", read())
    assert.is_nil(sibling())
    assert.is_nil(BOUND_NAME)
  end)

  it("leaves the function's other globals as they were", function()
    OTHER_GLOBAL = "other"
    local function read() return OTHER_GLOBAL, BOUND_NAME end
    bindfenv(read, "BOUND_NAME", 1)
    assert.same({ "other", 1 }, { read() })
  end)

  it("rebinds a callable table's __call", function()
    local callable = setmetatable({}, { __call = function() return BOUND_NAME end })
    bindfenv(callable, "BOUND_NAME", "called")
    assert.equal("called", callable())
  end)

  it("may rebind a function it rebound", function()
    local function read() return BOUND_NAME, OTHER_GLOBAL end
    bindfenv(read, "BOUND_NAME", "first")
    bindfenv(read, "OTHER_GLOBAL", "second")
    assert.same({ "first", "second" }, { read() })
  end)

  it("does nothing to a function that reads no global", function()
    local function constant() return 1 end
    bindfenv(constant, "BOUND_NAME", "unused")
    assert.equal(1, constant())
  end)

  it("refuses what is not a function", function()
    assert.has_error(function() bindfenv({}, "x", 1) end)
    assert.has_error(function() bindfenv(nil, "x", 1) end)
  end)
end)
