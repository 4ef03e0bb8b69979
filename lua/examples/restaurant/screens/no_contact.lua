-- What a contact link shows when it leads nowhere: a mangled ID, or a person who is no
-- longer in the address book. It always offers the way back to the list.
local wf = require "wayfinder"

local NoSuchContact = wf.controller "NoSuchContact"

-- For tt://contact/<token> when the token is not an object ID at all.
function NoSuchContact:initWithToken(token)
  self.reason = ("%q is not a contact ID."):format(tostring(token))
end

function NoSuchContact:render()
  return {
    title = "No such contact",
    lines = { self.reason or "That contact link does not lead to anyone." },
    links = { { "All contacts", "tt://contacts" } },
  }
end

return NoSuchContact
