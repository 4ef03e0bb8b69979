-- The example app (lua/examples/restaurant), driven as a user drives it: by the links on the
-- screen.
local wf = require "wayfinder"

local RESTAURANT = "lua/examples/restaurant"

-- Opens the link titled `title` on the visible screen.
local function follow(app, title)
  local screen = assert(app:render(), "nothing is on screen")
  for _, link in ipairs(screen.links) do
    if link.title == title then return assert(app:open(link.url)) end
  end
  error("no link '" .. title .. "' on " .. tostring(screen.title), 2)
end

local function lines(app) return table.concat(app:render().lines, "\n") end

describe("the restaurant example", function()
  local app
  before_each(function() app = assert(wf.testing.launch(RESTAURANT)) end)
  after_each(function() app:close() end)

  it("starts on the Breakfast tab of six", function()
    local tree = app:tree()
    assert.equal(6, #tree.root.tabs)
    assert.equal("Breakfast", app:render().title)
    assert.equal(1, app:stats().constructed)
  end)

  it("switches to the shared Dessert menu instead of pushing another", function()
    follow(app, "Just Desserts")
    assert.equal("tt://menu/4", app:url())
    assert.equal(4, app:tree().root.selected)
    assert.equal(1, #app:tree().root.tabs[4].entries)
  end)

  it("opens a complaint in the About tab, its parent", function()
    follow(app, "Complaints")
    local tree = app:tree()
    assert.equal(5, tree.root.selected)
    assert.same({ "tt://menu/5", "tt://about/complaints" },
      { tree.root.tabs[5].entries[1].url, tree.root.tabs[5].entries[2].url })
  end)

  it("goes from a dish to its nutrition and back", function()
    follow(app, "Porridge")
    follow(app, "Nutrition")
    assert.equal("tt://food/porridge/nutrition", app:url())
    assert.is_true(app:back())
    assert.equal("Porridge", app:render().title)
  end)

  it("takes an order in a modal, adds dishes by fragment, and sends it", function()
    follow(app, "Order")
    assert.equal("Place Your Order", app:render().title)
    assert.matches("from a menu's Order button", lines(app))
    follow(app, "Add Pizza")
    follow(app, "Add Apple Pie")
    assert.matches("Your order: Pizza, Apple Pie", lines(app))
    assert.equal(1, #app:tree().modals)
    follow(app, "Order")
    assert.equal("Are you sure?", app:render().title)
    follow(app, "Yes")
    assert.equal(0, #app:tree().modals)
    assert.equal("Breakfast", app:render().title)
  end)

  it("hands the sign-in's choice back to the order screen through its context", function()
    follow(app, "Order")
    follow(app, "Sign in")
    follow(app, "Carmen Ortiz")
    assert.equal("Place Your Order", app:render().title)
    assert.matches("Ordering as Carmen Ortiz", lines(app))
  end)

  it("shows No such contact for a token that is not an object ID", function()
    assert.is_true(app:open("tt://contact/garbage!"))
    assert.equal("No such contact", app:render().title)
  end)

  it("comes back after a relaunch with the order and its ticket", function()
    follow(app, "Order")
    follow(app, "Add Pizza")
    assert.is_true(app:relaunch())
    assert.equal("Place Your Order", app:render().title)
    assert.matches("Your order: Pizza", lines(app))
    assert.is_true(app:dismiss())
    assert.equal("Breakfast", app:render().title)
  end)

  it("reloads an edited copy, keeping the order on screen", function()
    local copy = wf.testing.copy_app(RESTAURANT)
    local edited = assert(wf.testing.launch(copy))
    assert.is_true(edited:open("tt://order?waitress=Betty#pizza"))
    local order = wf.testing.read(copy .. "/screens/order.lua")
    local changed, count = order:gsub('"Place Your Order"', '"Your Order, Please"')
    assert.equal(1, count)
    wf.testing.write(copy .. "/screens/order.lua", changed)
    assert.is_true(edited:reload())
    assert.equal("Your Order, Please", edited:render().title)
    assert.matches("Your order: Pizza", table.concat(edited:render().lines, "\n"))
    edited:close()
  end)
end)
