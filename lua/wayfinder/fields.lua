-- Checks a table a script handed over against the list of its fields the host exports (each
-- field's name, in the host's order, and the Lua type its value must have, "any" for any). The
-- list is the host's, so the Lua and Swift sides cannot disagree on it; this module checks only
-- the table's shape, raising a mistake at the script's own line, and the host checks the values.
local fields = {}

-- The exported list, ready for check: its names in order and each one's type.
function fields.list(exported)
  local list = { names = {}, types = {} }
  for i, field in ipairs(exported) do
    list.names[i] = field.name
    list.types[field.name] = field.type
  end
  return list
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
