-- wf.app { ... }: what the app is called and what it shows at launch (tabs or a root URL), and
-- how its navigation state persists (its version, and how an older state migrates). The table's
-- shape is checked here, against the fields the host lists, so a mistake names the app's own
-- line; the values (a URL, a persistence mode, a version) are the host's to check, and its reason
-- is raised here too.
local native = require "wayfinder.native.app"
local migration = require "wayfinder.migration"
local fields = require "wayfinder.fields"

local exported = native.fields()
local options_list, tab_list = fields.list(exported.options), fields.list(exported.tab)
local option, tab_key = fields.keys(exported.options), fields.keys(exported.tab)
local NAME, ROOT, TABS, MIGRATE = option.name, option.root, option.tabs, option.migrate
local TAB_URL, TAB_TITLE = tab_key.url, tab_key.title

local function app(config)
  if type(config) ~= "table" then error("wf.app needs a table such as { " .. NAME .. " = \"myapp\", " .. ROOT .. " = \"tt://home\" }", 2) end
  fields.check(options_list, config, "wf.app", "option", 2)
  local given = config
  local given_tabs = config[TABS]
  if given_tabs ~= nil then
    if type(given_tabs) ~= "table" or #given_tabs == 0 then
      error("wf.app: " .. TABS .. " must be a list of URL strings (or { \"Title\", url } or { " .. TAB_URL .. " = ..., "
        .. TAB_TITLE .. " = ... } tables)", 2)
    end
    -- A titled tab may be written as a link is, { "Title", url }: the host gets { url, title }.
    local tabs = {}
    for i, tab in ipairs(given_tabs) do
      if type(tab) == "table" and tab[1] ~= nil and tab[TAB_URL] == nil and tab[TAB_TITLE] == nil then
        local count = 0
        for _ in pairs(tab) do count = count + 1 end
        if type(tab[1]) ~= "string" or type(tab[2]) ~= "string" or count ~= 2 then
          error("wf.app: tabs[" .. i .. "] must be { \"Title\", url }: two strings", 2)
        end
        tab = { [TAB_TITLE] = tab[1], [TAB_URL] = tab[2] }
      end
      if type(tab) == "table" then
        fields.check(tab_list, tab, "wf.app: tabs[" .. i .. "]", "field", 2)
        local url = tab[TAB_URL]
        if type(url) ~= "string" then error("wf.app: tabs[" .. i .. "]." .. TAB_URL .. " must be a URL string, got " .. type(url), 2) end
      elseif type(tab) ~= "string" then
        error("wf.app: tabs[" .. i .. "] must be a URL string, { \"Title\", url } or { " .. TAB_URL .. " = ..., " .. TAB_TITLE
          .. " = ... }, got " .. type(tab), 2)
      end
      tabs[i] = tab
    end
    given = {}
    for key, value in pairs(config) do given[key] = value end
    given[TABS] = tabs
  end
  local ok, reason = native.configure(given, config[MIGRATE])
  if not ok then error(reason, 2) end
  migration._set(config[MIGRATE])
  return config
end

return app
