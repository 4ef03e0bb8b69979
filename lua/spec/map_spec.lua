-- wf.map from Lua: routes, matching, precedence, generators.
local wf = require "wayfinder"

local Menu = wf.controller "Menu"
function Menu:initWithMenu_page() end

wf.map:from("tt://menu/(initWithMenu:int)/(page:int)", Menu)
wf.map:from("tt://menu/(name)/(page:int)", Menu)
wf.map:from("tt://order?waitress=(initWithWaitress:)", Menu, { mode = "modal" })
wf.map:moved("tt://carte/(m)/(p)", "tt://menu/(m)/(p)")
wf.map:moved("https://example.com/menus/(m)", "tt://carte/(m)/1")

describe("wf.map", function()
  it("answers an old URL of a moved route with the route it leads to and each hop", function()
    local route = assert(wf.map:match("https://example.com/menus/3?ref=ad"))
    assert.equal("tt://menu/(initWithMenu:int)/(page:int)", route.pattern)
    assert.equal("tt://menu/3/1?ref=ad", route.url)
    assert.same({ initWithMenu = 3, page = 1 }, route.params)
    assert.same({
      { from = "https://example.com/menus/3?ref=ad", to = "tt://carte/3/1?ref=ad",
        old = "https://example.com/menus/(m)", new = "tt://carte/(m)/1" },
      { from = "tt://carte/3/1?ref=ad", to = "tt://menu/3/1?ref=ad", old = "tt://carte/(m)/(p)", new = "tt://menu/(m)/(p)" },
    }, route.moved)
    assert.is_nil(wf.map:match("tt://menu/1/5").moved)
  end)

  it("matches typed params and names the constructor", function()
    local route = wf.map:match("tt://menu/1/5")
    assert.equal("tt://menu/(initWithMenu:int)/(page:int)", route.pattern)
    assert.same({ initWithMenu = 1, page = 5 }, route.params)
    assert.equal("initWithMenu_page", route.method)
  end)

  it("falls back to the string param when the int does not fit", function()
    assert.equal("tt://menu/(name)/(page:int)", wf.map:match("tt://menu/lunch/2").pattern)
  end)

  it("reads the query and the mode", function()
    local route = wf.map:match("tt://order?waitress=Betty&ref=toolbar")
    assert.equal("modal", route.mode)
    assert.equal("Betty", route.params.initWithWaitress)
  end)

  it("answers nil and a reason for no match and for bad URLs", function()
    local route, reason = wf.map:match("tt://nowhere")
    assert.is_nil(route)
    assert.matches("no route", reason)
    assert.is_nil((wf.map:match("tt://menu/%zz/1")))
  end)

  it("refuses a pattern that does not parse, at the caller's line", function()
    assert.has_error(function() wf.map:from("tt://menu/(", Menu) end)
  end)
end)
