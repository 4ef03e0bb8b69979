-- luacheck's `wayfinder` std: the globals a Wayfinder app has in its sandbox (docs/sandbox.md).
-- Anything not listed (io, debug, os.execute, dofile, loadfile, string.dump, package) is absent at
-- run time, so luacheck flags it before the sandbox refuses it. A .luacheckrc loads it with
-- `stds.wayfinder = dofile "<this file>"`; `wayfinder new` writes a copy into the new app's.
local function fields(...)
  local t = {}
  for _, name in ipairs { ... } do t[name] = {} end
  return { fields = t }
end

return {
  read_globals = {
    "assert", "collectgarbage", "error", "getmetatable", "ipairs", "load", "next", "pairs", "pcall",
    "print", "rawequal", "rawget", "rawlen", "rawset", "require", "select", "setmetatable", "tonumber",
    "tostring", "type", "warn", "xpcall", "_G", "_VERSION", "wayfinder",
    string = fields("byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack",
      "packsize", "rep", "reverse", "sub", "unpack", "upper"),
    table = fields("concat", "insert", "move", "pack", "remove", "sort", "unpack"),
    math = fields("abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log",
      "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin", "sqrt",
      "tan", "tointeger", "type", "ult"),
    utf8 = fields("char", "charpattern", "codepoint", "codes", "len", "offset"),
    coroutine = fields("close", "create", "isyieldable", "resume", "running", "status", "wrap", "yield"),
    os = fields("clock", "date", "time"),
  },
}
