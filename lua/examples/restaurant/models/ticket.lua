-- An order ticket: the dishes a guest has asked for. It travels from the order screen to the
-- confirmation and on to the kitchen inside URLs, as repeated query keys (?items=a&items=b),
-- so every step can be opened, persisted and restored from its URL alone.
local wf = require "wayfinder"
local foods = require "data.foods"

local ticket = {}

-- The dishes named by a query table: one value, a list of values, or none.
function ticket.items(query)
  local value = query and query.items
  if type(value) == "string" then return { value } end
  local items = {}
  if type(value) == "table" then
    for _, v in ipairs(value) do
      if type(v) == "string" and v ~= "" then items[#items + 1] = v end
    end
  end
  return items
end

-- "?items=..&items=.." for the dishes, or "" when there are none.
function ticket.query(items)
  local parts = {}
  for _, item in ipairs(items) do
    parts[#parts + 1] = "items=" .. wf.codec.escape(item)
  end
  return #parts > 0 and ("?" .. table.concat(parts, "&")) or ""
end

-- The name a guest reads for a dish key; keys the kitchen does not know are shown as typed.
function ticket.dish_name(key)
  local food = foods[key]
  return food and food.name or key
end

function ticket.describe(items)
  if #items == 0 then return "nothing yet" end
  local names = {}
  for i, key in ipairs(items) do names[i] = ticket.dish_name(key) end
  return table.concat(names, ", ")
end

return ticket
