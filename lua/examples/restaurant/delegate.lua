-- What the app itself answers for, rather than a screen: URLs that act on the navigator
-- (bring back the tab bar, close what is on top, send an order) and the one screen that is
-- configured in code before it is shown (the order confirmation).
local wf = require "wayfinder"
local tabs = require "tabs"
local ticket = require "models.ticket"
local Confirm = require "screens.confirm"
local Contact = require "models.contact"

local delegate = {}

-- More than any real hierarchy holds: the loops below stop long before.
local MAX_LAYERS = 8

local function in_order_flow(url)
  return type(url) == "string" and url:lower():find("^tt://order") ~= nil
end

-- tt://tabBar: the tab bar comes back to the front, whatever was presented above it.
function delegate.show_tabs()
  local nav = wf.navigator
  for _ = 1, MAX_LAYERS do
    if not nav:dismiss() then break end
  end
  local root = nav:tree().root
  if not (root and root.kind == "tabs") then
    local urls = {}
    for i, tab in ipairs(tabs) do urls[i] = tab[2] end
    nav:tabs(urls)
  end
  return { shown = "tabs" }
end

-- tt://dismiss: the Cancel and No buttons; closes the popover, else the top modal.
function delegate.dismiss()
  return { dismissed = wf.navigator:dismiss() }
end

-- tt://order/confirm: the confirmation is built here so it can carry the ticket.
function delegate.confirm_order(route)
  return Confirm:new { items = ticket.items(route and route.query) }
end

-- tt://order/send: the order goes to the kitchen, and the confirmation and the order
-- screen under it go away, back to whatever the guest was browsing.
-- The menus show the order last sent (its note too), kept in the app context.
function delegate.send_order(route)
  local items = ticket.items(route and route.query)
  local nav = wf.navigator
  for _ = 1, MAX_LAYERS do
    if not in_order_flow(nav:url()) or not nav:dismiss() then break end
  end
  local note = route and route.query and route.query.note
  local sent = ticket.describe(items)
  if type(note) == "string" and note ~= "" then sent = sent .. " (" .. note .. ")" end
  wf.context.app:set("lastOrder", sent)
  return { sent = items }
end

-- tt://order/signin: the sign-in screen gets the order screen's own context, so what it sets
-- there (userId) is what the order screen reads when it appears again.
function delegate.sign_in()
  local nav = wf.navigator
  local order = nav:top()
  local controller, err = nav:open { url = "tt://signin", context = order.context }
  if not controller then error(err, 0) end
  return { signing_in = true }
end

-- tt://signin/as/<object ID>: the choice goes into the shared context (the order's, when the
-- order opened the sign-in) and into the app context, where every order finds who is ordering;
-- then the sign-in closes. Closing it is a change to the tree, after which the guard of an
-- order that waits for a name is asked again, and that order goes through.
function delegate.signed_in(route)
  local nav = wf.navigator
  local screen = nav:top()
  screen.context:set("userId", route.params.id)
  wf.context.app:set("userId", route.params.id)
  nav:dismiss()
  return { userId = route.params.id }
end

-- The guard of tt://order/send: an order goes to the kitchen only with a name on it. Until
-- someone signs in, "Who's ordering?" opens instead and the order waits.
function delegate.someone_ordering()
  if wf.context.app:get("userId") ~= nil then return true end
  return false, "tt://signin"
end

-- tt://order/startover?waitress=<name>: the route clears everything first (presentation
-- "clear_all": every modal and popover closed, the tab popped to its first screen); then a
-- fresh order opens with the same waitress.
function delegate.start_over(route)
  local waitress = route.query.waitress
  if type(waitress) ~= "string" or waitress == "" then waitress = "Betty" end
  return assert(wf.navigator:open("tt://order?waitress=" .. wf.codec.escape(waitress)))
end

-- tt://contacts/next/<object ID>: the next person takes the place of the one on screen
-- (nav:replace), so paging through the staff never piles up pages and back goes to the list.
function delegate.next_contact(route)
  local contact = Contact.find(route.params.id)
  local url = contact and wf.url_for(contact) or ("tt://contact/" .. wf.codec.encode_id(route.params.id))
  return assert(wf.navigator:replace(url))
end

-- tt://waitress/<name>: the guest's waitress, kept app-wide; every menu observes it and
-- updates its Order button, in whichever tab it is.
function delegate.choose_waitress(route)
  wf.context.app:set("waitress", route.params.name)
  return { waitress = route.params.name }
end

-- tt://contacts/select/<id>: a row of the contacts list was picked. The list marks it (as a
-- table view selects the tapped row), then the person's page opens on top.
function delegate.select_contact(route)
  local nav = wf.navigator
  local list = nav:top()
  local id = route.params.id
  if type(list) == "table" and type(list.select) == "function" then list:select(id) end
  local contact = Contact.find(id)
  return assert(nav:open(contact and wf.url_for(contact) or ("tt://contact/" .. wf.codec.encode_id(id))))
end

return delegate
