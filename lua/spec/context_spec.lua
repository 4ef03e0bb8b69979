-- wf.context from Lua: the chain, named layers, typed fields, observers.
local wf = require "wayfinder"

describe("wf.context", function()
  local app, flow

  before_each(function()
    app = wf.context { name = "shop" }
    flow = wf.context { inner = app }
  end)

  it("reads inward and writes where it is called", function()
    app:set("userId", "12345")
    flow:set("color", "Blue")
    assert.equal("12345", flow:get("userId"))
    assert.is_nil(app:get("color"))
    assert.equal("12345", flow:get("userId", "shop"))
  end)

  it("hides an inner value with a stored nil until it is removed", function()
    app:set("coupon", "SAVE10")
    flow:set("coupon", nil)
    assert.is_nil(flow:get("coupon"))
    flow:remove("coupon")
    assert.equal("SAVE10", flow:get("coupon"))
  end)

  it("checks typed fields", function()
    local typed = wf.context { fields = { age = "int" } }
    typed.age = 3
    assert.equal(3, typed.age)
    assert.has_error(function() typed.age = "three" end)
  end)

  it("calls observers with owner, value and key", function()
    local owner, seen = {}, {}
    app:observe("waitress", owner, function(o, value, key) seen[#seen + 1] = { o == owner, value, key } end)
    app:set("waitress", "Alice")
    assert.same({ { true, "Alice", "waitress" } }, seen)
  end)

  it("has wf.context.app innermost in every chain", function()
    wf.context.app:set("theme", "dark")
    assert.equal("dark", flow:get("theme"))
  end)
end)
