-- Specs written in Lua, with busted's vocabulary and rules (docs/testing.md):
-- describe (context, insulate, expose), it (test, spec), pending, before_each, after_each, setup
-- and teardown (strict_ and lazy_ alike), finally, randomize; assert, spy, stub, mock and match
-- are luassert's, loaded read-only from where its package put it. Loading a spec file runs its
-- top level; a describe body runs when the run reaches it. The host runs every step (a describe
-- body, a setup, a before_each, a test...) as its own call, so each has the time budget and an
-- error's traceback.
local native = require "wayfinder.native.spec"
local files = require "wayfinder.native.spec_files"
local spec_io = require "wayfinder.spec_io"
local shuffle = require "wayfinder.shuffle"

local spec = {}

local raise = error
local host_require = require
local lua_assert = assert

-- Blocks. ----------------------------------------------------------------------------------

local blocks = {}

-- The block whose body is running (nil while a hook or a test runs, where describe and it
-- are refused, as busted refuses them).
local current

-- The longest full name a test may have (its blocks' names and its own, joined by spaces, as
-- TAP and JUnit print it): refused at the line that names it, before the host reads any of it.
local max_full_name = 4096

-- The length of `name` joined to the full name of the block whose body is running.
local function full_length(name)
  if current == nil or current.name == nil then return #name end
  return current.full_length + 1 + #name
end

local function new_block(name, fn, mode)
  local block = {
    -- children: what the block's body registered, in order, hooks too (busted shuffles them
    -- all together, so a hook changes where the tests land).
    id = #blocks + 1, name = name, fn = fn, mode = mode, children = {}, parent = current,
    setup = {}, teardown = {}, lazy_setup = {}, lazy_teardown = {}, before_each = {}, after_each = {},
    full_length = name and full_length(name) or 0,
  }
  blocks[block.id] = block
  return block
end

local root = new_block(nil, nil, "insulate")
current = root
-- Whether a test body is running (true: pending() then marks the test pending) or its
-- finally ("finally": pending() is refused there, as busted refuses it).
local in_test = false
-- The function a running test gave to finally.
local finally_fn

-- `level` is the caller's, counted from the function that checks (3: the caller of a
-- registering function called by a curried one).
local function check_name(what, name, level)
  if type(name) ~= "string" then raise(what .. " needs a name (a string), got " .. type(name), (level or 2) + 1) end
  local length = full_length(name)
  if length > max_full_name then
    raise(what .. ": the full name is " .. length .. " bytes, more than " .. max_full_name
          .. " (its blocks' names and its own)", (level or 2) + 1)
  end
end

local function check_fn(what, fn, level)
  if type(fn) ~= "function" then raise(what .. " needs a function, got " .. type(fn), (level or 2) + 1) end
end

-- Outside a describe body (in a test or a hook) blocks and hooks are refused in busted's words.
local function check_place(what, level)
  if current == nil then
    raise("'" .. what .. "' not supported inside current context block", (level or 2) + 1)
  end
end

-- As busted's, every block and hook may be called curried, `describe "name" (function() end)`:
-- given a name and no function, it answers the function that takes the body.
-- A function alone is the body (a hook's usual call). `register` raises at level 3, its
-- caller's caller (never a tail call here, which would drop the frame it counts).
local function curried(register)
  return function(name, fn)
    if fn == nil and type(name) == "function" then
      name, fn = nil, name
    elseif fn == nil and type(name) == "string" then
      return function(body) register(name, body, 3) end
    end
    register(name, fn, 3)
  end
end

local function describer(mode, word)
  return curried(function(name, fn, level)
    check_place(word, level)
    check_name(word, name, level); check_fn(word, fn, level)
    local block = new_block(name, fn, mode)
    current.children[#current.children + 1] = { kind = "block", id = block.id, name = name }
  end)
end

spec.describe = describer("describe", "describe")
spec.context = describer("describe", "context")
spec.insulate = describer("insulate", "insulate")
spec.expose = describer("expose", "expose")

-- it(name, fn); it(name) alone answers the function taking the body (curried), so without one
-- there is no test at all (busted 2.1.1 neither runs nor counts it).
local function tester(word)
  return curried(function(name, fn, level)
    check_place(word, level)
    check_name(word, name, level)
    check_fn(word, fn, level)
    current.children[#current.children + 1] = { kind = "test", name = name, fn = fn }
  end)
end
spec.it = tester("it")
spec.test = tester("test")
spec.spec = tester("spec")

-- A failed assertion and pending() inside a test are raised as verdicts: tables whose text is
-- their whole message, marked for the host, which knows that very value again when the step ends
-- (by identity, never by its text) and counts the test failed or pending. A script that catches
-- one with pcall gets the table; tostring gives its text, as busted's failures do.
local verdict_mt = { __tostring = function(verdict) return verdict.message end }

-- A verdict of `kind` ("failure" or "pending") whose text is `message`, marked: the caller
-- raises it next, itself, so the verdict adds no frame to the stack its traceback shows.
local function verdict(kind, message)
  local raised = setmetatable({ message = message }, verdict_mt)
  native.raising(raised, kind)
  return raised
end

-- pending(name [, fn]) in a block declares a pending test; pending([message]) inside a test
-- stops it and marks it pending.
function spec.pending(name)
  if in_test == "finally" then raise("'pending' not supported inside current context block", 2) end
  if in_test then
    raise(verdict("pending", "pending" .. (name ~= nil and (": " .. tostring(name)) or "")), 0)
  end
  check_place("pending")
  check_name("pending", name)
  current.children[#current.children + 1] = { kind = "test", name = name, pending = true }
end

-- finally(fn) inside a test: fn (a function or a callable table, such as a spy) runs after the
-- test, whatever became of it. As in busted, `finally` is a global inside tests only.
function spec.finally(fn)
  local metatable = type(fn) == "table" and getmetatable(fn)
  if type(fn) ~= "function" and not (type(metatable) == "table" and metatable.__call ~= nil) then
    raise("finally needs a function or a callable table, got " .. type(fn), 2)
  end
  if not in_test then raise("'finally' not supported inside current context block", 2) end
  finally_fn = fn
end

-- As busted's: setup is strict_setup (run when the block starts, tests or none), lazy_setup
-- runs before the first test under the block that runs; their teardowns alike.
local hooks = {
  before_each = "before_each", after_each = "after_each",
  setup = "setup", strict_setup = "setup", lazy_setup = "lazy_setup",
  teardown = "teardown", strict_teardown = "teardown", lazy_teardown = "lazy_teardown",
}
-- A hook takes its function, or a name (which busted keeps for reports) and then the function.
for name, list_name in pairs(hooks) do
  spec[name] = curried(function(_, fn, level)
    check_place(name, level)
    check_fn(name, fn, level)
    local list = current[list_name]
    list[#list + 1] = fn
    current.children[#current.children + 1] = { kind = "hook" }
  end)
end

-- randomize([on | seed] [, seed]) in a block, as busted's: no argument or a true one shuffles the
-- block's tests and blocks, a false or nil one turns shuffling off (even under --shuffle); a
-- number among the first two arguments is the seed, else the block keeps the seed it had (the
-- run's --seed, else one fixed for the file and block, so a run can be repeated).
function spec.randomize(...)
  check_place("randomize")
  local arguments = table.pack(...)
  current.randomize = arguments.n == 0 or not not arguments[1]
  if current.randomize then
    current.seed = tonumber(arguments[1]) or tonumber(arguments[2]) or current.seed
  end
end


-- Raises a failure: `level` is relative to the caller of this function's caller, as for error.
-- A message that is not a string is raised as it is, an error like any other.
local function fail(message, level)
  if type(level) ~= "number" then level = 1 end
  if type(message) ~= "string" then raise(message, 0) end
  local text = message
  if level > 0 then
    local _, positioned = pcall(raise, message, level + 2)
    text = positioned
  end
  raise(verdict("failure", text), 0)
end

function spec.fail(message, level)
  fail(message, (type(level) == "number" and level or 1) + 1)
end

-- Modules: busted's rules. -----------------------------------------------------------------

local globals -- the spec file's environment, set by _install

-- package as specs use it: path searched from the working directory (busted's lpath before
-- Lua's ./?.lua), loaded and preload. A spec file has its own.
local package_table = {
  path = "./src/?.lua;./src/?/?.lua;./src/?/init.lua;./?.lua;./?/init.lua",
  cpath = "",
  config = "/\n;\n?\n!\n-\n",
  loaded = {},
  preload = {},
}
for _, name in ipairs { "string", "table", "math", "utf8", "coroutine", "os" } do
  package_table.loaded[name] = _G[name]
end
spec.package = package_table

local loading = {}

local function assertion_module(name, require_fn)
  local relative = name:gsub("%.", "/")
  local text, chunkname
  if relative:find("/", 1, true) then text, chunkname = native.assertion_source(relative .. ".lua") end
  if text == nil then text, chunkname = native.assertion_source(relative .. "/init.lua") end
  if text == nil then raise("module '" .. name .. "' not found among luassert's files", 3) end
  local env = spec._assertion_env(name, require_fn)
  local chunk, err = load(text, chunkname, "t", env)
  if not chunk then raise(err, 0) end
  return chunk(name)
end

-- As Lua's package.searchpath: every dot of the name becomes a slash, so no `..` is left in it
-- (cliargs' `require "../src.cliargs.core"` reads .///src/cliargs/core.lua); every path so made
-- is read only when its real path lies inside the working directory or a directory of
-- installed modules (the host's list: the system and luarocks trees, LUA_PATH, --lpath).
local function project_module(name)
  if not name:find("^[%w_%-%./]+$") then return nil end
  local file = name:gsub("%.", "/")
  local outside = {}
  for template in package_table.path:gmatch("[^;]+") do
    local path = template:gsub("%?", file)
    local text, why = files.module(path)
    if text then return text, path end
    if why == "outside" then
      outside[#outside + 1] = path
    elseif why then
      raise("module '" .. name .. "': " .. why, 0)
    end
  end
  return nil, outside
end

local busted_api

-- What a required module sees: the spec's globals (what it sets lands there), but Lua's own
-- assert, as busted's modules see _G and not luassert (a module's `assert(ok, "message")`
-- raises the message, never a failed assertion).
local module_env = setmetatable({ assert = lua_assert }, {
  __index = function(_, key) return globals[key] end,
  __newindex = function(_, key, value) globals[key] = value end,
})

-- loadfile and dofile for spec files, confined to the working directory as require is, and
-- text only as the sandbox's load is (apps have neither).
local function spec_loadfile(path, _, env)
  if type(path) ~= "string" then return nil, "loadfile needs a path (reading standard input is not available)" end
  local text, why = native.project_source(path)
  if not text then
    return nil, "cannot open " .. path .. (why == "outside" and " (outside the project directory)" or "")
  end
  return load(text, "@" .. path, "t", env or globals)
end

local function spec_dofile(path)
  local chunk, err = spec_loadfile(path)
  if not chunk then raise(err, 2) end
  return chunk()
end

local function spec_require(name)
  if type(name) ~= "string" then
    raise("bad argument #1 to 'require' (string expected, got " .. type(name) .. ")", 2)
  end
  -- As Lua's require: a false entry is no module, so the name loads again.
  local loaded = package_table.loaded[name]
  if loaded then return loaded end
  if loading[name] then raise("require loop: module '" .. name .. "' is already being loaded", 2) end
  -- Outside the pcall below, so the host's refusal of its native modules names the spec's line.
  if name:find("^wayfinder%.native") then return host_require(name) end
  loading[name] = true
  local missing
  local ok, value = pcall(function()
    local preload = package_table.preload[name]
    if preload ~= nil then return preload(name, ":preload:") end
    if name == "busted" then return busted_api end
    if name == "luassert" or name:find("^luassert%.") or name == "say" then return assertion_module(name, spec_require) end
    if name == "wayfinder" or name:find("^wayfinder%.") then return host_require(name) end
    if name == "lfs" then return spec_io.lfs end
    if name == "term" then return spec_io.term(spec_require) end
    local text, path = project_module(name)
    if text then
      local chunk, err = load(text, "@" .. path, "t", module_env)
      if not chunk then raise(err, 0) end
      return chunk(name, path)
    end
    -- Not on package.path: beside the spec file, where app scripts find their modules.
    local found, module = pcall(host_require, name)
    if found then return module end
    if native.not_found(module) == name then
      local c_module = files.c_module(name)
      if c_module then
        missing = "module '" .. name .. "' is a C module (" .. c_module .. "): spec files load only modules written in Lua"
        return nil
      end
      local outside = type(path) == "table" and path or {}
      local searched = package_table.path:gsub("%?", (name:gsub("%.", "/")))
      missing = "module '" .. name .. "' not found: not on package.path (" .. searched .. ") from the working directory, "
        .. "nor beside the spec file" .. (#outside > 0 and (" (outside the project, not searched: " .. table.concat(outside, ", ") .. ")") or "")
      return nil
    end
    raise(module, 0)
  end)
  loading[name] = nil
  if not ok then raise(value, 0) end
  if missing then raise(missing, 2) end
  if value == nil then value = package_table.loaded[name] end
  if value == nil then value = true end
  package_table.loaded[name] = value
  return value
end

-- What luassert's files see beside the spec's globals: stand-ins for the little of debug, io
-- and package they read. None reaches past the sandbox: getinfo answers source and line only,
-- setmetatable takes tables only (refusing __gc as the sandbox's does), io answers that
-- nothing is a file (so luassert never colours its output), getmetatable respects
-- __metatable as the sandbox's does.
local debug_standin = {
  getinfo = function(what)
    if type(what) == "number" then
      local info = native.getinfo(what + 1)
      return info
    end
    return native.getinfo(what)
  end,
  -- A protected metatable (__metatable set) stays hidden: luassert then sees none.
  getmetatable = function(value)
    local metatable = getmetatable(value)
    if type(metatable) ~= "table" then return nil end
    return metatable
  end,
  setmetatable = function(value, metatable)
    if type(value) ~= "table" then raise("debug.setmetatable is available for tables only", 2) end
    return setmetatable(value, metatable)
  end,
  traceback = function(message) return message end,
}
-- debug for spec files: the parts tests use, none reaching past the sandbox. getinfo answers a
-- frame's source, lines, kind and name (never its function, locals or upvalues); traceback is
-- made from those (a tail call's frame is gone, as Lua's own shows `(...tail calls...)`);
-- getmetatable answers what getmetatable does (a protected metatable stays
-- hidden). sethook is refused: the time budget's hook is the host's. Apps have no debug at all.
local function frame_line(info)
  local place = info.what == "C" and "[C]" or (info.short_src .. ":" .. info.currentline)
  local role
  if info.what == "main" then
    role = "main chunk"
  elseif info.name and info.namewhat ~= "" then
    role = (info.namewhat == "global" and "function" or info.namewhat) .. " '" .. info.name .. "'"
  elseif info.what == "C" then
    role = "?"
  else
    role = "function <" .. info.short_src .. ":" .. info.linedefined .. ">"
  end
  return "\t" .. place .. ": in " .. role
end

local function spec_traceback(message, level)
  if type(message) == "thread" then raise("debug.traceback is not available for other coroutines in spec files", 2) end
  if message ~= nil and type(message) ~= "string" and type(message) ~= "number" then return message end
  local lines = {}
  if message ~= nil then lines[1] = tostring(message) end
  lines[#lines + 1] = "stack traceback:"
  level = math.type(level) == "integer" and level or 1
  local depth = level + 1
  while true do
    local info = native.getinfo(depth)
    if not info then break end
    lines[#lines + 1] = frame_line(info)
    depth = depth + 1
  end
  return table.concat(lines, "\n")
end

local spec_debug = {
  -- The host's own, called directly, so level 1 is its caller's frame even from a tail call.
  getinfo = native.getinfo,
  traceback = spec_traceback,
  getmetatable = function(value)
    local metatable = getmetatable(value)
    if type(metatable) ~= "table" then return nil end
    return metatable
  end,
  sethook = function()
    raise("debug.sethook is not available in spec files: the time budget's hook is the host's", 2)
  end,
}

local io_standin = { type = function() return nil end, stdout = {} }
local package_standin = { config = package_table.config }

function spec._assertion_env(name, require_fn)
  local env = { debug = debug_standin, io = io_standin, package = package_standin, require = require_fn }
  -- luassert's assert module raises its failures with error; there they are failures.
  if name == "luassert.assert" then env.error = fail end
  return setmetatable(env, { __index = globals or _G })
end

-- Globals as busted keeps them. The spec file's chunk (and so every function it makes) reads and
-- writes its globals through one table, `file_env`, which answers for the step running: each
-- block (the file, a describe body) and each test has a table of its own, whose lookups fall back
-- to the block above it and then to the state's globals (`_G`, the one table all share). A bare
-- `name = v` lands in the running block's table and is gone for the blocks after it; a hook's
-- lands in the table of the block that declared it; an expose's in the table of the block above
-- the one holding it (so it outlives that one, even an insulate). `_G.name = v` lands in `_G`
-- and stays until an enclosing insulate ends, which puts back `_G`, its metatable (Penlight's
-- `require "pl"` gives it one that loads its modules on first use) and package.loaded.
local function new_env(parent, forward)
  return { vars = {}, parent = parent, forward = forward }
end

-- The table above the file's: busted's suite, where an expose at the file's top level lands.
local suite_env = new_env(nil)
blocks[1].env = new_env(suite_env)

-- The environment of the step running.
local running = blocks[1].env

local function lookup(_, key)
  local env = running
  while env do
    local value = rawget(env.vars, key)
    if value ~= nil then return value end
    env = env.parent
  end
  return globals[key]
end

local function assign(_, key, value)
  local env = running
  while env.forward do env = env.forward end
  env.vars[key] = value
end

local file_env = setmetatable({}, { __index = lookup, __newindex = assign })

local function copy(source)
  local saved = {}
  for key, value in pairs(source) do saved[key] = value end
  return saved
end

local function put_back(target, saved)
  for key in pairs(target) do if saved[key] == nil then target[key] = nil end end
  for key, value in pairs(saved) do target[key] = value end
end

local function snapshot()
  return { globals = copy(globals), loaded = copy(package_table.loaded), metatable = getmetatable(globals) }
end

local function restore(saved)
  if getmetatable(globals) ~= saved.metatable then pcall(setmetatable, globals, saved.metatable) end
  put_back(globals, saved.globals)
  put_back(package_table.loaded, saved.loaded)
end

-- A variable of its own for a function whose environment is rebound, so the functions that
-- shared its _ENV keep theirs.
local function fresh_variable()
  local variable = false
  return function() return variable end
end

-- The environments the spec's own functions have: the file's, its modules', and those bindfenv
-- made; only such functions may be rebound (never the runner's, luassert's or the host's).
local spec_envs = setmetatable({ [file_env] = true, [module_env] = true }, { __mode = "k" })

-- busted's bindfenv(fn, name, value): fn (or a callable table's __call) then sees `name` as
-- value, its other globals as before.
local function bindfenv(callable, name, value)
  local metatable = type(callable) == "table" and getmetatable(callable)
  local fn = type(metatable) == "table" and metatable.__call or callable
  if type(fn) ~= "function" then
    raise("bad argument #1 to 'bindfenv' (function or callable table expected, got " .. type(callable) .. ")", 2)
  end
  if name == nil or name ~= name then raise("bad argument #2 to 'bindfenv' (a name expected, got " .. tostring(name) .. ")", 2) end
  local ok, env = native.env_of(fn)
  if ok and env == nil then return end
  if not ok or not spec_envs[env] then
    raise("bindfenv rebinds the spec's own functions only (those of the spec file and the modules it requires), not "
          .. (ok and "the runner's or luassert's" or "a host function"), 2)
  end
  local bound = setmetatable({ [name] = value }, { __index = env })
  spec_envs[bound] = true
  native.bind_env(fn, bound, fresh_variable())
end

-- require "busted": what busted's module exports. ------------------------------------------

-- Channels of messages, as busted's publish and subscribe carry them: a channel is a list of
-- names ({ "test", "end" }); a message goes to the channel's subscribers in order (a priority
-- puts one earlier), then to those of the channels above it ({ "test" }, then all), and stops
-- after a subscriber that does not answer a true second value. The runner's own events (a test's
-- start and end) are not published: only what the spec publishes.
local channels = { subscribers = {}, below = {} }
local subscriber_count = 0

local function channel_of(names)
  if type(names) == "string" then names = { names } end
  if type(names) ~= "table" then raise("a channel is a list of names, got " .. type(names), 3) end
  local channel = channels
  local path = { channel }
  for _, name in ipairs(names) do
    channel.below[name] = channel.below[name] or { subscribers = {}, below = {} }
    channel = channel.below[name]
    path[#path + 1] = channel
  end
  return channel, path
end

local function subscribe(names, fn, options)
  local channel = channel_of(names)
  options = type(options) == "table" and options or {}
  subscriber_count = subscriber_count + 1
  local subscriber = { id = subscriber_count, fn = fn, options = options, channel = names }
  local place = #channel.subscribers + 1
  if math.type(options.priority) == "integer" and options.priority >= 1 and options.priority < place then place = options.priority end
  table.insert(channel.subscribers, place, subscriber)
  return subscriber
end

local function unsubscribe(id, names)
  if type(id) == "table" then id = id.id end
  local channel = channel_of(names)
  for index, subscriber in ipairs(channel.subscribers) do
    if subscriber.id == id then return table.remove(channel.subscribers, index) end
  end
end

local function publish(names, ...)
  local _, path = channel_of(names)
  local answers = {}
  for level = #path, 1, -1 do
    for _, subscriber in ipairs(path[level].subscribers) do
      local predicate = subscriber.options.predicate
      if not predicate or predicate(...) then
        local value, continue = subscriber.fn(...)
        if value then answers[#answers + 1] = value end
        if not continue then return answers end
      end
    end
  end
  return answers
end

-- Time as specs may read it: gettime is os.time's (whole seconds), monotime the CPU time
-- (os.clock) and sleep waits that long in CPU time, within the step's budget (a spec cannot block).
local clock = os.clock
local function sleep(seconds)
  if type(seconds) ~= "number" then raise("bad argument #1 to 'sleep' (number expected, got " .. type(seconds) .. ")", 2) end
  local deadline = clock() + seconds
  repeat until clock() >= deadline
end

local exported = {
  publish = publish, subscribe = subscribe, unsubscribe = unsubscribe,
  gettime = function() return os.time() end, monotime = clock, sleep = sleep,
  bindfenv = bindfenv, version = "2.1.1",
}

-- What the host calls. ---------------------------------------------------------------------

-- Runs a describe body: records its blocks, tests and hooks. It runs in an environment of its
-- own; an expose's writes go to the block above its holder's (busted's suite above the file).
function spec._expand(id)
  local block = blocks[id]
  local holder = block.parent
  local forward = block.mode == "expose" and (holder.parent and holder.parent.env or suite_env) or nil
  block.env = new_env(holder.env, forward)
  if block.mode == "insulate" then block.saved = snapshot() end
  running = block.env
  current = block
  block.fn()
  current = nil
end

-- A hook of block `id` runs next: what it sets lands in that block's environment.
function spec._enter(id)
  running = blocks[id].env
end

-- A block's contents: { children, setup, teardown, lazy_setup, lazy_teardown, before_each, after_each }, its children in
-- the order they run: shuffled when the block called randomize, or when the run shuffles
-- (`run_seed`) and the block did not turn it off.
function spec._block(id, run_seed, fallback_seed)
  current = nil
  local block = blocks[id]
  local order = table.move(block.children, 1, #block.children, 1, {})
  local shuffled = block.randomize
  if shuffled == nil then shuffled = run_seed ~= nil end
  if shuffled then shuffle(order, block.seed or run_seed or fallback_seed) end
  local children = {}
  for _, child in ipairs(order) do
    if child.kind ~= "hook" then children[#children + 1] = child end
  end
  return {
    children = children, setup = block.setup, teardown = block.teardown, lazy_setup = block.lazy_setup,
    lazy_teardown = block.lazy_teardown, before_each = block.before_each, after_each = block.after_each,
  }
end

-- The end of a block's run: an insulate puts back _G and package.loaded. What an expose changed
-- there outlives the block holding it, as in busted: an insulate holding it then puts back what
-- was there when the expose ended, not when it began; the insulate above puts back the rest.
function spec._leave(id)
  local block = blocks[id]
  if block.saved then restore(block.saved); block.saved = nil end
  local holder = block.parent
  if block.mode == "expose" and holder and holder.saved then holder.saved = snapshot() end
end

-- A test of block `id` runs next (the host calls this so pending() and finally know a test runs):
-- it has an environment of its own, gone when it ends, where `finally` is a global.
function spec._begin_test(id)
  running = new_env(blocks[id].env)
  running.vars.finally = spec.finally
  in_test = true
  finally_fn = nil
end

-- The function the test gave to finally, if any; ends the test.
function spec._end_test()
  local fn = finally_fn
  finally_fn = nil
  in_test = "finally"
  -- The host calls functions; a callable table is called through one.
  if type(fn) == "table" then return function() return fn() end end
  return fn
end

function spec._after_test()
  spec_io.flush()
  in_test = false
end

-- Whether a test's full name matches a --filter pattern (Lua's, as busted's).
function spec._matches(name, pattern)
  return string.find(name, pattern) ~= nil
end

-- Makes the vocabulary global, as busted does, with luassert's assert, spy, stub, mock and match;
-- answers the function the host hands the spec file's chunk before running it.
function spec._install(env, path)
  globals = env
  if type(path) == "string" then package_table.path = path end
  package_table.path = package_table.path .. ";" .. files.library_path()
  require("wayfinder").testing = require "wayfinder.testing"
  local api = {}
  for _, name in ipairs { "describe", "context", "insulate", "expose", "it", "test", "spec", "pending",
                          "before_each", "after_each", "setup", "teardown", "strict_setup", "strict_teardown",
                          "lazy_setup", "lazy_teardown", "randomize" } do
    env[name] = spec[name]
    api[name] = spec[name]
  end
  -- As busted's: fail(message [, level]) raises a failure; it is not a global there either.
  api.fail = spec.fail
  local luassert = spec_require "luassert"
  for _, name in ipairs { "spy", "stub", "mock", "match" } do
    api[name] = spec_require("luassert." .. name)
    env[name] = api[name]
  end
  api.assert = luassert
  env.assert = luassert
  for name, value in pairs(exported) do api[name] = value end
  -- As busted's module, read-only.
  busted_api = setmetatable({}, {
    __index = api,
    __newindex = function() raise("Attempt to modify busted", 2) end,
    __metatable = false,
  })
  env.require = spec_require
  env.debug = spec_debug
  env.loadfile = spec_loadfile
  env.dofile = spec_dofile
  env.package = package_table
  env.io = spec_io.io
  env.os = spec_io.os(os)
  package_table.loaded.io = env.io
  package_table.loaded.os = env.os
  package_table.loaded.debug = spec_debug
  -- As a script run by the lua interpreter (busted's own runner) has it: the program's name.
  env.arg = { [0] = "wayfinder" }
  package_table.loaded._G = env
  package_table.loaded.wayfinder = require "wayfinder"
  -- The spec file's chunk reads and writes its globals through file_env.
  return function(chunk) native.bind_env(chunk, file_env, fresh_variable()) end
end

return spec
