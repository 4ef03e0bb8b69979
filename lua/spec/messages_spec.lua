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

describe("wf.testing says each thing once", function()
  it("names a launch that fails once", function()
    local app, err = wf.testing.launch("lua/spec/apps/nonexist")
    assert.is_nil(app)
    assert.equal("launch: no such file or directory: lua/spec/apps/nonexist", err)
    app, err = wf.testing.launch("lua/spec/apps/notes", { state = "/tmp/elsewhere.json" })
    assert.is_nil(app)
    assert.equal("launch: state: /tmp/elsewhere.json is not inside a copy made by wf.testing.copy_app", err)
  end)

  it("raises a wrong argument type at the spec's line", function()
    local app = assert(wf.testing.launch("lua/spec/apps/notes"))
    local ok, err = pcall(function() app:select("x") end)
    assert.is_false(ok)
    assert.matches("messages_spec.lua:%d+: app:select needs a tab number %(an integer%), got string$", err)
    ok, err = pcall(function() app:open(5) end)
    assert.is_false(ok)
    assert.matches("messages_spec.lua:%d+: app:open needs a URL %(a string%), got number$", err)
    app:close()
  end)
end)
