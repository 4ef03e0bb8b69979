-- A contact record. The class is what the URL generator is registered for, so any record
-- can be turned into its tt://contact/... URL with wf.url_for.
local records = require "data.contacts"

local Contact = { __name = "Contact" }
Contact.__index = Contact

-- Fields a contact list may be sorted by (?sort=<field>).
Contact.SORT_FIELDS = { "name", "role", "phone", "email" }

local all, by_id = {}, {}
for i, record in ipairs(records) do
  local contact = setmetatable({}, Contact)
  for k, v in pairs(record) do contact[k] = v end
  all[i] = contact
  by_id[contact.objectID] = contact
end

function Contact.find(object_id)
  return by_id[object_id]
end

function Contact.is_sort_field(field)
  for _, f in ipairs(Contact.SORT_FIELDS) do
    if f == field then return true end
  end
  return false
end

-- The record number (the N of .../Contact/pN): breaks ties so an order never depends on luck.
function Contact:number()
  return tonumber(self.objectID:match("/p(%d+)$")) or 0
end

-- All contacts ordered by `field` (a SORT_FIELDS entry), a fresh list each time.
function Contact.sorted(field)
  local list = table.move(all, 1, #all, 1, {})
  table.sort(list, function(a, b)
    local x, y = a[field]:lower(), b[field]:lower()
    if x ~= y then return x < y end
    return a:number() < b:number()
  end)
  return list
end

-- All contacts, those in `recent` (object IDs, most recent first) before the rest, which
-- follow by name.
function Contact.recent_first(recent)
  local rank = {}
  for i, id in ipairs(type(recent) == "table" and recent or {}) do rank[id] = rank[id] or i end
  local list = Contact.sorted("name")
  local position = {}
  for i, contact in ipairs(list) do position[contact] = i end
  table.sort(list, function(a, b)
    local x, y = rank[a.objectID] or math.huge, rank[b.objectID] or math.huge
    if x ~= y then return x < y end
    return position[a] < position[b]
  end)
  return list
end

-- Remembers that `contact` was just viewed, in the app context (saved with the navigation
-- state, so the order survives a restart).
function Contact.viewed(app_context, contact)
  local recent = { contact.objectID }
  for _, id in ipairs(app_context:get("recent") or {}) do
    if id ~= contact.objectID and #recent < 20 then recent[#recent + 1] = id end
  end
  app_context:set("recent", recent)
end

-- The contact after this one by name, the first again after the last.
function Contact:next_by_name()
  local list = Contact.sorted("name")
  for i, contact in ipairs(list) do
    if contact == self then return list[i % #list + 1] end
  end
  return list[1]
end

function Contact:first_name()
  return (self.name:match("^(%S+)")) or self.name
end

function Contact:tel_url()
  return "tel:" .. (self.phone:gsub("%D", ""))
end

function Contact:mail_url()
  return "mailto:" .. self.email
end

return Contact
