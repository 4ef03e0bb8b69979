-- luacheck settings for Wayfinder's own Lua (docs/testing.md, "Linting"). `scripts/test` runs
-- `luacheck lua` and expects no warnings.
stds.wayfinder = dofile "lua/wayfinder/meta/luacheck_std.lua"
-- Spec files get busted's words and, beside the sandbox's globals, loadfile, dofile, the part
-- of debug tests use, io and os's file functions (docs/testing.md).
stds.wayfinder_spec = {
  read_globals = {
    "loadfile", "dofile", "io", "arg", debug = { fields = { "traceback", "getinfo", "getmetatable", "sethook" } },
    os = { fields = { "tmpname", "remove", "rename", "execute" } },
    package = { fields = { loaded = { other_fields = true, read_only = false }, path = { read_only = false }, "preload", "config" } },
  },
}

std = "wayfinder"
max_line_length = false
-- A controller hook or method need not use self (Three20's methods are often plain answers).
self = false

files["lua/spec"] = { std = "wayfinder+busted+wayfinder_spec" }
files["lua/faults/**/*_spec.lua"] = { std = "wayfinder+busted+wayfinder_spec" }
files["lua/spec/apps"] = { std = "wayfinder" }
-- The fault corpus reaches past the sandbox on purpose (io, os, debug, bytecode).
files["lua/faults/apps"] = { std = "lua54" }
-- The LuaLS definitions declare, they do not run.
exclude_files = { "lua/wayfinder/meta/wayfinder.lua" }
