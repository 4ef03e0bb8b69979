-- One person: how to reach them and, for the waitresses, a way to order from them; "Next" goes
-- on to the following person in the place of this one.
local wf = require "wayfinder"
local Contact = require "models.contact"
local NoSuchContact = require "screens.no_contact"

local ContactDetail = wf.controller "ContactDetail"

function ContactDetail:initWithObjectID(object_id)
  local contact = Contact.find(object_id)
  if not contact then
    -- A well-formed ID of someone who is not in the address book.
    self.reason = ("No one in the address book has the ID %s."):format(tostring(object_id))
    return NoSuchContact:new {
      url = self.url, query = self.query, context = self.context, reason = self.reason,
    }
  end
  self.contact = contact
  Contact.viewed(wf.context.app, contact)
end

function ContactDetail:render()
  local c = self.contact
  if not c then return NoSuchContact.render(self) end
  local links = {
    { "Call " .. c.phone, c:tel_url() },
    { "Email " .. c.email, c:mail_url() },
  }
  if c.role == "Waitress" then
    links[#links + 1] = { "Order from " .. c:first_name(),
      "tt://order?waitress=" .. wf.codec.escape(c:first_name()) .. "&ref=contacts" }
    links[#links + 1] = { "Make " .. c:first_name() .. " my waitress", "tt://waitress/" .. wf.codec.escape(c:first_name()) }
  end
  local following = c:next_by_name()
  links[#links + 1] = { "Next: " .. following.name, "tt://contacts/next/" .. wf.codec.encode_id(following.objectID) }
  links[#links + 1] = { "All contacts", "tt://contacts" }
  local lines = { c.role, "Phone: " .. c.phone, "Email: " .. c.email, "Record: " .. c.objectID }
  if c.role == "Waitress" and wf.context.app:get("waitress") == c:first_name() then
    lines[#lines + 1] = c:first_name() .. " is your waitress."
  end
  return {
    title = c.name,
    lines = lines,
    links = links,
  }
end

return ContactDetail
