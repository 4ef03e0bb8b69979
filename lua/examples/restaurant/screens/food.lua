-- A dish. Each visit makes a new page, so dishes can be stacked while browsing a menu.
local wf = require "wayfinder"
local ticket = require "models.ticket"

local Food = wf.controller "Food"

function Food:initWithFood(key)
  self.key = tostring(key)
  self.name = ticket.dish_name(self.key)
end

-- Ordering a dish straight from its page: the #fragment asks the order screen to add it.
function Food.order_url(key)
  return "tt://order?waitress=Betty&ref=food#" .. wf.codec.escape(key)
end

function Food:render()
  local key = wf.codec.escape(self.key)
  return {
    title = self.name,
    lines = { self.name .. " is just food, ya know?" },
    links = {
      { "Nutrition", "tt://food/" .. key .. "/nutrition" },
      { "Order " .. self.name, Food.order_url(self.key) },
    },
  }
end

return Food
