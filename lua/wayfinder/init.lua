-- The `wayfinder` module: what scripts reach through `require "wayfinder"` (also the global
-- `wayfinder`). Names here are public API (docs/lua-api.md). The heavy lifting is native: this file
-- and its siblings give it the Lua shape scripts expect.
local native_map = require "wayfinder.native.map"

local wf = {
  version = "0.1.0",
  controller = require "wayfinder.controller",
  map = require "wayfinder.map",
  codec = require "wayfinder.codec",
  app = require "wayfinder.app",
  navigator = require "wayfinder.navigator",
  context = require "wayfinder.context",
  native = (require "wayfinder.native_screen").screen,
}

function wf.url_for(obj, name)
  return wf.map:url_for(obj, name)
end

-- wf.url_for_route(name, params): map:url_for_route, raising at the caller's line.
function wf.url_for_route(name, params)
  if type(name) ~= "string" then error("wf.url_for_route needs a route name (a string), got " .. type(name), 2) end
  if params ~= nil and type(params) ~= "table" then
    error("wf.url_for_route('" .. name .. "', params): params must be a table, got " .. type(params), 2)
  end
  local url, reason = native_map.url_for_route(name, params)
  if not url then error(reason, 2) end
  return url
end

return wf
