-- A page about the restaurant. About pages always open inside the About tab (their route's
-- parent is tt://menu/5), wherever the link to them was followed from.
local wf = require "wayfinder"

local About = wf.controller "About"

local TITLES = {
  story = "Our Story",
  complaints = "Complaints Dept.",
}

local LINKS = {
  story = {
    { "Website", "http://www.melsdrive-in.com" },
    { "Complaints Dept.", "tt://about/complaints" },
    -- An old link from before the address book: its token is no contact ID.
    { "Mel, our founder", "tt://contact/mel" },
  },
  complaints = {
    { "Call Us", "tel:5555555" },
    { "Text Us", "sms:5555555" },
    { "Our Story", "tt://about/story" },
  },
}

function About:initWithAbout(page)
  self.page = tostring(page)
  self.title = TITLES[self.page] or self.page
end

function About:render()
  local links = {}
  for i, link in ipairs(LINKS[self.page] or {}) do links[i] = { link[1], link[2] } end
  links[#links + 1] = { "About", "tt://menu/5" }
  return {
    title = self.title,
    lines = { self.page .. " is the name of this page.  Exciting." },
    links = links,
  }
end

return About
