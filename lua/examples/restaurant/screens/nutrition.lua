-- The nutrition facts of a dish, reached from the dish's page with a flip.
local wf = require "wayfinder"
local foods = require "data.foods"
local ticket = require "models.ticket"
local Food = require "screens.food"

local Nutrition = wf.controller "Nutrition"

function Nutrition:initWithNutrition(key)
  self.key = tostring(key)
  self.name = ticket.dish_name(self.key)
  self.food = foods[self.key]
end

function Nutrition:render()
  local lines = { self.name .. " is healthy.  Trust us." }
  if self.food then
    lines[2] = ("About %d calories a serving."):format(self.food.calories)
  end
  return {
    title = "Nutritional Info",
    lines = lines,
    links = {
      { "Order " .. self.name, Food.order_url(self.key) },
      { "Complaints", "tt://about/complaints" },
    },
  }
end

return Nutrition
