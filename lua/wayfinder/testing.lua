-- wf.testing, for spec files (docs/testing.md, "Driving apps: wf.testing"): launch an app in its own
-- state and drive it as a user would; copy an app and edit the copy to test hot reload.
local native = require "wayfinder.native.testing"

local testing = {}

-- A launched app is the native userdata itself, so a failing call reports the spec's line.
-- open, back, dismiss, select, relaunch, reload and close answer true or false, reason.
local methods = {}
for _, name in ipairs { "open", "back", "dismiss", "select", "relaunch", "reload", "close",
                        "url", "tree", "render", "stats", "advance" } do
  methods[name] = native[name]
end
-- A wrong argument type is the spec's own mistake: raised at the spec's line, as launch's are.
local function check_argument(method, what, ok, value)
  if not ok then error("app:" .. method .. " needs " .. what .. ", got " .. type(value), 3) end
end
function methods.open(app, url)
  check_argument("open", "a URL (a string)", type(url) == "string", url)
  return native.open(app, url)
end
function methods.select(app, tab)
  check_argument("select", "a tab number (an integer)", type(tab) == "number" and math.tointeger(tab) ~= nil, tab)
  return native.select(app, tab)
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
  local ok, app = native.launch(app_path, options, Driver)
  if not ok then return nil, app end
  return app
end

testing.copy_app = native.copy_app
testing.write = native.write
testing.read = native.read

return testing
