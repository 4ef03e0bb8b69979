-- What goes wrong, by name: each payload is a function that fails in its own way when called.
local payloads = {}

payloads.error = function() error("the kitchen is on fire") end
payloads.loop = function() while true do end end
payloads.xpcall_loop = function() xpcall(function() while true do end end, function() while true do end end) end
payloads.table_error = function() error({}) end
payloads.tostring_error = function() error(setmetatable({}, { __tostring = function() error("in __tostring") end })) end
payloads.coroutine_loop = function() coroutine.wrap(function() while true do end end)() end
payloads.memory = function() local t = { "x" } while #t > 0 do t[#t + 1] = t[#t] .. t[#t] end end
payloads.backtracking = function() return string.find(string.rep("a", 5000), string.rep("a*", 30) .. "b") end
payloads.endless_move = function() return table.move({}, 1, math.maxinteger - 1, 2) end
payloads.huge_rep = function() return string.rep("x", 1 << 40) end
payloads.io = function() return io.open("/etc/passwd"):read("a") end
payloads.os = function() return os.execute("true") end
payloads.debug = function() debug.sethook() end
payloads.bytecode = function() return assert(load(string.dump(function() end)))() end
payloads.binary_chunk = function() return assert(load("\27Lua\84\0\25\147\13\10\26\10", "chunk", "b"))() end
payloads.c_module = function() return package.loadlib("/lib/x86_64-linux-gnu/libc.so.6", "system") end
payloads.c_require = function() return require "lfs" end
payloads.outside_require = function() return require "../../../etc/passwd" end
payloads.outside_loadfile = function() return assert(loadfile("/etc/passwd"))() end
payloads.outside_dofile = function() return dofile("/etc/passwd") end
payloads.busted_module = function() return require("busted").publish end
payloads.spec_module = function() return require("wayfinder.spec")._install end
-- What spec files reach of the disk: installed modules, their io and lfs.
payloads.installed_module = function() return require "luassert.util" end
payloads.spec_io = function() return require("wayfinder.spec_io").io.open("app.lua") end
payloads.file_handle = function() return require("io").stdout:write("reached") end
payloads.term = function() return require("term").isatty end

return payloads
