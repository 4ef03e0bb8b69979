-- wf.codec: object IDs safe in a URL path segment, percent-encoding and query strings, by the
-- rules in docs/matching.md. Malformed input gives nil and a reason, never a raised error, so a
-- script can test input it did not write; a wrong argument type is the script's own mistake and
-- is raised at its line.
local native = require "wayfinder.native.codec"

local codec = {}

local function checked(fname, expected)
  local call = native[fname]
  codec[fname] = function(value)
    if type(value) ~= expected then
      error("wf.codec." .. fname .. " needs a " .. expected .. ", got " .. type(value), 2)
    end
    return call(value)
  end
end

for _, fname in ipairs { "encode_id", "decode_id", "escape", "unescape", "parse_query" } do
  checked(fname, "string")
end
checked("query", "table")

return codec
