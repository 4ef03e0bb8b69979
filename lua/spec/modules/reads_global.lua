-- A module a spec requires (lua/spec/bindfenv_host_spec.lua): a function reading a global.
local reads_global = {}

function reads_global.read()
  return MODULE_GLOBAL -- luacheck: ignore
end

return reads_global
