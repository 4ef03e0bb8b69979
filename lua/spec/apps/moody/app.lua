-- An app whose screens depend on a mood kept in the app context, and so in its saved state: in
-- the mood "broken" no screen can be made (the constructor raises), and in the mood "dizzy" none
-- finishes being made (the constructor loops until its time budget stops it), the home screen
-- included. A state saved in either mood stops every launch.
local wf = require "wayfinder"

local Page = wf.controller "Page"
function Page:init(route)
  local mood = wf.context.app:get("mood")
  if mood == "broken" then error("no screen can be made in a broken mood") end
  if mood == "dizzy" then while true do end end
  self.url = route.url
end
function Page:render() return { title = "Page", lines = { self.url } } end

wf.map:from("tt://home", Page)
wf.map:from("tt://page/(id)", Page)
wf.map:from("tt://mood/(mood)", function(route) wf.context.app:set("mood", route.params.mood) end, { mode = "none" })
wf.app { name = "moody", root = "tt://home" }
