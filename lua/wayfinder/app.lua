-- wf.app { ... }: what the app is called and what it shows at launch (tabs or a root URL), and
-- how its navigation state persists (its version, and how an older state migrates). Checked here so a mistake names the app's own line.
local native = require "wayfinder.native.app"
local migration = require "wayfinder.migration"

local persistence_modes = { none = true, top = true, all = true }

local function app(config)
  if type(config) ~= "table" then error("wf.app needs a table such as { name = \"myapp\", root = \"tt://home\" }", 2) end
  local known = { name = true, tabs = true, root = true, persistence = true, expiration = true, version = true, migrate = true }
  for key in pairs(config) do
    if not known[key] then
      error("wf.app: unknown option '" .. tostring(key) .. "' (known: name, tabs, root, persistence, expiration, version, migrate)", 2)
    end
  end
  if config.name ~= nil and (type(config.name) ~= "string" or config.name == "") then
    error("wf.app: name must be a non-empty string", 2)
  end
  if config.root ~= nil and type(config.root) ~= "string" then error("wf.app: root must be a URL string", 2) end
  if config.tabs ~= nil then
    if type(config.tabs) ~= "table" or #config.tabs == 0 then
      error("wf.app: tabs must be a list of URL strings (or { url = ..., title = ... } tables)", 2)
    end
    for i, tab in ipairs(config.tabs) do
      if type(tab) == "table" then
        for key in pairs(tab) do
          if key ~= "url" and key ~= "title" then
            error("wf.app: tabs[" .. i .. "] has an unknown field '" .. tostring(key) .. "' (known: url, title)", 2)
          end
        end
        if type(tab.url) ~= "string" then error("wf.app: tabs[" .. i .. "].url must be a URL string, got " .. type(tab.url), 2) end
        if tab.title ~= nil and type(tab.title) ~= "string" then
          error("wf.app: tabs[" .. i .. "].title must be a string, got " .. type(tab.title), 2)
        end
      elseif type(tab) ~= "string" then
        error("wf.app: tabs[" .. i .. "] must be a URL string or { url = ..., title = ... }, got " .. type(tab), 2)
      end
    end
  end
  if config.root ~= nil and config.tabs ~= nil then error("wf.app: give either root or tabs, not both", 2) end
  if config.persistence ~= nil and not persistence_modes[config.persistence] then
    error("wf.app: persistence must be \"none\", \"top\" or \"all\", got " .. tostring(config.persistence), 2)
  end
  if config.expiration ~= nil and (type(config.expiration) ~= "number" or config.expiration < 0) then
    error("wf.app: expiration must be a number of seconds >= 0 (0 = never)", 2)
  end
  if config.version ~= nil and (math.type(config.version) ~= "integer" or config.version < 1) then
    error("wf.app: version must be an integer from 1, got " .. tostring(config.version), 2)
  end
  if config.migrate ~= nil and type(config.migrate) ~= "function" then
    error("wf.app: migrate must be a function(state, from), got " .. type(config.migrate), 2)
  end
  local ok, err = native.configure(config, config.migrate)
  if not ok then error(err, 2) end
  migration._set(config.migrate)
  return config
end

return app
