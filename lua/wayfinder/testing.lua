-- wf.testing, for spec files (docs/testing.md, "Driving apps: wf.testing"): launch an app in its own
-- state and drive it as a user would; copy an app and edit the copy to test hot reload.
local native = require "wayfinder.native.testing"
-- app:open's option, an open's action field (OpenAction.swift), as the host names it.
local PRESENTATION = require("wayfinder.fields").keys(require("wayfinder.native.navigator").fields().action).presentation

local testing = {}

-- A launched app is the native userdata itself, so a failing call reports the spec's line.
local methods = {}
for _, name in ipairs { "url", "tree", "render", "stats", "pending" } do
  methods[name] = native[name]
end
-- The native calls answer nil, reason when they fail; scripts get false, reason.
local function answered(result, reason)
  if result == nil then return false, reason end
  return result
end
-- back, dismiss, pop_to_root, resume, relaunch, close and advance answer true or false, reason.
for _, name in ipairs { "back", "dismiss", "pop_to_root", "resume", "relaunch", "close", "advance" } do
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

-- open(url [, { presentation = ... }]): a presentation the host does not know is raised too.
function methods.open(app, url, options)
  check_argument("open", "a URL (a string)", type(url) == "string", url)
  local presentation
  if options ~= nil then
    check_argument("open", "options { " .. PRESENTATION .. " = ... } (a table)", type(options) == "table", options)
    for key in pairs(options) do
      if key ~= PRESENTATION then error("app:open: unknown option '" .. tostring(key) .. "' (known: " .. PRESENTATION .. ")", 2) end
    end
    presentation = options[PRESENTATION]
    if presentation ~= nil then
      check_argument("open", "a presentation (a string)", type(presentation) == "string", presentation)
      local ok, reason = native.check_presentation(presentation, "app:open")
      if not ok then error(reason, 2) end
    end
  end
  return answered(native.open(app, url, presentation))
end
function methods.replace(app, url)
  check_argument("replace", "a URL (a string)", type(url) == "string", url)
  return answered(native.open(app, url, "replace"))
end
function methods.handle_link(app, url)
  check_argument("handle_link", "a URL (a string)", type(url) == "string", url)
  return answered(native.handle_link(app, url))
end
-- open_route(name [, params]): opens the app's route named `name`, its params checked; a missing,
-- unknown or mistyped param is raised at the spec's line, as the app's own nav:open would raise it.
function methods.open_route(app, name, params)
  check_argument("open_route", "a route name (a string)", type(name) == "string", name)
  check_argument("open_route", "params (a table)", params == nil or type(params) == "table", params)
  local url, reason = native.url_for_route(app, name, params)
  if not url then error("app:open_route: " .. reason, 2) end
  return answered(native.open(app, url))
end
function methods.select(app, tab)
  check_argument("select", "a tab number (an integer)", type(tab) == "number" and math.tointeger(tab) ~= nil, tab)
  return answered(native.select(app, tab))
end
-- tap(title) and fill(name or label, value) act on the visible screen as a user does; a title or
-- field that is not there is the spec's failure, raised at its line naming what the screen has.
function methods.tap(app, title)
  check_argument("tap", "a title (a string)", type(title) == "string", title)
  local ok, reason = native.tap(app, title)
  if not ok then error("app:tap: " .. tostring(reason), 2) end
  return true
end
function methods.fill(app, name, value)
  check_argument("fill", "a field's name or label (a string)", type(name) == "string", name)
  check_argument("fill", "text or a boolean", type(value) == "string" or type(value) == "boolean", value)
  local ok, reason = native.fill(app, name, value)
  if not ok then error("app:fill: " .. tostring(reason), 2) end
  return true
end
-- see(text) -> true, or false and the texts the screen shows.
function methods.see(app, text)
  check_argument("see", "a text (a string)", type(text) == "string", text)
  return native.see(app, text)
end
local Driver = { __index = methods, __name = "wf.testing app" }

-- launch(app_path [, options]) -> app | nil, reason. options: state (a state file, else a
-- temporary one), memory_limit (MiB), time_limit (ms), clock (a function giving the time in
-- seconds; app:advance(seconds) moves it on), link (a link from outside, handled once the app
-- launched, as `wayfinder run --link` does).
function testing.launch(app_path, options)
  if type(app_path) ~= "string" then
    error("wf.testing.launch needs an app path (a string), got " .. type(app_path), 2)
  end
  if options ~= nil and type(options) ~= "table" then
    error("wf.testing.launch: options must be a table, got " .. type(options), 2)
  end
  return native.launch(app_path, options, Driver)
end

-- here([path]) -> path taken from the running spec file's directory: `wf.testing.here("..")` is
-- the app above a spec/ directory, wherever `wayfinder test` runs from. An absolute path stays.
function testing.here(path)
  if path ~= nil and type(path) ~= "string" then
    error("wf.testing.here needs a path relative to the spec file (a string), got " .. type(path), 2)
  end
  local directory = native.spec_directory()
  if path == nil or path == "" or path == "." then return directory end
  if path:sub(1, 1) == "/" then return path end
  return directory .. "/" .. path
end

testing.copy_app = native.copy_app
testing.write = native.write
testing.read = native.read

return testing
