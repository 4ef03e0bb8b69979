-- Mel's: a restaurant app in the spirit of Three20's TTNavigatorDemo. Five menu tabs
-- (breakfast to the about page) and a staff contacts tab; dishes, their nutrition, an
-- order placed with an imaginary waitress, and the address book of the people who work here.
local wf = require "wayfinder"
local tabs = require "tabs"
local delegate = require "delegate"
local Contact = require "models.contact"
local Menu = require "screens.menu"
local Food = require "screens.food"
local Nutrition = require "screens.nutrition"
local About = require "screens.about"
local Order = require "screens.order"
local OrderFood = require "screens.order_food"
local Web = require "screens.web"
local ContactList = require "screens.contact_list"
local ContactDetail = require "screens.contact_detail"
local NoSuchContact = require "screens.no_contact"
local SignIn = require "screens.sign_in"

local map = wf.map

-- Anything no other route claims, http and https links included, opens the in-app browser.
map:from("*", Web)

-- Brings the tab bar back to the front, closing anything presented above it.
map:from("tt://tabBar", delegate.show_tabs, { mode = "none" })

-- One menu per tab, shared: opening a menu's URL switches to its tab.
map:from("tt://menu/(initWithMenu:)", Menu, { mode = "share", external = true })

-- A new page for every dish opened, so dishes stack up while browsing.
map:from("tt://food/(initWithFood:)", Food, { external = true })

-- Nutrition facts flip in over the dish's page.
map:from("tt://food/(initWithNutrition:)/nutrition", Nutrition,
  { transition = "flipFromLeft", external = true })

-- About pages only ever appear in the About tab: menu 5 is opened first.
map:from("tt://about/(initWithAbout:)", About, { parent = "tt://menu/5", external = true })

-- Ordering happens in a modal above everything; the waitress comes from the query, and any
-- other keys (ref=toolbar) ride along in the query table.
map:from("tt://order?waitress=(initWithWaitress:)", Order, { mode = "modal", external = true })

-- A #fragment on an order URL is an action: orderAction(<dish>) on the order screen showing
-- that URL; with none showing, a new order is presented, made by orderAction itself.
map:from("tt://order?waitress=()#(orderAction:)", Order, { mode = "modal" })

-- Writing the order out in full, pushed inside the order's modal.
map:from("tt://order/food", OrderFood)

-- "Are you sure?" pops over the order screen.
map:from("tt://order/confirm", delegate.confirm_order, { mode = "popover" })

-- Sending the order shows nothing new: it closes the order flow. An order goes out only with a
-- name on it: the guard opens "Who's ordering?" first, and the order goes once someone signed in.
map:from("tt://order/send", delegate.send_order, { mode = "none", guard = delegate.someone_ordering })

-- "Start over": everything presented closes and the tab goes back to its first screen
-- (presentation "clear_all"), then a fresh order opens.
map:from("tt://order/startover", delegate.start_over, { mode = "none", presentation = "clear_all" })

-- Signing in (ControllerContext's flow): the order screen hands its context to the sign-in
-- screen, which sets userId in it.
map:from("tt://order/signin", delegate.sign_in, { mode = "none" })
map:from("tt://signin", SignIn, { mode = "modal" })
map:from("tt://signin/as/(id:id)", delegate.signed_in, { mode = "none" })

-- Choosing a waitress from the staff list: shared through the app context with every menu.
map:from("tt://waitress/(name)", delegate.choose_waitress, { mode = "none" })

-- The Cancel and No buttons.
map:from("tt://dismiss", delegate.dismiss, { mode = "none" })

-- The address book, most recently viewed first, or in the order the query asks for
-- (?sort=name|role|phone|email). #up and #down scroll it; picking a row selects it and opens
-- the person.
map:from("tt://contacts?sort=(initWithSort:)", ContactList, { mode = "share", external = true })
map:from("tt://contacts?sort=()#(scroll:)", ContactList, { mode = "share" })
map:from("tt://contacts/select/(id:id)", delegate.select_contact, { mode = "none" })
-- "Next: <name>" on a person's page: the next person replaces the one on screen.
map:from("tt://contacts/next/(id:id)", delegate.next_contact, { mode = "none" })

-- A person, by object ID. The id type turns away tokens that are not object IDs; those fall
-- to the string route below, which says so instead of opening a web page. External: a link
-- from outside the app (a message, `wayfinder run --link URL`) may open it.
map:from("tt://contact/(initWithObjectID:id)", ContactDetail, { external = true })
map:from("tt://contact/(bad)", NoSuchContact, { selector = "initWithToken:" })

-- How a contact record becomes its URL: the ID is read from the record's objectID field and
-- encoded as a path-safe token.
map:url(Contact, "tt://contact/(objectID:id)")

-- Declared once the map is complete, since launching opens the tab URLs (or restores the
-- whole persisted hierarchy: tabs, stacks, modals).
wf.app { name = "restaurant", tabs = tabs, persistence = "all" }
