-- The Lua functions the Swift host calls, gathered once at start-up (see LuaHostHooks.swift).
-- Not for scripts: changing this table changes nothing, the host keeps its own references.
local navigator = require "wayfinder.navigator"
local context = require "wayfinder.context"
local migration = require "wayfinder.migration"

local hooks = {}
for name, fn in pairs(navigator._host) do hooks[name] = fn end
hooks.dispatch = context._dispatch
hooks.leave = function(controller) context._forget(controller) end
hooks.wrap_context = context._wrap
hooks.app_context = context.app
hooks.app_core = context._core(context.app)
hooks.migrate = migration._run

return hooks
