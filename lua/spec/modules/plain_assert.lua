-- A module a spec requires (lua/spec/files_spec.lua): its assert is Lua's own.
local plain_assert = {}

function plain_assert.check(value)
  return assert(value, "not ok")
end

return plain_assert
