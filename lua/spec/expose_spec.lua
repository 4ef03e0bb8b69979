-- What an expose block sets outlives the block holding it, as in busted: an insulate around it
-- does not put it back; the block above that one does. Tests here run in their written order.
-- luacheck: globals EXPOSED_VALUE INSULATED_VALUE HELD_VALUE
-- What is set through _G is the point here:
-- luacheck: ignore 122
local module_name = "expose_spec.module"

insulate("an expose inside an insulate", function()
  insulate("the insulate", function()
    _G.INSULATED_VALUE = "before the expose"

    expose("the expose", function()
      EXPOSED_VALUE = "exposed"
      package.loaded[module_name] = { "exposed" }

      it("sees what it set", function()
        assert.equal("exposed", EXPOSED_VALUE)
        assert.same({ "exposed" }, package.loaded[module_name])
      end)
    end)
  end)

  describe("after the insulate", function()
    it("still sees the expose's global", function()
      assert.equal("exposed", EXPOSED_VALUE)
    end)

    it("still sees the module the expose loaded", function()
      assert.same({ "exposed" }, package.loaded[module_name])
    end)

    it("sees what the insulate set in _G before the expose ended", function()
      assert.equal("before the expose", INSULATED_VALUE)
    end)
  end)
end)

describe("after the block holding the insulate", function()
  it("the expose's global is put back", function()
    assert.is_nil(EXPOSED_VALUE)
    assert.is_nil(INSULATED_VALUE)
  end)
end)

describe("an insulate without an expose", function()
  insulate("the insulate", function()
    HELD_VALUE = "insulated"
    package.loaded[module_name .. ".insulated"] = { "insulated" }
    it("sees what it set", function() assert.equal("insulated", HELD_VALUE) end)
  end)

  it("puts back its globals and modules when it ends", function()
    assert.is_nil(HELD_VALUE)
    assert.is_nil(package.loaded[module_name .. ".insulated"])
  end)
end)

describe("an expose directly in a describe", function()
  describe("the describe", function()
    expose("the expose", function()
      EXPOSED_VALUE = "in a describe"
      it("sees what it set", function() assert.equal("in a describe", EXPOSED_VALUE) end)
    end)

    it("is seen by the describe's later tests", function()
      assert.equal("in a describe", EXPOSED_VALUE)
    end)
  end)

  it("is seen after the describe, in the block above it", function()
    assert.equal("in a describe", EXPOSED_VALUE)
  end)
end)

describe("after the block above the describe", function()
  it("the expose's global is put back", function()
    assert.is_nil(EXPOSED_VALUE)
  end)
end)
