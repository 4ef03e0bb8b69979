-- "Who's ordering?": ControllerContext's sign-in flow, by typing a name or picking one. The order screen opens this screen with
-- its own context (delegate.sign_in), so both hold the same context; choosing a name sets
-- userId in it and closes this screen, and the order screen reads the id when it appears again.
-- Neither screen knows the other's class.
local wf = require "wayfinder"
local Contact = require "models.contact"

local SignIn = wf.controller "SignIn"

-- The Sign in button: the person whose name was typed, as if their name had been picked.
function SignIn:sign_in(values)
  local wanted = values.who:lower():match("^%s*(.-)%s*$")
  for _, person in ipairs(Contact.sorted("name")) do
    if person.name:lower() == wanted then
      self.problem = nil
      wf.navigator:open("tt://signin/as/" .. wf.codec.encode_id(person.objectID))
      return
    end
  end
  self.problem = ("Nobody here is called %s."):format(values.who)
end

function SignIn:render()
  local links = {}
  for _, person in ipairs(Contact.sorted("name")) do
    links[#links + 1] = { person.name, "tt://signin/as/" .. wf.codec.encode_id(person.objectID) }
  end
  links[#links + 1] = { "Cancel", "tt://dismiss" }
  local lines = { "Type or pick your name; the order will be under it." }
  if self.problem then lines[2] = self.problem end
  return {
    title = "Who's ordering?", lines = lines, links = links,
    fields = { { name = "who", label = "Your name", kind = "text" } },
    buttons = { { "Sign in", "sign_in" } },
  }
end

return SignIn
