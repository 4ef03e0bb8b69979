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
    assert.equal(3, count)
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
