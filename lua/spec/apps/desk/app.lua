-- An app for links from outside, guards and presentation verbs: pages anyone may link to, a
-- settings screen only the app opens, orders behind a sign-in, guards that misbehave, a
-- wizard whose steps replace each other, and a counter that keeps its count when refreshed.
local wf = require "wayfinder"
local nav = wf.navigator

local Page = wf.controller "Page"
function Page:init(route) self.url = route.url end
function Page:render() return { title = self.url, lines = {}, links = {} } end

local Counter = wf.controller "Counter"
function Counter:init() self.count = 0; self.made = (Counter.made or 0) + 1; Counter.made = self.made end
function Counter:persist(state) state.count = self.count end
function Counter:restore(state) self.count = state.count end
function Counter:render() return { title = "Counter", lines = { "count " .. self.count, "made " .. self.made } } end

local function signed_in() return wf.context.app:get("user") ~= nil end

wf.map:from("tt://home", Page)
wf.map:from("tt://page/(name)", Page, { external = true })
wf.map:from("tt://settings", Page)
wf.map:from("tt://shelf/(name)", Page, { mode = "share" })
wf.map:from("tt://about/(topic)", Page, { parent = "tt://page/about", external = true })
wf.map:from("tt://order/(n:int)", Page, {
  external = true,
  guard = function(route)
    if signed_in() then return true end
    return false, "tt://signin?for=" .. wf.codec.escape(route.url)
  end,
})
wf.map:from("tt://signin", Page, { mode = "modal" })
wf.map:from("tt://signin/as/(user)", function(route)
  wf.context.app:set("user", route.params.user)
  nav:dismiss()
end, { mode = "none" })
wf.map:from("tt://signout", function() wf.context.app:set("user", nil) end, { mode = "none" })
wf.map:from("tt://vault", Page, { external = true, guard = function() return signed_in() end })
wf.map:from("tt://broken", Page, { guard = function() error("the guard broke") end })
wf.map:from("tt://dizzy", Page, { guard = function() while true do end end })
wf.map:from("tt://chatty", Page, { guard = function() return "yes" end })
wf.map:from("tt://ping", Page, { guard = function() return false, "tt://pong" end })
wf.map:from("tt://pong", Page, { guard = function() return false, "tt://ping" end })
-- Checking out, once signed in, asks for a confirmation that waits in its turn.
wf.map:from("tt://confirmed", Page, { guard = function() return wf.context.app:get("confirmed") == true end })
wf.map:from("tt://checkout", function() nav:open("tt://confirmed") end, {
  mode = "none",
  guard = function() return signed_in(), "tt://signin" end,
})
-- A screen that asks for the waiting open while it is being made (refused: the tree is changing).
local Eager = wf.controller "Eager"
function Eager:init() self.resumed = table.pack(nav:resume()) end
function Eager:render() return { title = "Eager", lines = { tostring(self.resumed[1]), tostring(self.resumed[2]) } } end
wf.map:from("tt://eager", Eager)
wf.map:from("tt://wizard/(step:int)", Page, { presentation = "replace" })
wf.map:from("tt://restart", Page, { presentation = "clear_all" })
wf.map:from("tt://sheet", Page, { mode = "modal" })
wf.map:from("tt://counter", Counter)
wf.map:from("tt://bump", function() nav:top().count = nav:top().count + 1 end, { mode = "none" })
wf.map:from("tt://reload", Page, { presentation = "refresh" })
wf.map:moved("tt://p/(name)", "tt://page/(name)")
wf.map:moved("tt://prefs", "tt://settings")

wf.app { name = "desk", root = "tt://home" }
