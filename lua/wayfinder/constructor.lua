-- Which constructor the host calls on a class target (LUA-API.md, Three20's deduction):
--   1. the route's `selector` option ("initWithFood:" -> initWithFood);
--   2. the param names in pattern order joined with "_" (or the key spelled as the selector);
--   3. the same with "_query" appended, called with the query table as the extra last argument;
--   4. a pattern without named params: initWithNavigatorURL_query(url, query);
--   5. init(route).
-- Returns the key to call, the selector it stands for, and how to call it, or nil when the
-- class has none of them (the instance is then used as it is).

local function has(class, key)
  return type(class[key]) == "function"
end

local function from_selector(selector)
  local method = selector:gsub(":$", ""):gsub(":", "_")
  return method
end

local function deduce(class, param_names, selector_option)
  if selector_option then
    local method = from_selector(selector_option)
    if has(class, method) then return method, selector_option, "params" end
    if has(class, selector_option) then return selector_option, selector_option, "params" end
  end
  if #param_names > 0 then
    local method = table.concat(param_names, "_")
    local selector = table.concat(param_names, ":") .. ":"
    if has(class, method) then return method, selector, "params" end
    if has(class, selector) then return selector, selector, "params" end
    if has(class, method .. "_query") then return method .. "_query", selector .. "query:", "params_query" end
    if has(class, selector .. "query:") then return selector .. "query:", selector .. "query:", "params_query" end
  elseif has(class, "initWithNavigatorURL_query") then
    return "initWithNavigatorURL_query", "initWithNavigatorURL:query:", "url_query"
  end
  if has(class, "init") then return "init", nil, "route" end
  return nil
end

return deduce
