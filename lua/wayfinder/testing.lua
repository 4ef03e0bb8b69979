-- wf.testing, for spec files (docs/testing.md, "Driving apps: wf.testing"): launch an app in its own
-- state and drive it as a user would; copy an app and edit the copy to test hot reload.
local native = require "wayfinder.native.testing"

local testing = {}

-- A launched app is the native userdata itself, so a failing call reports the spec's line.
local methods = {}
for _, name in ipairs { "url", "tree", "render", "stats" } do
  methods[name] = native[name]
end
-- The native calls answer nil, reason when they fail; scripts get false, reason.
local function answered(result, reason)
  if result == nil then return false, reason end
  return result
end
-- open, back, dismiss, select, relaunch, close and advance answer true or false, reason.
for _, name in ipairs { "open", "back", "dismiss", "select", "relaunch", "close", "advance" } do
  local call = native[name]
  methods[name] = function(app, ...) return answered(call(app, ...)) end
end
-- reload answers true and what changed, or false, reason.
function methods.reload(app)
  local changes, reason = native.reload(app)
  if changes == nil then return false, reason end
  return true, changes
end
-- A wrong argument type is the spec's own mistake: raised at the spec's line, as launch's are.
local function check_argument(method, what, ok, value)
  if not ok then error("app:" .. method .. " needs " .. what .. ", got " .. type(value), 3) end
end
function methods.open(app, url)
  check_argument("open", "a URL (a string)", type(url) == "string", url)
  return answered(native.open(app, url))
end
function methods.select(app, tab)
  check_argument("select", "a tab number (an integer)", type(tab) == "number" and math.tointeger(tab) ~= nil, tab)
  return answered(native.select(app, tab))
end
local Driver = { __index = methods, __name = "wf.testing app" }

-- launch(app_path [, options]) -> app | nil, reason. options: state (a state file, else a
-- temporary one), memory_limit (MiB), time_limit (ms), clock (a function giving the time in
-- seconds; app:advance(seconds) moves it on).
function testing.launch(app_path, options)
  if type(app_path) ~= "string" then
    error("wf.testing.launch needs an app path (a string), got " .. type(app_path), 2)
  end
  if options ~= nil and type(options) ~= "table" then
    error("wf.testing.launch: options must be a table, got " .. type(options), 2)
  end
  return native.launch(app_path, options, Driver)
end

testing.copy_app = native.copy_app
testing.write = native.write
testing.read = native.read

return testing
