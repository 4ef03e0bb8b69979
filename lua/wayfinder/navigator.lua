-- wf.navigator: the app's navigator (docs/lua-api.md). The tree, the modes, parents, redirects and
-- share lookups are native; this file checks arguments so mistakes name the script's line, and
-- holds what only Lua can do: making controllers (instances, Three20's constructor deduction,
-- merging an action's query values by reference), calling their hooks and the delegate's.
local native = require "wayfinder.native.navigator"
local deduce = require "wayfinder.constructor"
local contexts = require "wayfinder.context"
local callable = require "wayfinder.callable"
local fields = require "wayfinder.fields"
local natives = require "wayfinder.native_screen"
local route_url = (require "wayfinder.native.map").url_for_route

-- Taken once: these run on every open (a global is a table lookup), and a script that replaces
-- a global changes nothing here.
local type, rawget, rawset, setmetatable, pairs = type, rawget, rawset, setmetatable, pairs
local layer = contexts._layer

local exported = native.fields()
-- The fields of an open's action table, as the host lists them.
local action_list = fields.list(exported.action)
-- The settings the host keeps (nav.persistence, nav.expiration; wf.app sets them too), by name.
local host_settings = {}
for _, name in ipairs(exported.settings) do host_settings[name] = true end
local field_names = "delegate, " .. table.concat(exported.settings, ", ")
-- The presentation verbs, as the host lists them (push, replace, ...).
local presentations = {}
for _, name in ipairs(exported.presentations) do presentations[name] = true end
local presentation_names = table.concat(exported.presentations, ", ")

local methods = {}
-- nav.delegate lives here.
local settings = {}
-- A method is found in `methods` itself, without a call (nav:open and nav:back run on every
-- navigation); any other field is a setting, or nav.delegate.
setmetatable(methods, {
  __index = function(_, key)
    if host_settings[key] then return native.setting(key) end
    return settings[key]
  end,
  __metatable = false,
})
local navigator = setmetatable({}, {
  __index = methods,
  __newindex = function(_, key, value)
    if key == "delegate" then
      if value ~= nil and type(value) ~= "table" then
        error("nav.delegate must be a table of hook functions (or nil), got " .. type(value), 2)
      end
      settings.delegate = value
      native.set_delegate(value ~= nil)
    elseif host_settings[key] then
      local ok, reason = native.configure(key, value)
      if not ok then error(reason, 2) end
    else
      error("nav." .. tostring(key) .. " is not a navigator field (fields: " .. field_names .. ")", 2)
    end
  end,
  __tostring = function() return "wf.navigator" end,
  -- pairs(wf.navigator) lists its methods (tools, and the annotations spec, read them so).
  __pairs = function() return next, methods, nil end,
})

local function check_self(self, method)
  if self ~= navigator then error("call it as wf.navigator:" .. method .. "(...), with a colon", 3) end
end

-- Checks an action table (or a URL) for open and replace, raising at the script's line; the URL
-- to open (a named route's, filled from its params).
local function check_action(target, method)
  if type(target) == "string" then return target end
  if type(target) ~= "table" then
    error("nav:" .. method .. " needs a URL string or an action table { url = ..., query = ... }, got " .. type(target), 3)
  end
  fields.check(action_list, target, "nav:" .. method, "action field", 3)
  local url = target.url
  if target.route ~= nil then
    if url ~= nil then error("nav:" .. method .. ": give the action a url or a route, not both", 3) end
    local reason
    url, reason = route_url(target.route, target.params)
    if not url then error("nav:" .. method .. ": " .. reason, 3) end
  elseif target.params ~= nil then
    error("nav:" .. method .. ": action field 'params' goes with 'route' (the route's name)", 3)
  end
  if url == nil then error("nav:" .. method .. ": the action table needs a url (or a route)", 3) end
  if target.context ~= nil and not contexts.is(target.context) then
    error("nav:" .. method .. ": action field 'context' must be a context (made by wf.context), got " .. type(target.context), 3)
  end
  if target.presentation ~= nil and not presentations[target.presentation] then
    error("nav:" .. method .. ": presentation must be one of " .. presentation_names .. "; got '" .. target.presentation .. "'", 3)
  end
  return url
end

-- open(url) or open { url, query, parent, presentation, state, context, animated, transition }
-- (the checks of the common open of a URL written out: it runs on every navigation).
function methods:open(target)
  if self ~= navigator then check_self(self, "open") end
  if type(target) == "string" then return native.open(target) end
  return native.open(check_action(target, "open"), target)
end

-- replace(url_or_action): open in the visible screen's place (presentation "replace").
function methods:replace(target)
  check_self(self, "replace")
  local url = check_action(target, "replace")
  if type(target) == "string" then return native.open(target, nil, "replace") end
  return native.open(url, target, "replace")
end

-- handle_link(url): a link from outside the app; only routes marked external open.
function methods:handle_link(url)
  check_self(self, "handle_link")
  if type(url) ~= "string" then error("nav:handle_link needs a URL string, got " .. type(url), 2) end
  return native.handle_link(url)
end

-- resume(): asks the guard of the pending open again; the controller when it opened, false
-- when nothing waits or its guard still stops it, nil and the reason when it failed.
function methods:resume()
  check_self(self, "resume")
  return native.resume()
end

-- pending(): { url, link, presentation, since } of the open a guard keeps waiting, or nil.
function methods:pending()
  check_self(self, "pending")
  return native.pending()
end

-- drop_pending(): forgets the pending open; whether there was one.
function methods:drop_pending()
  check_self(self, "drop_pending")
  return native.drop_pending()
end

function methods:pop_to_root()
  check_self(self, "pop_to_root")
  return native.pop_to_root()
end

function methods:back()
  if self ~= navigator then check_self(self, "back") end
  return native.back()
end

function methods:dismiss()
  check_self(self, "dismiss")
  return native.dismiss()
end

function methods:tabs(urls)
  check_self(self, "tabs")
  if type(urls) ~= "table" or #urls == 0 then error("nav:tabs needs a list of URL strings", 2) end
  for i, url in ipairs(urls) do
    if type(url) ~= "string" then error("nav:tabs: item " .. i .. " must be a URL string, got " .. type(url), 2) end
  end
  return native.tabs(urls)
end

function methods:select(index)
  check_self(self, "select")
  if math.type(index) ~= "integer" then error("nav:select needs a tab number (an integer from 1), got " .. type(index), 2) end
  return native.select(index)
end

function methods:top()
  check_self(self, "top")
  return native.top()
end

function methods:url()
  check_self(self, "url")
  return native.url()
end

function methods:tree()
  check_self(self, "tree")
  return native.tree()
end

-- Writes the navigation state through the app's state store: true, or nil and the reason.
function methods:persist()
  check_self(self, "persist")
  return native.persist()
end

-- Replaces the tree with the saved one: true, false when there was nothing to restore (none
-- saved, expired, unreadable, or no entry whose URL still opens), or nil and the reason.
function methods:restore()
  check_self(self, "restore")
  return native.restore()
end

-- What the host calls. ------------------------------------------------------------------

-- The values a deduced constructor (or fragment method) takes, in pattern order.
local function arguments(param_names, params, how, query)
  local args, n = {}, #param_names
  for i, name in ipairs(param_names) do args[i] = params[name] end
  if how == "params_query" then
    n = n + 1
    args[n] = query
  end
  return args, n
end

local function describe(value)
  if type(value) == "table" then
    local mt = getmetatable(value)
    local name = type(mt) == "table" and rawget(mt, "__name")
    if type(name) == "string" then return name end
  end
  return type(value)
end

-- The controller's method `name`, which must be callable.
local function method(controller, name)
  local fn = controller[name]
  if not callable(fn) then error(describe(controller) .. "." .. name .. " is a " .. type(fn) .. ", not a method", 0) end
  return fn
end

-- UIDataSourceModelAssociation: a restored list finds its selected item and its scroll anchor
-- by model identifier; an identifier that is gone clears them quietly.
local function select_models(controller, model)
  if controller.index_of == nil then return end
  local index_of = method(controller, "index_of")
  controller.selected = model.selected ~= nil and index_of(controller, model.selected) or nil
  controller.anchor = model.anchor ~= nil and index_of(controller, model.anchor) or nil
end

-- The fields of a match make takes after target, action and opener, in the order the host
-- passes them (RouteField in RouteRecord.swift lists them; checked below when this module loads).
local route_fields = {
  "url", "pattern", "params", "query", "fragment", "param_names", "selector_option", "mode", "state",
}

-- nil when the host passes `names` in make's order, else what differs.
local function fields_disagree(names)
  for i = 1, math.max(#names, #route_fields) do
    if names[i] ~= route_fields[i] then
      return "make takes route field " .. i .. " as '" .. tostring(route_fields[i]) .. "' but the host passes '"
        .. tostring(names[i]) .. "' there"
    end
  end
  return nil
end
local disagreement = fields_disagree(native.route_fields())
if disagreement then error(disagreement, 0) end

-- Makes the controller for a match. After `target`, `action` and `opener` come the match's
-- fields, as `route_fields` names them: the URL's query is joined by the request's; `action` is
-- the table the script passed to open, whose query values join by reference. `opener` is the
-- controller the new screen opens over (the visible one of the tree being changed, so a parent
-- opened first), or nil.
local function make(target, action, opener, url, pattern, params, query, fragment, param_names, selector_option, mode, state)
  local context
  if action then
    if action.query then
      for key, value in pairs(action.query) do query[key] = value end
    end
    context = action.context
  end
  -- The action's context, else a fresh layer over the opener's (over wf.context.app when the
  -- opener has none), so data flows forward by default; wf.context.app is the innermost layer of
  -- every chain.
  if context == nil then
    context = layer(type(opener) == "table" and rawget(opener, "context"))
  end
  local controller
  if type(target) == "function" then
    controller = target {
      url = url, pattern = pattern, params = params, query = query,
      fragment = fragment, context = context, state = state,
    }
  elseif natives.name_of(target) then
    -- The host's factory gets the saved state itself: no restore(state) follows.
    return natives.make(target, {
      url = url, pattern = pattern, params = params, query = query,
      fragment = fragment, context = context, state = state,
    })
  else
    local self = setmetatable({ url = url, query = query, context = context }, target)
    local constructor, _, how = deduce(target, param_names, selector_option)
    local result
    if how == "params" and #param_names == 1 then
      -- The common one-param constructor, without building the argument list.
      result = self[constructor](self, params[param_names[1]])
    elseif how == "params" or how == "params_query" then
      local args, n = arguments(param_names, params, how, query)
      result = self[constructor](self, table.unpack(args, 1, n))
    elseif how == "url_query" then
      result = self[constructor](self, url, query)
    elseif how == "route" then
      result = self:init {
        url = url, pattern = pattern, params = params, query = query,
        fragment = fragment, context = context, state = state,
      }
    end
    controller = type(result) == "table" and result or self
  end
  if mode ~= "none" and controller ~= nil and type(controller) ~= "table" then
    error("the target of '" .. pattern .. "' returned a " .. type(controller) .. ", not a controller (a table)", 0)
  end
  if mode ~= "none" and type(controller) == "table" then
    if rawget(controller, "context") == nil then rawset(controller, "context", context) end
    -- Saved state (a restored entry's, or an action's state field) is handed over before the
    -- controller appears, as Three20's restoreView: was.
    if state ~= nil and controller.restore ~= nil then
      method(controller, "restore")(controller, state)
    end
    if action and action.model then select_models(controller, action.model) end
  end
  return controller
end

-- A fragment URL acting on the controller already showing its base URL: the method its
-- pattern names (tt://order?waitress=()#(orderAction:) calls controller:orderAction(fragment)).
-- A pattern whose fragment names no param hands the fragment over as data: to the controller's
-- `fragment` method when it has one, else into `self.fragment`.
local function fragment(controller, route, names_method)
  if not names_method then
    if type(controller.fragment) == "function" then
      controller:fragment(route.fragment)
    else
      rawset(controller, "fragment", route.fragment)
    end
    return
  end
  local handler, _, how = deduce(controller, route.param_names, route.selector_option)
  if how ~= "params" and how ~= "params_query" then
    local wanted = route.selector_option or table.concat(route.param_names, "_")
    error(describe(controller) .. " has no method '" .. wanted .. "' for the fragment of " .. route.url, 0)
  end
  local args, n = arguments(route.param_names, route.params, how, route.query)
  controller[handler](controller, table.unpack(args, 1, n))
end

-- Calls controller:<name>() when the controller has such a method.
local function hook(controller, name)
  if controller[name] == nil then return nil end
  return method(controller, name)(controller)
end

-- What a controller says about itself when the tree is saved, as a record the host reads by
-- name (LuaControllerRecord.swift, record(of:at:)): false when it is not saved at all (persist(state) returning
-- false says no), else { state = the state its persist hook wrote, important = whether it is
-- important (a field, or a method answering), context = its context's Swift layer, selected and
-- anchor = its selected item and scroll anchor by model identifier when it is a list that has
-- them }.
local function persist(controller)
  local state
  if controller.persist ~= nil then
    state = {}
    if method(controller, "persist")(controller, state) == false then return false end
  end
  local important = controller.important
  if type(important) == "function" then important = important(controller) end
  local selected, anchor
  if controller.model_id ~= nil then
    local model_id = method(controller, "model_id")
    if math.type(controller.selected) == "integer" then selected = model_id(controller, controller.selected) end
    if math.type(controller.anchor) == "integer" then anchor = model_id(controller, controller.anchor) end
  end
  local context = rawget(controller, "context")
  return {
    state = state, important = important and true or false,
    context = contexts.is(context) and contexts._core(context) or nil, selected = selected, anchor = anchor,
  }
end

-- What a controller made again in its place (presentation "refresh") hands its successor, as an
-- open's action: its context, and its list position, and the state its persist hook writes.
local function remaking(controller)
  local record = persist(controller)
  if record == false then record = {} end
  local context = rawget(controller, "context")
  local model
  if record.selected ~= nil or record.anchor ~= nil then model = { selected = record.selected, anchor = record.anchor } end
  return { state = record.state, context = contexts.is(context) and context or nil, model = model }
end

-- What the host reads of a controller: controller[name], through its class as a script reads it.
local function field(controller, name)
  return controller[name]
end

-- What the host calls on a controller: controller:name(...), its results as they are.
local function call(controller, name, ...)
  return method(controller, name)(controller, ...)
end

-- Calls nav.delegate[name](...) when the delegate has that hook: true and its result, or false.
local function delegate(name, ...)
  local hooks = settings.delegate
  local fn = hooks and hooks[name]
  if fn == nil then return false end
  if not callable(fn) then error("nav.delegate." .. name .. " is a " .. type(fn) .. ", not a function", 0) end
  return true, fn(...)
end

-- Handed to the host once, at start-up; scripts changing this table change nothing.
methods._host = {
  fields_disagree = fields_disagree, make = make, fragment = fragment, hook = hook, delegate = delegate,
  describe = describe, persist = persist, field = field, call = call, remaking = remaking,
}

return navigator
