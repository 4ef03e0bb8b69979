-- What wf.testing says when a navigation fails: the reason once, naming the URL once.
local wf = require "wayfinder"

describe("wf.testing reasons", function()
  local app
  before_each(function() app = assert(wf.testing.launch("lua/spec/apps/notes")) end)
  after_each(function() app:close() end)

  it("names the URL of a failed open once", function()
    local ok, err = app:open("tt://nowhere")
    assert.is_false(ok)
    assert.equal("cannot open 'tt://nowhere': no route matches", err)
    ok, err = app:open("tt://type/x")
    assert.is_false(ok)
    assert.equal("cannot open 'tt://type/x': no note is open", err)
  end)
end)
