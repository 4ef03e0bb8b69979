-- bindfenv rebinds the spec's own functions only (those of the spec file and the modules it
-- requires). busted's rebinds any function; here the runner's, luassert's and the host's are
-- refused, so a spec cannot change what they see.
local bindfenv = require("busted").bindfenv
local wf = require "wayfinder"

describe("bindfenv on a function the spec did not define", function()
  it("refuses a host function", function()
    assert.has_error(function() bindfenv(print, "tostring", nil) end,
      "bindfenv rebinds the spec's own functions only (those of the spec file and the modules it requires), not a host function")
  end)

  it("refuses luassert's and the runner's functions", function()
    for _, fn in ipairs { assert.equal, spy.new, describe, wf.testing.launch } do
      assert.has_error(function() bindfenv(fn, "error", print) end,
        "bindfenv rebinds the spec's own functions only (those of the spec file and the modules it requires), not the runner's or luassert's")
    end
  end)

  it("names what it got that is not a function", function()
    assert.has_error(function() bindfenv(5, "x", 1) end,
      "bad argument #1 to 'bindfenv' (function or callable table expected, got number)")
    assert.has_error(function() bindfenv(function() return x end, nil, 1) end, -- luacheck: ignore x
      "bad argument #2 to 'bindfenv' (a name expected, got nil)")
  end)

  it("rebinds a function of a module the spec requires", function()
    local module = require "lua.spec.modules.reads_global"
    bindfenv(module.read, "MODULE_GLOBAL", "bound")
    assert.equal("bound", module.read())
  end)
end)
