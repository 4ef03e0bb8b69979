-- wf.codec: object IDs safe in a URL path segment, percent-encoding and query strings, by the
-- rules in MATCHING.md. Malformed input gives nil and a reason, never a raised error, so a
-- script can test input it did not write.
local native = require "wayfinder.native.codec"

local codec = {}

local function text_argument(fname, value)
  if type(value) ~= "string" then
    error("wf.codec." .. fname .. " needs a string, got " .. type(value), 3)
  end
end

function codec.encode_id(text)
  text_argument("encode_id", text)
  return native.encode_id(text)
end

function codec.decode_id(token)
  text_argument("decode_id", token)
  return native.decode_id(token)
end

function codec.escape(text)
  text_argument("escape", text)
  return native.escape(text)
end

function codec.unescape(text)
  text_argument("unescape", text)
  return native.unescape(text)
end

function codec.query(tbl)
  if type(tbl) ~= "table" then error("wf.codec.query needs a table, got " .. type(tbl), 2) end
  return native.query(tbl)
end

function codec.parse_query(text)
  text_argument("parse_query", text)
  return native.parse_query(text)
end

return codec
