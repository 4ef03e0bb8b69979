-- A small app whose saved place expires after a minute, unless the screen left open is
-- important (a half-written order is kept however old it is).
local wf = require "wayfinder"

local Page = wf.controller "Page"
function Page:initWithName(name) self.name = name end
function Page:render() return { title = "Page " .. self.name } end

local Order = wf.controller "Order"
function Order:init() self.important = true end
function Order:render() return { title = "Order" } end

wf.map:from("tt://page/(initWithName:)", Page)
wf.map:from("tt://order", Order)
wf.app { name = "expiring", root = "tt://page/home", persistence = "all", expiration = 60 }
