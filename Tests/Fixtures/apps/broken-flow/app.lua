-- An app whose flow is broken on purpose, for `wayfinder crawl`: a link that matches no route,
-- a link whose constructor fails, a screen whose render fails, a redirect loop, and a route no
-- link reaches.
local wf = require "wayfinder"

local Home = wf.controller "Home"
function Home:render()
  return {
    title = "Home",
    links = {
      { "Settings", "tt://settings" },
      { "Typo", "tt://setings" },
      { "Crash", "tt://crash" },
      { "Blank", "tt://blank" },
      { "Call", "tel:5550100" },
      { "Round and round", "tt://loop/a" },
    },
  }
end

local Settings = wf.controller "Settings"
function Settings:render() return { title = "Settings", links = { { "Home", "tt://home" } } } end

local Crash = wf.controller "Crash"
function Crash:init() error("the kitchen is closed") end

local Blank = wf.controller "Blank"
function Blank:render() return "nothing" end

local Orphan = wf.controller "Orphan"
function Orphan:render() return { title = "Nobody links here" } end

wf.map:from("tt://home", Home)
wf.map:from("tt://settings", Settings)
wf.map:from("tt://crash", Crash)
wf.map:from("tt://blank", Blank)
wf.map:from("tt://orphan", Orphan)
-- tt://loop/a redirects to tt://loop/b, which redirects back.
local Page = wf.controller "Page"
wf.map:from("tt://loop/(side)", Page)
wf.navigator.delegate = {
  url_to_open = function(url)
    if url == "tt://loop/a" then return "tt://loop/b" end
    if url == "tt://loop/b" then return "tt://loop/a" end
    return url
  end,
}
wf.app { root = "tt://home", persistence = "none" }
