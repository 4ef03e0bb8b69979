-- Whether a value can be called as a hook or a method: a function, or a value whose metatable
-- has __call (luassert's spies and stubs are such tables, and a spec puts them where app code
-- keeps its functions).
return function(value)
  if type(value) == "function" then return true end
  local metatable = getmetatable(value)
  return type(metatable) == "table" and rawget(metatable, "__call") ~= nil
end
