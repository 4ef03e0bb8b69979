-- A shop whose items sit in categories: a link to an item builds its back stack from its own
-- params (home, its category, then the item), and a sale page names its parent by a function.
local wf = require "wayfinder"

local Page = wf.controller "Page"
function Page:init(route) self.url = route.url end
function Page:render() return { title = self.url, lines = {}, links = {} } end

wf.map:from("tt://home", Page)
wf.map:from("tt://cat/(c)", Page, { parent = "tt://home", external = true, name = "category" })
wf.map:from("tt://cat/(c)/item/(id:int)", Page, { parent = "tt://cat/(c)", external = true, name = "item" })
wf.map:from("tt://sale/(n:int)", Page, {
  external = true,
  parent = function(route)
    if route.params.n > 100 then return nil end
    return "tt://cat/sale-" .. route.params.n
  end,
})
wf.map:from("tt://odd", Page, { parent = function() return 42 end })

wf.app {
  name = "catalog",
  root = "tt://home",
  link_prefixes = { ["https://shop.example.com/"] = "tt://", ["https://Shop.Example.com/m/"] = "tt://cat/" },
}
