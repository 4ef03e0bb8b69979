-- The staff and suppliers, as a list whose order the URL chooses (tt://contacts?sort=role).
-- Rows are identified by the contact's object ID rather than by position, so a remembered
-- row still points at the same person when the sort order changes.
local wf = require "wayfinder"
local Contact = require "models.contact"

local ContactList = wf.controller "ContactList"

function ContactList:initWithSort(field)
  if type(field) == "table" then field = field[1] end
  self.requested = field
  self.field = Contact.is_sort_field(field) and field or Contact.SORT_FIELDS[1]
  self.contacts = Contact.sorted(self.field)
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

function ContactList:render()
  local lines = { ("%d people, sorted by %s."):format(#self.contacts, self.field) }
  if type(self.requested) == "string" and self.requested ~= self.field then
    lines[#lines + 1] = ("(Can't sort by %q; showing them by %s.)"):format(self.requested, self.field)
  end
  local links = {}
  for _, contact in ipairs(self.contacts) do
    lines[#lines + 1] = ("%s, %s"):format(contact.name, contact.role)
    links[#links + 1] = { contact.name, assert(wf.url_for(contact)) }
  end
  for _, field in ipairs(Contact.SORT_FIELDS) do
    if field ~= self.field then
      links[#links + 1] = { "Sort by " .. field, "tt://contacts?sort=" .. field }
    end
  end
  return { title = "Contacts", lines = lines, links = links }
end

return ContactList
