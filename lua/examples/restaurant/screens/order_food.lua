-- "What do you want to eat?": where a guest writes their order out in full for the waitress,
-- pushed inside the order's modal stack.
local wf = require "wayfinder"

local OrderFood = wf.controller "OrderFood"

function OrderFood:initWithNavigatorURL_query(_, query)
  local waitress = query and query.waitress
  if type(waitress) == "table" then waitress = waitress[1] end
  self.waitress = type(waitress) == "string" and waitress ~= "" and waitress or "Betty"
end

function OrderFood:render()
  return {
    title = "What do you want to eat?",
    lines = {
      ("Tell %s what you'd like, in your own words."):format(self.waitress or "Betty"),
      "Anything off the menu is fine; the kitchen will call if it can't be done.",
    },
    links = {
      { "Order", "tt://order/confirm" },
      { "Call the kitchen", "tel:5555555" },
    },
  }
end

return OrderFood
