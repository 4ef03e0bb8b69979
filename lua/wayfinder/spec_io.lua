-- The files a spec file reaches (docs/testing.md, "Files, fixtures and installed modules"): an
-- `io` of Lua's own file handles that reads inside the project and the paths given on the command
-- line and writes files only in the run's temporary directory, `io.stdout`/`io.stderr` writing
-- where print goes, `os`
-- with `tmpname`, `remove` and `rename` within the same bounds, and a stand-in for LuaFileSystem.
-- The host judges every path (lua/wayfinder native spec_files); nothing here widens it. No
-- process is started: io.popen and os.execute say so.
local files = require "wayfinder.native.spec_files"

local raise = error
local spec_io = {}

local function refuse(what)
  return function()
    raise(what .. " is not available in spec files: specs start no processes", 2)
  end
end

-- Files: Lua's own file handles, over streams whose every read and write the host keeps within
-- the bounds (Sources/CLuaShim/SpecStreams.c). --------------------------------------------------

local wrap, io_type = files.handles()
local collectgarbage = collectgarbage

-- Opens `path` in `mode` (Lua's: r, w, a, each with + and b). When the run's specs hold all the
-- files they may have open, the handles no longer reachable are collected (which closes them)
-- before the open is tried again.
local function open(path, mode)
  if type(path) ~= "string" then raise("bad argument #1 to 'open' (string expected, got " .. type(path) .. ")", 3) end
  mode = mode or "r"
  if type(mode) ~= "string" or not mode:find("^[rwa]%+?b*$") then raise("bad argument #2 to 'open' (invalid mode)", 3) end
  local stream, why = files.open(path, mode)
  if not stream and files.at_open_limit() then
    collectgarbage()
    stream, why = files.open(path, mode)
  end
  if not stream then return nil, why, mode:find("^r[^+]*$") and 2 or 13 end
  return wrap(stream)
end

-- The standard streams: what a spec writes to stdout or stderr goes where print goes, a line at
-- a time (a line not yet ended waits for its end or the test's end); stdin reads nothing.
local stdin, stdout, stderr
do
  local input, output, error_output, make = files.standard_streams()
  stdin, stdout, stderr = make(input, output, error_output)
end

-- io. ----------------------------------------------------------------------------------------

local io = { stdin = stdin, stdout = stdout, stderr = stderr, type = io_type }
local default_input, default_output = stdin, stdout

function io.open(path, mode) return open(path, mode) end

-- As Lua's io.lines with a file name: the file closes when its lines end.
function io.lines(path, ...)
  if path == nil then return default_input:lines(...) end
  local file, why = open(path, "r")
  if not file then raise(why, 2) end
  local next_line = file:lines(...)
  return function()
    if io_type(file) ~= "file" then return nil end
    local answers = table.pack(next_line())
    if answers[1] == nil then file:close() end
    return table.unpack(answers, 1, answers.n)
  end, nil, nil, file
end

function io.read(...) return default_input:read(...) end
function io.write(...) return default_output:write(...) end

-- io.input and io.output: with nothing, the default file; with a name, that file opened in
-- `mode` (an error at the caller's line when it cannot be); with a file, that file.
local function default_file(mode, get, set)
  return function(value)
    if value == nil then return get() end
    if type(value) == "string" then
      local file, why = open(value, mode)
      if not file then raise(why, 2) end
      value = file
    elseif io_type(value) == nil then
      raise("bad argument #1 to '" .. (mode == "r" and "input" or "output") .. "' (FILE* expected, got " .. type(value) .. ")", 2)
    end
    set(value)
    return value
  end
end
io.input = default_file("r", function() return default_input end, function(file) default_input = file end)
io.output = default_file("w", function() return default_output end, function(file) default_output = file end)

function io.close(file)
  return (file or default_output):close()
end

function io.tmpfile()
  return open(files.tmpname(), "w+")
end

io.popen = refuse("io.popen")

spec_io.io = io

-- Hands on what stdout and stderr hold of a line not yet ended (the host calls it when a test ends).
function spec_io.flush()
  stdout:flush()
  stderr:flush()
  files.end_lines()
end

-- os: the sandbox's, with tmpname, remove and rename in the run's temporary directory. ---------

function spec_io.os(sandbox_os)
  local os = {}
  for name, value in pairs(sandbox_os) do os[name] = value end
  os.tmpname = function()
    local path, why = files.tmpname()
    if not path then raise(why, 2) end
    return path
  end
  os.remove = function(path) return files.remove(path) end
  os.rename = function(from, to) return files.rename(from, to) end
  os.execute = refuse("os.execute")
  return os
end

-- lfs: LuaFileSystem's functions a suite needs, within the same bounds. ------------------------

local lfs = { _VERSION = "LuaFileSystem 1.8.0 (Wayfinder's stand-in)" }

local function attributes(follow)
  return function(path, request)
    if type(path) ~= "string" then raise("bad argument #1 to 'attributes' (string expected, got " .. type(path) .. ")", 2) end
    local answer, why = files.attributes(path, follow)
    if not answer then return nil, why, 2 end
    if type(request) == "string" then
      if answer[request] == nil and request ~= "target" then raise("invalid attribute name '" .. request .. "'", 2) end
      return answer[request]
    end
    if type(request) == "table" then
      for key, value in pairs(answer) do request[key] = value end
      return request
    end
    return answer
  end
end

lfs.attributes = attributes(true)
lfs.symlinkattributes = attributes(false)

function lfs.currentdir() return files.currentdir() end

local dir_methods = {}
local dir_mt = { __index = dir_methods, __name = "directory metatable" }

function dir_methods.next(dir)
  if dir.closed then raise("calling 'next' on bad self (closed directory)", 2) end
  dir.index = dir.index + 1
  local name = dir.names[dir.index]
  if name == nil then dir.closed = true end
  return name
end

function dir_methods.close(dir) dir.closed = true; return true end

function lfs.dir(path)
  if type(path) ~= "string" then raise("bad argument #1 to 'dir' (string expected, got " .. type(path) .. ")", 2) end
  local names, why = files.list(path)
  if not names then raise("cannot open " .. path .. ": " .. why, 2) end
  local dir = setmetatable({ names = names, index = 0 }, dir_mt)
  return dir_methods.next, dir
end

local function changed(fn)
  return function(...)
    local ok, why = fn(...)
    if not ok then return nil, why, 1 end
    return true
  end
end

lfs.mkdir = changed(files.mkdir)
lfs.rmdir = changed(files.rmdir)
lfs.touch = changed(files.touch)

function lfs.chdir()
  return nil, "lfs.chdir is not available in spec files: every spec runs from the project's directory"
end

function lfs.link() return nil, "lfs.link is not available in spec files" end
function lfs.lock() return nil, "lfs.lock is not available in spec files" end
function lfs.unlock() return nil, "lfs.unlock is not available in spec files" end
function lfs.setmode() return true, "binary" end

spec_io.lfs = lfs

-- term: lua-term's isatty, false for every handle a spec has (none is a terminal), and its
-- colours when its pure-Lua part (term.colors) is installed; no terminal control.
function spec_io.term(require_module)
  local found, colors = pcall(require_module, "term.colors")
  return {
    isatty = function(file)
      if io_type(file) == nil then raise("bad argument #1 to 'isatty' (FILE* expected, got " .. type(file) .. ")", 2) end
      return false
    end,
    colors = found and colors or nil,
  }
end

return spec_io
