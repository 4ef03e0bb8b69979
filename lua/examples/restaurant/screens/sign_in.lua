-- "Who's ordering?": ControllerContext's sign-in flow. The order screen opens this screen with
-- its own context (delegate.sign_in), so both hold the same context; choosing a name sets
-- userId in it and closes this screen, and the order screen reads the id when it appears again.
-- Neither screen knows the other's class.
local wf = require "wayfinder"
local Contact = require "models.contact"

local SignIn = wf.controller "SignIn"

function SignIn:render()
  local links = {}
  for _, person in ipairs(Contact.sorted("name")) do
    links[#links + 1] = { person.name, "tt://signin/as/" .. wf.codec.encode_id(person.objectID) }
  end
  links[#links + 1] = { "Cancel", "tt://dismiss" }
  return { title = "Who's ordering?", lines = { "Pick your name; the order will be under it." }, links = links }
end

return SignIn
