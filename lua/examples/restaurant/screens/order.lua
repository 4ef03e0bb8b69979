-- Placing an order: presented modally above everything, with an imaginary waitress. The
-- guest adds dishes with #fragment links (tt://order?waitress=Betty#pizza), which call
-- orderAction on this screen instead of opening a new one, then confirms or cancels.
local wf = require "wayfinder"
local ticket = require "models.ticket"
local Contact = require "models.contact"

local Order = wf.controller "Order"

-- Dishes the waitress suggests on the order screen itself.
Order.SPECIALS = { "pizza", "macncheese", "pie" }

-- What the order form's Food field offers, by dish key.
Order.FORM_DISHES = { "pizza", "macncheese", "pie", "salad", "coffee" }

-- Where guests come from, by the ref= key of the links that lead here.
local REFERRERS = {
  toolbar = "a menu's Order button",
  food = "a dish's page",
  contacts = "the staff list",
}

local function first_string(value)
  if type(value) == "table" then value = value[1] end
  if type(value) == "string" and value ~= "" then return value end
  return nil
end

function Order:initWithWaitress(waitress)
  self.waitress = first_string(waitress) or "Betty"
  self.ref = first_string(self.query and self.query.ref)
  -- A restored order already has its dishes; keep them.
  self.items = self.items or {}
end

-- The waitress named in a URL's query, if any.
local function waitress_in(url)
  local query = url and url:match("%?([^#]*)")
  return query and first_string(wf.codec.parse_query(query).waitress)
end

-- An order screen made by an action, before anyone introduced the waitress, learns her
-- name from its URL.
function Order:ready()
  if not self.waitress then
    self:initWithWaitress(waitress_in(self.url))
  end
end

-- Adds a dish to the ticket: the target of tt://order?waitress=...#<dish>.
function Order:orderAction(dish)
  self:ready()
  dish = first_string(dish)
  if dish then self.items[#self.items + 1] = dish end
end

-- This screen's URL without a fragment: the base the action links append theirs to, so
-- they act on this very screen.
function Order:base_url()
  local url = self.url or ("tt://order?waitress=" .. wf.codec.escape(self.waitress))
  return (url:gsub("#.*$", ""))
end

-- ControllerContext's advice: read what came back in the context when the screen appears.
function Order:appear()
  local user = self.context and self.context:get("userId")
  self.user = user and Contact.find(user) or nil
end

function Order:persist(state)
  self:ready()
  state.items = table.move(self.items, 1, #self.items, 1, {})
  return true
end

function Order:restore(state)
  self.items = ticket.items(state)
end

-- The dish key of a name the Food field shows.
local function dish_named(name)
  for _, key in ipairs(Order.FORM_DISHES) do
    if ticket.dish_name(key) == name then return key end
  end
  return nil
end

-- The form's "Add to order" button: the chosen food joins the ticket.
function Order:add(values)
  self:ready()
  local key = dish_named(values.food)
  if key then self.items[#self.items + 1] = key end
end

-- The form's Send button: the ticket (the chosen food, when nothing was added yet) goes to the
-- kitchen with the note, through the same guarded URL the confirmation's Yes opens.
function Order:send(values)
  self:ready()
  local items = table.move(self.items, 1, #self.items, 1, {})
  if #items == 0 then items[1] = dish_named(values.food) end
  local query = ticket.query(items)
  if values.note ~= "" then
    query = query .. (query == "" and "?" or "&") .. "note=" .. wf.codec.escape(values.note)
  end
  wf.navigator:open("tt://order/send" .. query)
end

function Order:render()
  self:ready()
  local lines = { ("Hi, I'm %s, your imaginary waitress."):format(self.waitress) }
  if self.ref then
    lines[#lines + 1] = ("(You came here from %s.)"):format(REFERRERS[self.ref] or self.ref)
  end
  lines[#lines + 1] = "Your order: " .. ticket.describe(self.items) .. "."
  lines[#lines + 1] = self.user and ("Ordering as " .. self.user.name .. ".") or "Not signed in."

  local base, links = self:base_url(), {}
  for _, dish in ipairs(Order.SPECIALS) do
    links[#links + 1] = { "Add " .. ticket.dish_name(dish), base .. "#" .. wf.codec.escape(dish) }
  end
  links[#links + 1] = { "What do you want to eat?",
    "tt://order/food?waitress=" .. wf.codec.escape(self.waitress) }
  links[#links + 1] = { "Order", "tt://order/confirm" .. ticket.query(self.items) }
  links[#links + 1] = { self.user and "Sign in as someone else" or "Sign in", "tt://order/signin" }
  links[#links + 1] = { "Start over", "tt://order/startover?waitress=" .. wf.codec.escape(self.waitress) }
  links[#links + 1] = { "Cancel", "tt://dismiss" }
  local dishes = {}
  for i, key in ipairs(Order.FORM_DISHES) do dishes[i] = ticket.dish_name(key) end
  return {
    title = "Place Your Order", lines = lines, links = links,
    fields = {
      { name = "food", label = "Food", kind = "choice", choices = dishes },
      { name = "note", label = "Note", kind = "text", value = "" },
    },
    buttons = { { "Add to order", "add" }, { "Send", "send" } },
  }
end

return Order
