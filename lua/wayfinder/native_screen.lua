-- wf.native: screens the Swift host makes (docs/embedding.md, "Native screens"). `wf.native "Camera"`
-- is a route target like a controller class: opening its route asks the host's factory of that name
-- for the screen. Its controller is an instance of the class made here, named for the screen: its
-- render() answers the screen's title, and its persist(state) keeps what the screen saves, which the
-- factory gets back when the entry is restored. A name the host has no factory for is an error at
-- the script's line.
local native = require "wayfinder.native.screens"
local controller = require "wayfinder.controller"
local contexts = require "wayfinder.context"
local fields = require "wayfinder.fields"

-- The fields of the table native.make takes (NativeScreenField.swift), and those every
-- controller has (ControllerField.swift), as the host lists them.
local screen_key = fields.keys(native.fields())
local S_NAME, S_URL, S_PATTERN, S_PARAMS = screen_key.name, screen_key.url, screen_key.pattern, screen_key.params
local S_QUERY, S_FRAGMENT, S_CONTEXT, S_STATE = screen_key.query, screen_key.fragment, screen_key.context, screen_key.state
local navigator_exported = require("wayfinder.native.navigator").fields()
local controller_key = fields.keys(navigator_exported.controller)
local C_URL, C_QUERY, C_CONTEXT = controller_key.url, controller_key.query, controller_key.context
-- The title of what render() answers (ScreenRecord.swift).
local TITLE = fields.keys(navigator_exported.screen).title

-- The screen's userdata in its controller, under a key no script can name.
local SCREEN = {}

-- One class per name (so wf.native "Camera" == wf.native "Camera"), and each class's name.
local classes = {}
local names = {}

local function screen_class(name)
  if type(name) ~= "string" then error("wf.native needs a native screen's name (a string), got " .. type(name), 2) end
  local class = classes[name]
  if class then return class end
  local ok, reason = native.check(name)
  if not ok then error(reason, 2) end
  class = controller(name)
  function class:render()
    return { [TITLE] = native.title(rawget(self, SCREEN)) or name }
  end
  function class:persist(state)
    for key, value in pairs(native.saved(rawget(self, SCREEN))) do state[key] = value end
  end
  classes[name] = class
  names[class] = name
  return class
end

-- The controller of a native target: the factory's screen, held by an instance of its class,
-- made from the match's fields, the new screen's context and the saved state.
local function make(class, url, pattern, params, query, fragment, context, state)
  local screen, reason = native.make {
    [S_NAME] = names[class], [S_URL] = url, [S_PATTERN] = pattern, [S_PARAMS] = params, [S_QUERY] = query,
    [S_FRAGMENT] = fragment, [S_CONTEXT] = contexts._core(context), [S_STATE] = state,
  }
  if not screen then error(reason, 0) end
  return setmetatable({ [C_URL] = url, [C_QUERY] = query, [C_CONTEXT] = context, [SCREEN] = screen }, class)
end

return {
  -- wf.native(name): the class of the native screens of that name, a route target.
  screen = screen_class,
  -- The native screen's name when `target` is a class wf.native made, else nil.
  name_of = function(target) return names[target] end,
  make = make,
}
