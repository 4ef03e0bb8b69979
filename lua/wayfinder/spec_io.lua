-- The files a spec file reaches (docs/testing.md, "Files, fixtures and installed modules"): an
-- `io` that reads inside the project and the paths given on the command line and writes files
-- only in the run's temporary directory, `io.stdout`/`io.stderr` writing where print goes, `os`
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

-- Files. -------------------------------------------------------------------------------------

local file_methods = {}
local file_mt = {
  __index = file_methods,
  __name = "FILE*",
  __tostring = function(file) return file.closed and "file (closed)" or ("file (" .. file.path .. ")") end,
}

local function is_file(value) return getmetatable(value) == file_mt end

local function checked(file, what)
  if not is_file(file) then raise("bad argument #1 to '" .. what .. "' (FILE* expected, got " .. type(file) .. ")", 3) end
  if file.closed then raise("attempt to use a closed file", 3) end
  return file
end

-- Opens `path` in `mode` (Lua's: r, w, a, each with + and b): a read reads the whole file now,
-- within the host's limits; a write goes to the file at once.
local function open(path, mode)
  if type(path) ~= "string" then raise("bad argument #1 to 'open' (string expected, got " .. type(path) .. ")", 3) end
  mode = mode or "r"
  if type(mode) ~= "string" or not mode:find("^[rwa]%+?b*$") then raise("bad argument #2 to 'open' (invalid mode)", 3) end
  local kind, update = mode:sub(1, 1), mode:find("+", 1, true) ~= nil
  local file = { path = path, mode = kind, readable = kind == "r" or update, writable = kind ~= "r" or update, pos = 0 }
  if kind == "r" then
    local data, why = files.read(path)
    if not data then return nil, why, 2 end
    if update then
      local ok, refused = files.write(path, "", true)
      if not ok then return nil, refused, 13 end
    end
    file.data = data
  else
    local ok, why = files.write(path, "", kind == "a")
    if not ok then return nil, why, 13 end
    file.data = kind == "a" and (files.read(path) or "") or ""
    if kind == "a" then file.pos = #file.data end
  end
  return setmetatable(file, file_mt)
end

local function read_number(file)
  local rest = file.data:sub(file.pos + 1)
  local skipped, text = rest:match("^(%s*)([%+%-]?[%x%.xXpP%+%-]*)")
  local value
  -- The longest prefix that is a numeral, as the C reader takes it.
  for length = math.min(#text, 200), 1, -1 do
    value = tonumber(text:sub(1, length))
    if value then
      file.pos = file.pos + #skipped + length
      return value
    end
  end
  file.pos = file.pos + #skipped
  return nil
end

local function read_one(file, format)
  local data = file.data
  if math.type(format) == "integer" or (type(format) == "number" and format == math.floor(format)) then
    if file.pos >= #data and format > 0 then return nil end
    if format == 0 then return file.pos < #data and "" or nil end
    local chunk = data:sub(file.pos + 1, file.pos + format)
    file.pos = file.pos + #chunk
    return chunk
  end
  if type(format) ~= "string" then raise("bad argument #1 to 'read' (invalid format)", 4) end
  local letter = format:gsub("^%*", ""):sub(1, 1)
  if letter == "a" then
    local chunk = data:sub(file.pos + 1)
    file.pos = #data
    return chunk
  elseif letter == "l" or letter == "L" then
    if file.pos >= #data then return nil end
    local stop = data:find("\n", file.pos + 1, true)
    local line = data:sub(file.pos + 1, stop and (letter == "L" and stop or stop - 1) or #data)
    file.pos = stop or #data
    return line
  elseif letter == "n" then
    return read_number(file)
  end
  raise("bad argument #1 to 'read' (invalid format)", 4)
end

local function read(file, ...)
  if not file.readable then return nil, "Bad file descriptor", 9 end
  local formats = table.pack(...)
  if formats.n == 0 then return read_one(file, "l") end
  local answers = {}
  for index = 1, formats.n do
    answers[index] = read_one(file, formats[index])
    if answers[index] == nil then return table.unpack(answers, 1, index) end
  end
  return table.unpack(answers, 1, formats.n)
end

function file_methods.read(file, ...)
  return read(checked(file, "read"), ...)
end

function file_methods.lines(file, ...)
  checked(file, "lines")
  local formats = table.pack(...)
  return function()
    if file.closed then raise("file is already closed", 2) end
    return read(file, table.unpack(formats, 1, formats.n))
  end
end

function file_methods.write(file, ...)
  checked(file, "write")
  if not file.writable then return nil, "Bad file descriptor", 9 end
  for index = 1, select("#", ...) do
    local value = select(index, ...)
    if type(value) == "number" then value = tostring(value) end
    if type(value) ~= "string" then
      raise("bad argument #" .. index .. " to 'write' (string expected, got " .. type(value) .. ")", 2)
    end
    local data = file.data
    if file.mode == "a" then file.pos = #data end
    local ok, why
    if file.pos >= #data then
      file.data = data .. value
      ok, why = files.write(file.path, value, true)
    else
      file.data = data:sub(1, file.pos) .. value .. data:sub(file.pos + #value + 1)
      ok, why = files.write(file.path, file.data, false)
    end
    if not ok then return nil, why end
    file.pos = file.pos + #value
  end
  return file
end

function file_methods.seek(file, whence, offset)
  checked(file, "seek")
  whence, offset = whence or "cur", offset or 0
  local base = ({ set = 0, cur = file.pos, ["end"] = #file.data })[whence]
  if base == nil then raise("bad argument #1 to 'seek' (invalid option '" .. tostring(whence) .. "')", 2) end
  if math.type(offset) ~= "integer" then raise("bad argument #2 to 'seek' (number has no integer representation)", 2) end
  if base + offset < 0 then return nil, "Invalid argument", 22 end
  file.pos = base + offset
  return file.pos
end

function file_methods.close(file)
  checked(file, "close")
  file.closed = true
  file.data = nil
  return true
end

-- io.lines hands its file to the generic for as the value it closes.
file_mt.__close = function(file) file.closed = true; file.data = nil end

function file_methods.flush(file) checked(file, "flush"); return file end
function file_methods.setvbuf(file) checked(file, "setvbuf"); return true end

-- The standard streams: what a spec writes to stdout or stderr goes where print goes, a line at
-- a time (a line not yet ended waits for its end, a flush, or the test's end); stdin has nothing.
local stream_methods = {}
local stream_mt = { __index = stream_methods, __name = "FILE*" }

local function stream(name)
  return setmetatable({ name = name, pending = "" }, stream_mt)
end

local function flush_stream(s)
  if s.pending ~= "" then
    files.output(s.pending)
    s.pending = ""
  end
end

function stream_methods.write(s, ...)
  if s.name == "stdin" then return nil, "Bad file descriptor", 9 end
  for index = 1, select("#", ...) do
    local value = select(index, ...)
    if type(value) == "number" then value = tostring(value) end
    if type(value) ~= "string" then
      raise("bad argument #" .. index .. " to 'write' (string expected, got " .. type(value) .. ")", 2)
    end
    local text = s.pending .. value
    local last = 0
    for stop in text:gmatch("()\n") do last = stop end
    if last > 0 then files.output(text:sub(1, last - 1)) end
    s.pending = text:sub(last + 1)
  end
  return s
end

function stream_methods.read()
  return nil, "standard input is not available to spec files"
end

function stream_methods.lines()
  raise("standard input is not available to spec files", 2)
end

function stream_methods.flush(s) flush_stream(s); return s end
function stream_methods.close() return nil, "cannot close standard file" end
function stream_methods.setvbuf() return true end
function stream_methods.seek() return nil, "Illegal seek", 29 end
stream_mt.__tostring = function(s) return "file (" .. s.name .. ")" end

local stdin, stdout, stderr = stream("stdin"), stream("stdout"), stream("stderr")

-- io. ----------------------------------------------------------------------------------------

local io = { stdin = stdin, stdout = stdout, stderr = stderr }
local default_input, default_output = stdin, stdout

function io.open(path, mode) return open(path, mode) end

function io.type(value)
  if getmetatable(value) == stream_mt then return "file" end
  if is_file(value) then return value.closed and "closed file" or "file" end
  return nil
end

function io.lines(path, ...)
  if path == nil then return default_input:lines(...) end
  local file, why = open(path, "r")
  if not file then raise(why, 2) end
  local formats = table.pack(...)
  return function()
    if file.closed then return nil end
    local line = read(file, table.unpack(formats, 1, formats.n))
    if line == nil then file:close() end
    return line
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

-- Flushes what stdout and stderr hold of a line not yet ended (the host calls it when a test ends).
function spec_io.flush()
  flush_stream(stdout)
  flush_stream(stderr)
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

return spec_io
