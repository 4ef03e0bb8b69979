-- The restaurant (lua/examples/restaurant) as the embedding demo runs it: the app as it is, plus
-- what only its Swift host gives it: the guest's loyalty points, which Swift keeps (the lent
-- module app.points), and a camera that scans a table's code (the native screen Camera).
local wf = require "wayfinder"
require "app"
local points = require "app.points"

local Loyalty = wf.controller "Loyalty"

function Loyalty:init()
  self.message = nil
end

-- Points for an order: the module answers the new balance, or nil and why not.
function Loyalty:earn(amount)
  local balance, reason = points.add(amount)
  self.message = balance and ("earned " .. amount) or reason
  return balance
end

function Loyalty:render()
  local lines = { "points: " .. points.balance() }
  if self.message then lines[#lines + 1] = self.message end
  return {
    title = "Loyalty",
    lines = lines,
    links = { { "Scan your table", "tt://camera/4" } },
  }
end

wf.map:from("tt://loyalty", Loyalty)
wf.map:from("tt://camera/(table:int)", wf.native "Camera", { mode = "modal" })
