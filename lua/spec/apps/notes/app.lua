-- A small app the project's specs drive through wf.testing: a menu, pages, notes that keep a
-- draft across launches, a modal and two tabs.
local wf = require "wayfinder"

local Page = wf.controller "Page"
function Page:init(route) self.id = route and route.params.id end
function Page:render()
  return { title = "Page " .. tostring(self.id), links = { { title = "Note", url = "tt://note/" .. tostring(self.id) } } }
end

local Note = wf.controller "Note"
function Note:initWithText(text) self.text = text; self.draft = "" end
function Note:type(text) self.draft = self.draft .. text end
function Note:persist(state) state.draft = self.draft end
function Note:restore(state) self.draft = state.draft end
function Note:render() return { title = "Note " .. self.text, lines = { "draft: " .. self.draft } } end

-- Typing into the visible note, by URL: tt://type/<text>.
local function type_into_note(route)
  local top = wf.navigator:top()
  if not top or not top.type then error("no note is open", 0) end
  top:type(route.params.text)
end

wf.map:from("tt://tab/(id)", Page, { mode = "share" })
wf.map:from("tt://page/(id)", Page)
wf.map:from("tt://note/(initWithText:)", Note)
wf.map:from("tt://modal/(id)", Page, { mode = "modal" })
wf.map:from("tt://type/(text)", type_into_note, { mode = "none" })

wf.app { name = "notes", tabs = { "tt://tab/1", "tt://tab/2" }, persistence = "all" }
