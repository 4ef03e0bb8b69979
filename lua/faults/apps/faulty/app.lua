-- An app that goes wrong on request, at every point where the host calls into Lua:
-- tt://fault/<where>/<what> runs payloads[what] in a constructor, a delegate hook, a context
-- observer, render, persist or restore. tt://ok and tt://page/<n> always work.
local wf = require "wayfinder"
local payloads = require "payloads"

local function run(what)
  local payload = payloads[what]
  if not payload then error("no payload " .. tostring(what)) end
  return payload()
end

local Page = wf.controller "Page"
function Page:init(route) self.url = route and route.url end
function Page:render() return { title = "Page", lines = { tostring(self.url) } } end

local Constructor = wf.controller "Constructor"
function Constructor:initWithWhat(what) run(what) end

local Render = wf.controller("Render", Page)
function Render:initWithWhat(what) self.what = what end
function Render:render() run(self.what) end

local Persist = wf.controller("Persist", Page)
function Persist:initWithWhat(what) self.what = what end
function Persist:persist(state) state.what = self.what; run(self.what) end

local Restore = wf.controller("Restore", Page)
function Restore:initWithWhat(what) self.what = what end
function Restore:persist(state) state.what = self.what end
function Restore:restore(state) run(state.what) end

wf.map:from("tt://ok", Page)
wf.map:from("tt://page/(id)", Page)
wf.map:from("tt://fault/constructor/(initWithWhat:)", Constructor)
wf.map:from("tt://fault/render/(initWithWhat:)", Render)
wf.map:from("tt://fault/persist/(initWithWhat:)", Persist)
wf.map:from("tt://fault/restore/(initWithWhat:)", Restore)
wf.map:from("tt://fault/delegate/(what)", Page)

-- Observers of the app context's `trigger`: setting it runs the payload it names. The owner
-- lives as long as the app (observers go away with their owners).
local observer_owner = {}
wf.context.app:observe("trigger", observer_owner, function(_, what) run(what) end)
wf.map:from("tt://fault/observer/(what)", function(route) wf.context.app:set("trigger", route.params.what) end,
  { mode = "none" })

wf.navigator.delegate = {
  should_open = function(url)
    local what = url:match("^tt://fault/delegate/(.+)$")
    if what then run(what) end
    return true
  end,
}

wf.app { name = "faulty", root = "tt://ok", persistence = "all" }
