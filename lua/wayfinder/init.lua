-- The `wayfinder` module: what scripts reach through `require "wayfinder"` (also the global
-- `wayfinder`). Names here are public API (docs/lua-api.md). The heavy lifting is native: this file
-- and its siblings give it the Lua shape scripts expect.
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

return wf
