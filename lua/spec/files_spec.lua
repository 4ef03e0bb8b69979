-- What a spec reaches of the disk (docs/testing.md, "Files, fixtures and installed modules"): it
-- reads the project's files, writes only in the run's temporary directory, and starts no process.
local lfs = require "lfs"

local here = debug.getinfo(1, "S").source:sub(2)

describe("a spec's io", function()
  it("reads its project's files, whole, by line and by count", function()
    local file = assert(io.open(here, "rb"))
    assert.equal("file", io.type(file))
    assert.equal("-- What a spec reaches", file:read(22))
    assert.equal(" of the disk", file:read("l"):sub(1, 12))
    local rest = file:read("a")
    assert.matches("starts no process", rest)
    assert.is_nil(file:read("l"))
    assert.is_true(file:close())
    assert.equal("closed file", io.type(file))
    local count = 0
    for line in io.lines(here) do count = count + (line:find("^describe") and 1 or 0) end
    assert.equal(4, count)
  end)

  it("refuses files outside the project, naming why", function()
    local file, why = io.open("/etc/hostname")
    assert.is_nil(file)
    assert.matches("^/etc/hostname: outside the files specs may read", why)
    assert.is_nil((io.open("../../../../../../etc/hostname")))
    assert.has_error(function() io.lines("/etc/hostname") end)
  end)

  it("writes only in the run's temporary directory, where os.tmpname answers", function()
    local name = os.tmpname()
    local file = assert(io.open(name, "w"))
    assert.equal(file, file:write("one\n", 2, "\n"))
    file:close()
    local appended = assert(io.open(name, "a"))
    appended:write("three\n")
    appended:close()
    local lines = {}
    for line in io.lines(name) do lines[#lines + 1] = line end
    assert.same({ "one", "2", "three" }, lines)
    local refused, why = io.open("lua/spec/written.txt", "w")
    assert.is_nil(refused)
    assert.matches("outside the files specs may change", why)
    assert.is_true(os.rename(name, name .. ".moved"))
    assert.is_true(os.remove(name .. ".moved"))
    assert.is_nil(io.open(name .. ".moved"))
    assert.is_nil(os.remove(here))
  end)

  it("starts no process, and says so", function()
    assert.has_error(function() io.popen("true") end, "io.popen is not available in spec files: specs start no processes")
    assert.has_error(function() os.execute("true") end, "os.execute is not available in spec files: specs start no processes")
  end)

  it("writes io.write, io.stdout and io.stderr where print goes", function()
    assert.equal(io.stdout, io.write("written by a spec\n"))
    assert.equal(io.stderr, io.stderr:write("to standard error\n"))
    assert.is_nil(io.read())
  end)

  it("hands out Lua's own file handles, for files and the standard streams", function()
    local file = assert(io.open(here))
    for _, handle in ipairs { file, io.stdin, io.stdout, io.stderr } do
      assert.equal("userdata", type(handle))
      assert.equal("file", io.type(handle))
      assert.matches("^file %(0?x?%x+%)$", tostring(handle))
      assert.is_false(getmetatable(handle))
    end
    assert.equal(io.stdin, io.input())
    assert.equal(io.stdout, io.output())
    assert.equal(5, file:seek("set", 5))
    assert.equal("at a ", file:read(5))
    assert.is_true(file:setvbuf("no"))
    file:close()
    assert.equal("closed file", io.type(file))
    assert.equal("file (closed)", tostring(file))
    assert.has_error(function() file:read() end, "attempt to use a closed file")
    assert.is_nil(io.type({}))
    assert.is_nil(io.type(setmetatable({}, { __name = "FILE*" })))
  end)

  it("has a standard input that reads nothing and a standard output that cannot be read", function()
    assert.equal("", io.stdin:read("a"))
    assert.is_nil(io.stdin:read("l"))
    assert.is_nil(io.stdin:read(1))
    for _ in io.stdin:lines() do error("standard input gave a line") end
    local closed, why = io.stdin:close()
    assert.is_nil(closed)
    assert.equal("cannot close standard file", why)
    assert.equal("file", io.type(io.stdout))
    local read, reason = io.stdout:read("a")
    assert.is_nil(read)
    assert.is_string(reason)
    assert.is_nil(io.stdout:seek("set"))
  end)

  it("updates a temporary file in place, reads it back and appends past what it holds", function()
    local name = os.tmpname()
    local file = assert(io.open(name, "w+"))
    file:write("hello world")
    assert.equal(6, file:seek("set", 6))
    file:write("WORLD")
    file:seek("set")
    assert.equal("hello WORLD", file:read("a"))
    file:close()
    local appended = assert(io.open(name, "a+"))
    appended:write("!")
    appended:seek("set")
    assert.equal("hello WORLD!", appended:read("a"))
    appended:close()
    local updated = assert(io.open(name, "r+"))
    updated:write("J")
    updated:close()
    assert.equal("Jello WORLD!", io.lines(name, "a")())
    local read_only = assert(io.open(name, "r"))
    local refused, why = read_only:write("x")
    assert.is_nil(refused)
    assert.is_string(why)
    read_only:close()
    assert.is_true(os.remove(name))
  end)

  it("refuses an update of a file outside the temporary directory, and a directory", function()
    local refused, why = io.open(here, "r+")
    assert.is_nil(refused)
    assert.matches("outside the files specs may change", why)
    local directory, reason = io.open("lua/spec")
    assert.is_nil(directory)
    assert.matches("not a regular file", reason)
    assert.has_error(function() io.open(here, "rw") end, "bad argument #2 to 'open' (invalid mode)")
  end)

  it("closes the handles a spec no longer holds when it would open more than it may hold at once", function()
    for _ = 1, 500 do assert(io.open(here)) end
    local held = {}
    local file, why
    repeat
      file, why = io.open(here)
      held[#held + 1] = file
    until file == nil
    assert.matches("files they may have open at once", why)
    for _, handle in ipairs(held) do handle:close() end
    assert.truthy(io.open(here))
  end)
end)

describe("term, for suites that colour their output", function()
  it("says no handle is a terminal, and refuses what is not a handle", function()
    local term = require "term"
    assert.is_false(term.isatty(io.stdout))
    assert.is_false(term.isatty(io.stdin))
    assert.has_error(function() term.isatty("stdout") end, "bad argument #1 to 'isatty' (FILE* expected, got string)")
    assert.is_nil(term.clear)
  end)
end)

describe("lfs, within the same bounds", function()
  it("answers attributes, lists directories and changes the temporary directory only", function()
    assert.equal("file", lfs.attributes(here, "mode"))
    assert.equal("directory", lfs.attributes(".").mode)
    local names = {}
    for name in lfs.dir("lua/spec") do names[name] = true end
    assert.is_true(names["files_spec.lua"])
    local scratch = os.tmpname() .. ".d"
    assert.is_true(lfs.mkdir(scratch))
    assert.is_true(lfs.touch(scratch .. "/made", 1000, 2000))
    assert.equal(2000, lfs.attributes(scratch .. "/made", "modification"))
    assert.is_nil(lfs.rmdir(scratch))
    assert.is_true(os.remove(scratch .. "/made"))
    assert.is_true(lfs.rmdir(scratch))
    local refused, why = lfs.mkdir("lua/spec/made")
    assert.is_nil(refused)
    assert.matches("outside the files specs may change", why)
    assert.is_nil(lfs.attributes("/etc/hostname"))
    assert.has_error(function() lfs.dir("/etc") end)
  end)
end)

describe("a required module", function()
  it("sees Lua's own assert, as busted's modules do, and the spec's other globals", function()
    local probe = require "lua.spec.modules.plain_assert"
    local ok, err = pcall(probe.check, false)
    assert.is_false(ok)
    -- A string, as Lua's assert raises, never luassert's failed assertion.
    assert.equal("string", type(err))
    assert.matches("not ok$", err)
    assert.equal(1, probe.check(1))
  end)

  it("loads again when package.loaded holds false for it, as Lua's require does", function()
    local name = "lua.spec.modules.plain_assert"
    local first = require(name)
    assert.equal(first, require(name))
    package.loaded[name] = false
    local again = require(name)
    assert.is_table(again)
    assert.is_function(again.check)
    assert.are_not.equal(first, again)
    assert.equal(again, package.loaded[name])
  end)
end)
