-- Class sugar for controllers. A class is its instances' metatable (Class.__index == Class),
-- and a base class is the class's own metatable, so lookups walk instance -> class -> base.
-- Nothing here defines constructors: a class with none is used as it is.
local record = require "wayfinder.fields"

-- The URL every controller is given (ControllerField.swift), which its default tostring shows.
local URL = record.keys(require("wayfinder.native.navigator").fields().controller).url

local function new(class, fields)
  return setmetatable(fields or {}, class)
end

local function controller(name, base)
  if type(name) ~= "string" or name == "" then
    error("wf.controller needs a class name (a non-empty string), got " .. type(name), 2)
  end
  if base ~= nil and type(base) ~= "table" then
    error("wf.controller(" .. string.format("%q", name) .. ", base): base must be a class table, got " .. type(base), 2)
  end
  local class = { __name = name, new = new }
  class.__index = class
  class.__tostring = function(self)
    return name .. (rawget(self, URL) and (" " .. tostring(rawget(self, URL))) or "")
  end
  if base then setmetatable(class, base) end
  return class
end

return controller
