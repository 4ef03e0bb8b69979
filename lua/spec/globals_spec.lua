-- Globals as busted keeps them: each block and test has its own table of globals, falling back to
-- the block above it and then to _G, the one table all share. Tests here run in their written order.
-- luacheck: globals BARE_GLOBAL SHARED_GLOBAL TEST_SHARED HOOK_GLOBAL AFTER_GLOBAL HELPER_GLOBAL
-- What is set through _G is the point here:
-- luacheck: ignore 122
-- luacheck: globals EXPOSED_GLOBAL INSULATED_SHARED OUTER_GLOBAL INNER_GLOBAL
local module_name = "globals_spec.module"

describe("a global set by its bare name in a describe", function()
  BARE_GLOBAL = "bare"

  it("is seen by the block's tests, but not in _G", function()
    assert.equal("bare", BARE_GLOBAL)
    assert.is_nil(_G.BARE_GLOBAL)
    assert.is_nil(rawget(_G, "BARE_GLOBAL"))
  end)
end)

describe("after that describe", function()
  it("is gone", function()
    assert.is_nil(BARE_GLOBAL)
  end)
end)

describe("a global set through _G", function()
  _G.SHARED_GLOBAL = "shared"

  it("is seen by its bare name and in _G", function()
    assert.equal("shared", SHARED_GLOBAL)
    assert.equal("shared", _G.SHARED_GLOBAL)
  end)

  it("set in a test", function()
    _G.TEST_SHARED = "from a test"
  end)

  it("stays for the later tests", function()
    assert.equal("from a test", TEST_SHARED)
  end)
end)

describe("after the describe that set _G's", function()
  it("is still there, as no insulate ended", function()
    assert.equal("shared", SHARED_GLOBAL)
    assert.equal("shared", _G.SHARED_GLOBAL)
    assert.equal("from a test", _G.TEST_SHARED)
  end)
end)

insulate("an insulate", function()
  _G.INSULATED_SHARED = "insulated"
  package.loaded[module_name] = { "loaded" }
  it("sees what it set in _G", function() assert.equal("insulated", _G.INSULATED_SHARED) end)
end)

describe("after the insulate", function()
  it("puts back _G and package.loaded", function()
    assert.is_nil(_G.INSULATED_SHARED)
    assert.is_nil(package.loaded[module_name])
  end)
end)

describe("a hook's global", function()
  before_each(function() HOOK_GLOBAL = "hook" end)
  after_each(function() AFTER_GLOBAL = "after" end)

  describe("an inner block", function()
    INNER_GLOBAL = "inner"
    before_each(function() OUTER_GLOBAL = INNER_GLOBAL end)

    it("lands in the block that declared the hook", function()
      assert.equal("hook", HOOK_GLOBAL)
      assert.is_nil(_G.HOOK_GLOBAL)
      assert.equal("inner", OUTER_GLOBAL)
    end)
  end)

  it("is seen by that block's tests, the after_each's too, after the first test", function()
    assert.equal("hook", HOOK_GLOBAL)
    assert.equal("after", AFTER_GLOBAL)
    assert.is_nil(OUTER_GLOBAL)
    assert.is_nil(INNER_GLOBAL)
  end)
end)

describe("a helper a describe defines", function()
  local function set_global() HELPER_GLOBAL = "helper" end

  it("sets the global in the test that calls it", function()
    set_global()
    assert.equal("helper", HELPER_GLOBAL)
  end)

  it("so it is gone for the next test", function()
    assert.is_nil(HELPER_GLOBAL)
  end)
end)

describe("an expose", function()
  describe("the block holding it", function()
    expose("the expose", function()
      EXPOSED_GLOBAL = "exposed"
      it("sets a bare global that is not in _G", function()
        assert.equal("exposed", EXPOSED_GLOBAL)
        assert.is_nil(_G.EXPOSED_GLOBAL)
      end)
    end)
  end)

  it("is seen after the block holding it", function()
    assert.equal("exposed", EXPOSED_GLOBAL)
    assert.is_nil(_G.EXPOSED_GLOBAL)
  end)
end)

describe("after the block above the expose", function()
  it("is gone", function() assert.is_nil(EXPOSED_GLOBAL) end)
end)
