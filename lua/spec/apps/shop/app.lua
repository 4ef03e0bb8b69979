-- A shop at version 3 of its saved state. Version 2 kept a cart's lines as one text
-- ("2 pears, 1 fig") under `count`; version 3 keeps a list of { name, quantity } under `lines`.
-- Version 3 also renamed tt://item/(id) to tt://product/(id), tt://basket/(id) to tt://checkout/(id),
-- and the cart's `(owner)` to a query. A checkout waits for a payment (its guard keeps it pending).
local wf = require "wayfinder"

local Home = wf.controller "Home"
function Home:render() return { title = "Home" } end

local Product = wf.controller "Product"
function Product:initWithProduct(id) self.id = id end
function Product:render() return { title = "Product " .. self.id, lines = { "from " .. tostring(self.query.ref) } } end

local Cart = wf.controller "Cart"
function Cart:init(route) self.owner = route.query.owner; self.lines = {} end
function Cart:persist(state) state.lines = self.lines end
function Cart:restore(state) self.lines = state.lines end
function Cart:render()
  local lines = {}
  for i, line in ipairs(self.lines) do lines[i] = line.quantity .. " x " .. line.name end
  return { title = "Cart of " .. tostring(self.owner), lines = lines }
end

wf.map:from("tt://home", Home)
wf.map:from("tt://product/(initWithProduct:int)", Product)
wf.map:from("tt://cart", Cart)
wf.map:from("tt://add/(name)/(quantity:int)", function(route)
  local cart = wf.navigator:top()
  cart.lines[#cart.lines + 1] = { name = route.params.name, quantity = route.params.quantity }
end, { mode = "none" })
wf.map:from("tt://checkout/(initWithProduct:int)", Product, {
  external = true,
  guard = function() return wf.context.app:get("paid") == true end,
})
wf.map:from("tt://pay", function() wf.context.app:set("paid", true) end, { mode = "none" })

wf.map:moved("tt://item/(id)", "tt://product/(id)")
wf.map:moved("tt://basket/(id)", "tt://checkout/(id)")
wf.map:moved("tt://cart/(owner)", "tt://cart?owner=(owner)")

-- "2 pears, 1 fig" -> { { name = "pears", quantity = 2 }, { name = "fig", quantity = 1 } }
local function lines_of(text)
  local lines = {}
  for quantity, name in text:gmatch("(%d+) ([^,]+)") do lines[#lines + 1] = { name = name, quantity = tonumber(quantity) } end
  return lines
end

local function each_entry(state, fn)
  for _, stack in ipairs(state.tabs or { state.stack }) do
    for _, entry in ipairs(stack) do fn(entry) end
  end
  for _, modal in ipairs(state.modals) do
    for _, entry in ipairs(modal) do fn(entry) end
  end
  if state.popover then fn(state.popover) end
  -- The open a guard keeps waiting hands its state to restore(state) too.
  if state.pending then fn(state.pending) end
end

wf.app {
  name = "shop", root = "tt://home", version = 3,
  migrate = function(state, from)
    if from <= 2 then
      each_entry(state, function(entry)
        if entry.state and type(entry.state.count) == "string" then
          entry.state.lines = lines_of(entry.state.count)
          entry.state.count = nil
        end
      end)
    end
    return state
  end,
}
