-- Fault injection: apps that go wrong at every point where the host calls into Lua, in every
-- way a script can (errors, endless loops, memory bombs, reaching for what the sandbox keeps
-- out). Each must end in a clear error that names its cause, and leave the app and its
-- navigation tree as they were and usable. Run by scripts/faults (scripts/test runs it too).
local wf = require "wayfinder"

local FAULTY = "lua/faults/apps/faulty"
local LIMITS = { time_limit = 100, memory_limit = 32 }

-- What each payload must be reported as (a Lua pattern).
local EXPECTED = {
  error = "payloads%.lua:%d+: the kitchen is on fire",
  loop = "payloads%.lua:%d+: time budget of 100 ms exceeded",
  coroutine_loop = "payloads%.lua:%d+: .*time budget of 100 ms exceeded",
  xpcall_loop = "payloads%.lua:%d+: time budget of 100 ms exceeded",
  table_error = "payloads%.lua:%d+: %(error object is a table value%)",
  tostring_error = "payloads%.lua:%d+: %(error object is a table value%)",
  memory = "payloads%.lua:%d+: memory limit of 32 MiB reached",
  huge_rep = "payloads%.lua:%d+: resulting string too large",
  backtracking = "payloads%.lua:%d+: time budget of 100 ms exceeded",
  endless_move = "payloads%.lua:%d+: bad argument to 'move' %(a range of %d+ elements is longer than the memory limit could hold%)",
  io = "payloads%.lua:%d+: attempt to index a nil value %(global 'io'%)",
  os = "payloads%.lua:%d+: attempt to call a nil value %(field 'execute'%)",
  debug = "payloads%.lua:%d+: attempt to index a nil value %(global 'debug'%)",
  bytecode = "payloads%.lua:%d+: attempt to call a nil value %(field 'dump'%)",
  binary_chunk = "payloads%.lua:%d+: attempt to load a binary chunk",
  c_module = "payloads%.lua:%d+: attempt to index a nil value %(global 'package'%)",
  c_require = "payloads%.lua:%d+: module 'lfs' not found",
  outside_require = "payloads%.lua:%d+: invalid module name '%.%./%.%./%.%./etc/passwd'",
  outside_loadfile = "payloads%.lua:%d+: attempt to call a nil value %(global 'loadfile'%)",
  outside_dofile = "payloads%.lua:%d+: attempt to call a nil value %(global 'dofile'%)",
  -- What spec files are lent (require "busted", the spec module behind it, compiled into the
  -- test kit and not the library) never reaches an app.
  busted_module = "payloads%.lua:%d+: module 'busted' not found",
  spec_module = "payloads%.lua:%d+: module 'wayfinder%.spec' not found",
  -- Nor do the modules installed outside the app (luassert's, in the system tree) or the spec io.
  installed_module = "payloads%.lua:%d+: module 'luassert%.util' not found",
  spec_io = "payloads%.lua:%d+: module 'wayfinder%.spec_io' not found",
  -- No file handle, nor the term stand-in: an app's state has no io library at all.
  file_handle = "payloads%.lua:%d+: module 'io' not found",
  term = "payloads%.lua:%d+: module 'term' not found",
}

local PAYLOADS = {}
for name in pairs(EXPECTED) do PAYLOADS[#PAYLOADS + 1] = name end
table.sort(PAYLOADS)

-- The app is still usable: it opens a page, shows it and goes back to where it was.
local function still_usable(app)
  local before = app:url()
  assert.is_true(app:open("tt://page/after"))
  assert.equal("Page", app:render().title)
  assert.is_true(app:back())
  assert.equal(before, app:url())
end

local function warned(app, pattern)
  for _, warning in ipairs(app:stats().warnings) do
    if warning:find(pattern) then return true end
  end
  return false
end

describe("a fault", function()
  local app
  before_each(function()
    app = assert(wf.testing.launch(FAULTY, LIMITS))
    assert.is_true(app:open("tt://page/1"))
  end)
  after_each(function() app:close() end)

  for _, what in ipairs(PAYLOADS) do
    describe(what, function()
      for _, where in ipairs { "constructor", "delegate" } do
        it("in a " .. where .. " fails the open and changes nothing", function()
          local url = "tt://fault/" .. where .. "/" .. what
          local tree = app:tree()
          local ok, err = app:open(url)
          assert.is_false(ok)
          assert.matches("^cannot open '" .. url:gsub("%p", "%%%0") .. "': " .. EXPECTED[what], err)
          assert.same(tree, app:tree())
          still_usable(app)
        end)
      end

      it("in an observer is reported and the app goes on", function()
        local ok, err = app:open("tt://fault/observer/" .. what)
        if what == "loop" or what == "coroutine_loop" or what == "xpcall_loop" or what == "backtracking" then
          -- Observers run inside the call that set the value, under its time budget: a loop
          -- may use it up, and then that call fails instead.
          if not ok then assert.matches("time budget of 100 ms exceeded", err) end
        else
          assert.is_true(ok, err)
        end
        if ok then
          -- Inside the observer's protection, running out of memory is Lua's own message.
          -- Lua's pcall hands back the error object without its position.
          local expected = what == "memory" and "not enough memory"
            or (what == "table_error" or what == "tostring_error") and "%(error object is a table value%)"
            or EXPECTED[what]
          assert.is_true(warned(app, "observer of 'trigger': " .. expected), table.concat(app:stats().warnings, "\n"))
        end
        assert.equal("tt://page/1", app:url())
        still_usable(app)
      end)

      it("in render fails that render only", function()
        assert.is_true(app:open("tt://fault/render/" .. what))
        local ok, err = pcall(app.render, app)
        assert.is_false(ok)
        assert.matches(EXPECTED[what], err)
        assert.equal("tt://fault/render/" .. what, app:url())
        assert.is_true(app:back())
        assert.equal("tt://page/1", app:url())
        still_usable(app)
      end)

      it("in persist saves the entry by its URL, with a warning", function()
        assert.is_true(app:open("tt://fault/persist/" .. what))
        assert.is_true(app:relaunch())
        assert.is_true(warned(app, "tt://fault/persist/" .. what .. ": persist: " .. EXPECTED[what]))
        assert.equal("tt://fault/persist/" .. what, app:url())
        assert.is_true(app:back())
        assert.equal("tt://page/1", app:url())
        still_usable(app)
      end)

      it("in restore drops that entry at launch, with a warning; the rest comes back", function()
        assert.is_true(app:open("tt://fault/restore/" .. what))
        assert.is_true(app:relaunch())
        assert.is_true(warned(app, "dropped 'tt://fault/restore/" .. what .. "'"))
        assert.is_true(warned(app, EXPECTED[what]))
        assert.equal("tt://page/1", app:url())
        still_usable(app)
      end)
    end)
  end
end)

describe("an app that cannot load", function()
  local cases = {
    { "a syntax error", "local wf = require 'wayfinder'\nwf.map:from('tt://x',\n", "app%.lua:3: unexpected symbol near <eof>" },
    { "an error at load", "local x = nil\nreturn x.y\n", "app%.lua:2: attempt to index a nil value" },
    { "an endless loop at load", "while true do end\n", "app%.lua:1: time budget of 100 ms exceeded" },
    { "a memory bomb at load", "local t = { 'x' } while true do t[#t + 1] = t[#t] .. t[#t] end\n", "memory limit of 32 MiB reached" },
    { "a conflict in the route map", "local wf = require 'wayfinder'\nwf.map:from('tt://u/(a)', function() end)\nwf.map:from('tt://u/(b)', function() end)\n", "tt://u/%(a%)" },
    { "a bad pattern", "local wf = require 'wayfinder'\nwf.map:from('tt://u/(a', function() end)\n", "app%.lua:2:" },
    { "reaching for io", "io.write('x')\n", "app%.lua:1: attempt to index a nil value %(global 'io'%)" },
  }
  for _, case in ipairs(cases) do
    it("with " .. case[1] .. " is refused with the reason", function()
      local copy = wf.testing.copy_app(FAULTY)
      wf.testing.write(copy .. "/app.lua", case[2])
      local app, err = wf.testing.launch(copy, LIMITS)
      assert.is_nil(app)
      assert.matches(case[3], err)
    end)

    it("with " .. case[1] .. " is refused at reload; the running app stays", function()
      local copy = wf.testing.copy_app(FAULTY)
      local app = assert(wf.testing.launch(copy, LIMITS))
      assert.is_true(app:open("tt://page/7"))
      wf.testing.write(copy .. "/app.lua", case[2])
      local ok, err = app:reload()
      assert.is_false(ok)
      assert.matches(case[3], err)
      assert.equal("tt://page/7", app:url())
      still_usable(app)
      app:close()
    end)
  end
end)
