-- wf.codec from Lua: object IDs, percent-encoding, query strings.
local wf = require "wayfinder"

describe("wf.codec", function()
  it("round-trips an object ID through a path-safe token", function()
    local id = "x-coredata://8C3E6F2A/Contact/p3"
    local token = wf.codec.encode_id(id)
    assert.is_nil(token:find("[/+=]"))
    assert.equal(id, wf.codec.decode_id(token))
  end)

  it("turns away a token that is not an object ID", function()
    local value, err = wf.codec.decode_id("not a token!")
    assert.is_nil(value)
    assert.not_nil(err)
  end)

  it("escapes and unescapes", function()
    assert.equal("a%20b%2Fc", wf.codec.escape("a b/c"))
    assert.equal("a b/c", wf.codec.unescape("a%20b%2Fc"))
  end)

  it("parses repeated query keys into a list", function()
    assert.same({ items = { "pie", "pizza" }, ref = "toolbar" }, wf.codec.parse_query("items=pie&items=pizza&ref=toolbar"))
  end)
end)
