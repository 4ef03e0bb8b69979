-- luassert's spies, stubs and mocks on app code: the navigator calls them where it calls the
-- app's own functions (a delegate hook, a controller's method, a constructor).
local wf = require "wayfinder"

local Page = wf.controller "Page"
function Page:init(route) self.title = "page " .. tostring(route.params.n) end
function Page:render() return { title = self.title, lines = {} } end

wf.map:from("tt://page/(n:int)", Page)

describe("spies on app code", function()
  local delegate

  before_each(function()
    delegate = { open_external = function() return true end }
    wf.navigator.delegate = delegate
  end)

  after_each(function()
    wf.navigator.delegate = nil
  end)

  it("records the external URL the navigator hands to the delegate's open_external", function()
    local external = spy.on(delegate, "open_external")
    assert.truthy(wf.navigator:open("tel:5555555"))
    assert.spy(external).was.called(1)
    assert.spy(external).was.called_with("tel:5555555")
    assert.spy(external).was_not.called_with("tel:1")
    external:revert()
    assert.is_function(delegate.open_external)
  end)

  it("stubs a hook and sees what it answered", function()
    stub(delegate, "open_external").returns(true)
    assert.truthy(wf.navigator:open("mailto:chef@example.com"))
    assert.stub(delegate.open_external).was.called_with(match.is_string())
    delegate.open_external:revert()
  end)

  it("spies on a constructor and a controller's method", function()
    local init = spy.on(Page, "init")
    local controller = assert(wf.navigator:open("tt://page/3"))
    assert.spy(init).was.called(1)
    assert.spy(init).was.called_with(match.is_ref(controller), match.is_table())
    assert.equal("page 3", controller.title)
    init:revert()
  end)

  it("mocks a table: every function becomes a spy", function()
    local hooks = mock({ open_external = function() return true end })
    wf.navigator.delegate = hooks
    assert.truthy(wf.navigator:open("sms:5555"))
    assert.spy(hooks.open_external).was.called(1)
    mock.revert(hooks)
  end)
end)
