-- Which constructor the host calls on a class target (docs/lua-api.md, Three20's deduction):
--   1. the route's `selector` option ("initWithFood:" -> initWithFood);
--   2. the param names in pattern order joined with "_" (or the key spelled as the selector);
--   3. the same with "_query" appended, called with the query table as the extra last argument;
--   4. a pattern without named params: initWithNavigatorURL_query(url, query);
--   5. init(route).
-- Returns the key to call, the selector it stands for, and how to call it, or nil when the
-- class has none of them (the instance is then used as it is).

local callable = require "wayfinder.callable"

local function has(class, key)
  local value = class[key]
  -- A plain function is told without the call (deduction runs on every open).
  return type(value) == "function" or (value ~= nil and callable(value))
end

-- The names depend only on the selector or the param names, and are asked for on every open:
-- each is spelled once (classes are still asked every time, since scripts may change them).
local method_of_selector = {}

local function from_selector(selector)
  local method = method_of_selector[selector]
  if method == nil then
    method = selector:gsub(":$", ""):gsub(":", "_")
    method_of_selector[selector] = method
  end
  return method
end

-- A tree keyed by each param name in turn; a node's [names] holds the spellings.
local names_tree = {}
local NAMES = {}

local function spellings(param_names)
  local node = names_tree
  for i = 1, #param_names do
    local name = param_names[i]
    local next_node = node[name]
    if next_node == nil then
      next_node = {}
      node[name] = next_node
    end
    node = next_node
  end
  local names = node[NAMES]
  if names == nil then
    local method = table.concat(param_names, "_")
    local selector = table.concat(param_names, ":") .. ":"
    names = { method, selector, method .. "_query", selector .. "query:" }
    node[NAMES] = names
  end
  return names[1], names[2], names[3], names[4]
end

local function deduce(class, param_names, selector_option)
  if selector_option then
    local method = from_selector(selector_option)
    if has(class, method) then return method, selector_option, "params" end
    if has(class, selector_option) then return selector_option, selector_option, "params" end
  end
  if #param_names > 0 then
    local method, selector, method_query, selector_query = spellings(param_names)
    if has(class, method) then return method, selector, "params" end
    if has(class, selector) then return selector, selector, "params" end
    if has(class, method_query) then return method_query, selector_query, "params_query" end
    if has(class, selector_query) then return selector_query, selector_query, "params_query" end
  elseif has(class, "initWithNavigatorURL_query") then
    return "initWithNavigatorURL_query", "initWithNavigatorURL:query:", "url_query"
  end
  if has(class, "init") then return "init", nil, "route" end
  return nil
end

return deduce
