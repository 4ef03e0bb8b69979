-- A screen that hands data forward and takes an answer back through a named context layer
-- (docs/lua-api.md, "The context chain"), for the specs that relaunch it in between.
local wf = require "wayfinder"

local Dish = wf.controller "Dish"
function Dish:initWithDish(id)
  self.context = wf.context { name = "dish", inner = self.context }
  self.context:set("dish", id)
end
function Dish:render()
  return { title = self.context:get("dish"), lines = { "note: " .. tostring(self.context:get("note")) },
           links = { { "Add a note", "tt://note" } } }
end

local Note = wf.controller "Note"
function Note:render()
  return { title = "A note on the " .. self.context:get("dish"), links = { { "Hot", "tt://note/hot" } } }
end

wf.map:from("tt://dish/(initWithDish:)", Dish)
wf.map:from("tt://note", Note)
wf.map:from("tt://note/(text)", function(route)
  route.context:set("note", route.params.text, "dish")
  wf.navigator:back()
end, { mode = "none" })

wf.app { name = "answers", root = "tt://dish/menu", persistence = "all" }
