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
local native_map = require "wayfinder.native.map"
local route_url = native_map.url_for_route

-- Taken once: these run on every open (a global is a table lookup), and a script that replaces
-- a global changes nothing here.
local type, rawget, rawset, setmetatable, pairs = type, rawget, rawset, setmetatable, pairs
local layer = contexts._layer

local exported = native.fields()
-- The fields of an open's action table, as the host lists them (OpenAction.swift), and its keys.
local action_list = fields.list(exported.action)
local action_key = fields.keys(exported.action)
local A_URL, A_ROUTE, A_PARAMS, A_QUERY = action_key.url, action_key.route, action_key.params, action_key.query
local A_PRESENTATION, A_STATE, A_CONTEXT, A_MODEL = action_key.presentation, action_key.state, action_key.context, action_key.model
-- A list's position by model identifier (an action's model, a persist record's).
local model_key = fields.keys(exported.model)
local SELECTED, ANCHOR = model_key.selected, model_key.anchor
-- What persist answers for a controller (PersistRecord.swift).
local persist_key = fields.keys(exported.persist)
local P_STATE, P_IMPORTANT, P_CONTEXT, P_MODEL = persist_key.state, persist_key.important, persist_key.context, persist_key.model
-- The fields of a match make and fragment are handed (MakeField.swift), and the context a
-- function target's route has besides them (a route description's).
local make_key = fields.keys(exported.make)
local M_URL, M_PATTERN, M_PARAMS, M_QUERY, M_FRAGMENT = make_key.url, make_key.pattern, make_key.params, make_key.query, make_key.fragment
local M_PARAM_NAMES, M_SELECTOR_OPTION, M_MODE, M_STATE = make_key.paramNames, make_key.selectorOption, make_key.mode, make_key.state
local map_exported = native_map.fields()
local R_CONTEXT = fields.keys(map_exported.route).context
-- The mode of a route that opens no screen (an action), as the host names it (RouteOption.swift).
local MODE_NONE = fields.keys(map_exported.modes).none
-- The fields every controller gets before its constructor runs (ControllerField.swift).
local controller_key = fields.keys(exported.controller)
local C_URL, C_QUERY, C_CONTEXT, C_FRAGMENT = controller_key.url, controller_key.query, controller_key.context, controller_key.fragment
-- The settings the host keeps (nav.persistence, nav.expiration; wf.app sets them too), by name.
local host_settings = {}
for _, name in ipairs(exported.settings) do host_settings[name] = true end
local field_names = "delegate, " .. table.concat(exported.settings, ", ")

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
    error("nav:" .. method .. " needs a URL string or an action table { " .. A_URL .. " = ..., " .. A_QUERY .. " = ... }, got "
      .. type(target), 3)
  end
  fields.check(action_list, target, "nav:" .. method, "action field", 3)
  local url = target[A_URL]
  if target[A_ROUTE] ~= nil then
    if url ~= nil then error("nav:" .. method .. ": give the action a " .. A_URL .. " or a " .. A_ROUTE .. ", not both", 3) end
    local reason
    url, reason = route_url(target[A_ROUTE], target[A_PARAMS])
    if not url then error("nav:" .. method .. ": " .. reason, 3) end
  elseif target[A_PARAMS] ~= nil then
    error("nav:" .. method .. ": action field '" .. A_PARAMS .. "' goes with '" .. A_ROUTE .. "' (the route's name)", 3)
  end
  if url == nil then error("nav:" .. method .. ": the action table needs a " .. A_URL .. " (or a " .. A_ROUTE .. ")", 3) end
  local context = target[A_CONTEXT]
  if context ~= nil and not contexts.is(context) then
    error("nav:" .. method .. ": action field '" .. A_CONTEXT .. "' must be a context (made by wf.context), got " .. type(context), 3)
  end
  local presentation = target[A_PRESENTATION]
  if presentation ~= nil then
    local ok, reason = native.check_presentation(presentation, "nav:" .. method)
    if not ok then error(reason, 3) end
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
  controller.selected = model[SELECTED] ~= nil and index_of(controller, model[SELECTED]) or nil
  controller.anchor = model[ANCHOR] ~= nil and index_of(controller, model[ANCHOR]) or nil
end

-- The fields of a match make takes after target, action and opener, in the order of its
-- parameters below; the host passes them in the order MakeField.swift declares (checked when
-- this module loads).
local make_order = { M_URL, M_PATTERN, M_PARAMS, M_QUERY, M_FRAGMENT, M_PARAM_NAMES, M_SELECTOR_OPTION, M_MODE, M_STATE }

-- nil when the host's list `exported` is in make's order, else what differs.
local function fields_disagree(list)
  return fields.order_differs(list, make_order, "make")
end
local disagreement = fields_disagree(exported.make)
if disagreement then error(disagreement, 0) end

-- The route a function target (or a class's init) is handed: the match's fields by name.
local function route_table(url, pattern, params, query, fragment, context, state)
  return {
    [M_URL] = url, [M_PATTERN] = pattern, [M_PARAMS] = params, [M_QUERY] = query,
    [M_FRAGMENT] = fragment, [R_CONTEXT] = context, [M_STATE] = state,
  }
end

-- Makes the controller for a match. After `target`, `action` and `opener` come the match's
-- fields, in `make_order`: the URL's query is joined by the request's; `action` is
-- the table the script passed to open, whose query values join by reference. `opener` is the
-- controller the new screen opens over (the visible one of the tree being changed, so a parent
-- opened first), or nil.
local function make(target, action, opener, url, pattern, params, query, fragment, param_names, selector_option, mode, state)
  local context
  if action then
    local extra = action[A_QUERY]
    if extra then
      for key, value in pairs(extra) do query[key] = value end
    end
    context = action[A_CONTEXT]
  end
  -- The action's context, else a fresh layer over the opener's (over wf.context.app when the
  -- opener has none), so data flows forward by default; wf.context.app is the innermost layer of
  -- every chain.
  if context == nil then
    context = layer(type(opener) == "table" and rawget(opener, C_CONTEXT))
  end
  local controller
  if type(target) == "function" then
    controller = target(route_table(url, pattern, params, query, fragment, context, state))
  elseif natives.name_of(target) then
    -- The host's factory gets the saved state itself: no restore(state) follows.
    return natives.make(target, url, pattern, params, query, fragment, context, state)
  else
    local self = setmetatable({ [C_URL] = url, [C_QUERY] = query, [C_CONTEXT] = context }, target)
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
      result = self:init(route_table(url, pattern, params, query, fragment, context, state))
    end
    controller = type(result) == "table" and result or self
  end
  if mode ~= MODE_NONE and controller ~= nil and type(controller) ~= "table" then
    error("the target of '" .. pattern .. "' returned a " .. type(controller) .. ", not a controller (a table)", 0)
  end
  if mode ~= MODE_NONE and type(controller) == "table" then
    if rawget(controller, C_CONTEXT) == nil then rawset(controller, C_CONTEXT, context) end
    -- Saved state (a restored entry's, or an action's state field) is handed over before the
    -- controller appears, as Three20's restoreView: was.
    if state ~= nil and controller.restore ~= nil then
      method(controller, "restore")(controller, state)
    end
    local model = action and action[A_MODEL]
    if model then select_models(controller, model) end
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
      controller:fragment(route[M_FRAGMENT])
    else
      rawset(controller, C_FRAGMENT, route[M_FRAGMENT])
    end
    return
  end
  local param_names, selector_option = route[M_PARAM_NAMES], route[M_SELECTOR_OPTION]
  local handler, _, how = deduce(controller, param_names, selector_option)
  if how ~= "params" and how ~= "params_query" then
    local wanted = selector_option or table.concat(param_names, "_")
    error(describe(controller) .. " has no method '" .. wanted .. "' for the fragment of " .. route[M_URL], 0)
  end
  local args, n = arguments(param_names, route[M_PARAMS], how, route[M_QUERY])
  controller[handler](controller, table.unpack(args, 1, n))
end

-- Calls controller:<name>() when the controller has such a method.
local function hook(controller, name)
  if controller[name] == nil then return nil end
  return method(controller, name)(controller)
end

-- What a controller says about itself when the tree is saved, as the record PersistRecord.swift
-- declares: false when it is not saved at all (persist(state) returning false says no), else
-- the state its persist hook wrote, whether it is important (a field, or a method answering),
-- its context's Swift layer, and its selected item and scroll anchor by model identifier when
-- it is a list that has them.
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
  local context = rawget(controller, C_CONTEXT)
  local model
  if selected ~= nil or anchor ~= nil then model = { [SELECTED] = selected, [ANCHOR] = anchor } end
  return {
    [P_STATE] = state, [P_IMPORTANT] = important and true or false,
    [P_CONTEXT] = contexts.is(context) and contexts._core(context) or nil, [P_MODEL] = model,
  }
end

-- What a controller made again in its place (presentation "refresh") hands its successor, as an
-- open's action: its context, and its list position, and the state its persist hook writes.
local function remaking(controller)
  local record = persist(controller)
  if record == false then record = {} end
  local context = rawget(controller, C_CONTEXT)
  return { [A_STATE] = record[P_STATE], [A_CONTEXT] = contexts.is(context) and context or nil, [A_MODEL] = record[P_MODEL] }
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
