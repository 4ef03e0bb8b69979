-- "Are you sure?": the last word before an order goes to the kitchen. Shown as a popover
-- above the order screen; "No" just closes it, leaving the order as it was.
local wf = require "wayfinder"
local ticket = require "models.ticket"

local Confirm = wf.controller "Confirm"

function Confirm:render()
  local items = self.items or {}
  local lines = { "Sure you want to order?" }
  if #items > 0 then lines[2] = "You asked for: " .. ticket.describe(items) .. "." end
  return {
    title = "Are you sure?",
    lines = lines,
    links = {
      { "Yes", "tt://order/send" .. ticket.query(items) },
      { "No", "tt://dismiss" },
    },
  }
end

return Confirm
