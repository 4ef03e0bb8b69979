-- The staff and suppliers. Without ?sort= the list shows whoever was viewed most recently first
-- (the app context remembers, and it is saved with the navigation state), so its order changes
-- as the app is used and from one launch to the next. The selected row and the first row in
-- view are therefore remembered by the contact's object ID (model_id / index_of), not by
-- position: after a restart the list still marks the same person and scrolls to the same one.
local wf = require "wayfinder"
local Contact = require "models.contact"

local ContactList = wf.controller "ContactList"

-- Rows shown at a time; "Scroll up" and "Scroll down" move the window.
ContactList.PAGE = 4

function ContactList:initWithSort(field)
  if type(field) == "table" then field = field[1] end
  self.requested = field
  if Contact.is_sort_field(field) then
    self.field = field
    self.contacts = Contact.sorted(field)
  else
    self.contacts = Contact.recent_first(wf.context.app:get("recent"))
  end
  self.anchor = 1
end

function ContactList:model_id(index)
  local contact = self.contacts[index]
  return contact and contact.objectID
end

function ContactList:index_of(model_id)
  for i, contact in ipairs(self.contacts) do
    if contact.objectID == model_id then return i end
  end
  return nil
end

-- A row was picked (tt://contacts/select/<id>, just before the contact opens).
function ContactList:select(object_id)
  self.selected = self:index_of(object_id)
end

-- The target of tt://contacts#up and #down: moves the window by one row.
function ContactList:scroll(direction)
  local last_anchor = math.max(1, #self.contacts - ContactList.PAGE + 1)
  local anchor = self.anchor or 1
  if direction == "down" then anchor = anchor + 1 elseif direction == "up" then anchor = anchor - 1 end
  self.anchor = math.min(math.max(anchor, 1), last_anchor)
end

function ContactList:base_url()
  return (self.url:gsub("#.*$", ""))
end

function ContactList:render()
  local count = #self.contacts
  local lines = { self.field and ("%d people, sorted by %s."):format(count, self.field)
    or ("%d people, most recently viewed first."):format(count) }
  if type(self.requested) == "string" and self.requested ~= self.field then
    lines[#lines + 1] = ("(Can't sort by %q; showing them most recently viewed first.)"):format(self.requested)
  end
  local selected = self.selected and self.contacts[self.selected]
  if selected then lines[#lines + 1] = "Selected: " .. selected.name .. "." end
  local first = math.min(self.anchor or 1, count)
  local last = math.min(first + ContactList.PAGE - 1, count)
  lines[#lines + 1] = ("Showing %d-%d of %d."):format(first, last, count)

  local links = {}
  for i = first, last do
    local contact = self.contacts[i]
    lines[#lines + 1] = ("%s %s, %s"):format(i == self.selected and ">" or " ", contact.name, contact.role)
    links[#links + 1] = { contact.name, "tt://contacts/select/" .. wf.codec.encode_id(contact.objectID) }
  end
  local base = self:base_url()
  if first > 1 then links[#links + 1] = { "Scroll up", base .. "#up" } end
  if last < count then links[#links + 1] = { "Scroll down", base .. "#down" } end
  if self.field then links[#links + 1] = { "Most recently viewed first", "tt://contacts" } end
  for _, field in ipairs(Contact.SORT_FIELDS) do
    if field ~= self.field then
      links[#links + 1] = { "Sort by " .. field, "tt://contacts?sort=" .. field }
    end
  end
  return { title = "Contacts", lines = lines, links = links }
end

return ContactList
