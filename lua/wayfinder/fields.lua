-- The records that cross between Lua and Swift are declared on the Swift side
-- (Sources/WayfinderLua/Contract), which exports each as the list of its fields, flat, four
-- places a field: its name (its key in the record), its symbol (the Swift case's name), the Lua
-- type its value must have ("any" for any) and whether only the host writes it. Lua code takes
-- every key from there (`keys`), and checks a table a script handed over against the list
-- (`check`), raising a mistake at the script's own line; the host checks the values.
local fields = {}

local NAME, SYMBOL, TYPE, HOST = 0, 1, 2, 3

-- The exported list, ready for check: the names a script may give, in order, and each one's type.
function fields.list(exported)
  local list = { names = {}, types = {} }
  for at = 1, #exported, 4 do
    if not exported[at + HOST] then
      local name = exported[at + NAME]
      list.names[#list.names + 1] = name
      list.types[name] = exported[at + TYPE]
    end
  end
  return list
end

-- The record's keys by symbol: keys(exported).paramNames is "param_names". Asking for a symbol
-- the host does not declare is an error, so a field renamed on one side only fails when the
-- module that uses it loads (take the keys into locals there).
function fields.keys(exported)
  local keys = {}
  for at = 1, #exported, 4 do keys[exported[at + SYMBOL]] = exported[at + NAME] end
  return setmetatable(keys, {
    __index = function(_, symbol) error("the host declares no field '" .. tostring(symbol) .. "' in this record", 2) end,
  })
end

-- The record's names, in order.
function fields.names(exported)
  local names = {}
  for at = 1, #exported, 4 do names[#names + 1] = exported[at + NAME] end
  return names
end

-- The exported names as a set, for a quick "is this one of them".
function fields.set(exported)
  local set = {}
  for at = 1, #exported, 4 do set[exported[at + NAME]] = true end
  return set
end

-- nil when the host lists `exported` in the order of `keys`, else what differs: for a record
-- passed by position, whose order both sides must share.
function fields.order_differs(exported, keys, what)
  local names = fields.names(exported)
  for i = 1, math.max(#names, #keys) do
    if names[i] ~= keys[i] then
      return what .. " takes field " .. i .. " as '" .. tostring(keys[i]) .. "' but the host passes '" .. tostring(names[i]) .. "' there"
    end
  end
  return nil
end

-- Raises "<what>: unknown <noun> 'x' (known: ...)" or "<what>: <noun> 'x' must be a T, got U"
-- for the first field of `tbl` that is not in `list` or whose value is not of its type. `level`
-- is error's, counted from the caller of check.
function fields.check(list, tbl, what, noun, level)
  for key, value in pairs(tbl) do
    local expected = list.types[key]
    if expected == nil then
      error(what .. ": unknown " .. noun .. " '" .. tostring(key) .. "' (known: " .. table.concat(list.names, ", ") .. ")", level + 1)
    end
    if expected ~= "any" and type(value) ~= expected then
      error(what .. ": " .. noun .. " '" .. key .. "' must be a " .. expected .. ", got " .. type(value), level + 1)
    end
  end
end

return fields
