-- The in-app browser: every URL nothing else claims (and every http/https link) opens here.
local wf = require "wayfinder"

local Web = wf.controller "Web"

function Web:initWithNavigatorURL_query(url)
  self.address = tostring(url or self.url or "")
  self.host = self.address:match("^%a[%w+.-]*://([^/?#]+)") or self.address
end

function Web:render()
  return {
    title = self.host,
    lines = { "This page would load in a browser here:", self.address },
    links = {
      { "Menus", "tt://menu/1" },
      { "About us", "tt://menu/5" },
      { "Close the browser", "tt://tabBar" },
    },
  }
end

return Web
