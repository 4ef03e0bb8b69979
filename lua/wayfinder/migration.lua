-- Migrations of a saved navigation state (docs/persistence.md, "Versions and migrations"). The
-- host hands over the saved document, whose parts refer to each other by position (an entry's
-- context is an index into a list of contexts); the app's `migrate(state, from)` sees the tree by
-- name instead: every entry a table of named fields, every context a table shared by the entries
-- and layers that use it, and the open a guard keeps waiting as `pending`. What migrate returns is checked here, naming the path of the first
-- part that does not fit, and turned back into a document for the host.
local migration = {}

-- The app's migrate function, set by wf.app.
local migrate

function migration._set(fn)
  migrate = fn
end

-- Raised with no position: the host names the migrate function's own file:line.
local function fail(path, message)
  error("the state it returned is not valid: " .. path .. " " .. message, 0)
end

-- The by-name tree of a document. ---------------------------------------------------------------

local function to_tree(document)
  local contexts = {}
  for i, saved in ipairs(document.contexts or {}) do
    local nils
    for _, key in ipairs(saved.nils or {}) do
      nils = nils or {}
      nils[key] = true
    end
    contexts[i] = {
      name = saved.name, fields = saved.fields, values = saved.values or {}, nils = nils,
      app = saved.app or nil, inner = saved.inner ~= nil and contexts[saved.inner + 1] or nil,
    }
  end
  local function entry(saved)
    return {
      url = saved.url, query = saved.query, state = saved.state, title = saved.title,
      important = saved.important or false, model = saved.model,
      context = saved.context ~= nil and contexts[saved.context + 1] or nil,
    }
  end
  local function stack(saved)
    local entries = {}
    for i, item in ipairs(saved or {}) do entries[i] = entry(item) end
    return entries
  end
  local tree = {
    app = document.app, saved_at = document.saved_at, mode = document.mode, modals = {},
    popover = document.popover and entry(document.popover) or nil,
  }
  local pending = document.pending
  if pending ~= nil then
    tree.pending = {
      url = pending.url, query = pending.query, parent = pending.parent, state = pending.state,
      presentation = pending.presentation, link = pending.link or false, since = pending.since,
    }
  end
  local root = document.root
  if root.kind == "tabs" then
    tree.tabs = {}
    for i, tab in ipairs(root.tabs) do tree.tabs[i] = stack(tab) end
    tree.selected = root.selected
  else
    tree.stack = stack(root.entries)
  end
  for i, modal in ipairs(document.modals or {}) do tree.modals[i] = stack(modal) end
  return tree
end

-- Back to a document. ---------------------------------------------------------------------------

local entry_fields = { url = true, query = true, state = true, title = true, important = true, model = true, context = true }
local context_fields = { name = true, fields = true, values = true, nils = true, app = true, inner = true }
local pending_fields = { url = true, query = true, parent = true, state = true, presentation = true, link = true, since = true }
local tree_fields = {
  app = true, saved_at = true, mode = true, stack = true, tabs = true, selected = true, modals = true, popover = true, pending = true,
}

local function check_fields(value, known, path)
  for key in pairs(value) do
    if not known[key] then fail(path, "has an unknown field '" .. tostring(key) .. "'") end
  end
end

-- The most tables a value may nest, as the host takes a value from a script (docs/sandbox.md).
local MAXIMUM_DEPTH = 100

-- Plain data only (what the state file can hold): no functions, no tables with metatables, no
-- infinities, no keys but strings and list indexes, no table inside itself, and tables nested
-- at most MAXIMUM_DEPTH deep (which also bounds this function's own recursion).
local function check_plain(value, path, seen, depth)
  depth = depth or 0
  local kind = type(value)
  if kind == "number" then
    if value ~= value or value == math.huge or value == -math.huge then fail(path, "is " .. tostring(value) .. ", which a state file cannot hold") end
  elseif kind == "table" then
    if getmetatable(value) ~= nil then fail(path, "is a table with a metatable, not plain data") end
    if seen[value] then fail(path, "contains itself") end
    if depth >= MAXIMUM_DEPTH then fail(path, "is a table nested more than " .. MAXIMUM_DEPTH .. " levels deep") end
    seen[value] = true
    for key, item in pairs(value) do
      if type(key) ~= "string" and math.type(key) ~= "integer" then fail(path, "has a key of type " .. type(key)) end
      check_plain(item, path .. "." .. tostring(key), seen, depth + 1)
    end
    seen[value] = nil
  elseif kind ~= "string" and kind ~= "boolean" then
    fail(path, "is a " .. kind .. ", not plain data")
  end
end

local function optional(value, kind, path)
  if value ~= nil and type(value) ~= kind then fail(path, "must be a " .. kind .. ", got " .. type(value)) end
end

local function to_document(tree)
  if type(tree) ~= "table" then
    error("it returned " .. (tree == nil and "nothing" or "a " .. type(tree)) .. ", not the state table (migrate returns the state)", 0)
  end
  check_fields(tree, tree_fields, "the state")
  local contexts, index = {}, {}

  -- One context table checked and turned into its document form (its inner one's index is
  -- set once that one has its place).
  local function checked_context(ctx, path)
    check_fields(ctx, context_fields, path)
    optional(ctx.name, "string", path .. ".name")
    optional(ctx.fields, "table", path .. ".fields")
    optional(ctx.values, "table", path .. ".values")
    optional(ctx.nils, "table", path .. ".nils")
    optional(ctx.app, "boolean", path .. ".app")
    for key, value in pairs(ctx.values or {}) do
      if type(key) ~= "string" then fail(path .. ".values", "has a key of type " .. type(key)) end
      check_plain(value, path .. ".values." .. key, {})
    end
    for key, kind in pairs(ctx.fields or {}) do
      if type(key) ~= "string" or type(kind) ~= "string" then fail(path .. ".fields", "must map field names to type names") end
    end
    local nils = {}
    for key, set in pairs(ctx.nils or {}) do
      if type(key) ~= "string" or set ~= true then fail(path .. ".nils", "must map keys to true") end
      nils[#nils + 1] = key
    end
    table.sort(nils)
    local values = ctx.values
    if values ~= nil and next(values) == nil then values = nil end
    local fields = ctx.fields
    if fields ~= nil and next(fields) == nil then fields = nil end
    return {
      name = ctx.name, fields = fields, values = values, nils = #nils > 0 and nils or nil,
      app = ctx.app or nil,
    }
  end

  -- The path of the layer `levels` inward from the one at `path`: spelled out near the top,
  -- counted further in (a chain may be as long as the script made it).
  local function inner_path(path, levels)
    if levels <= 8 then return path .. string.rep(".inner", levels) end
    return path .. ".inner (" .. levels .. " layers in)"
  end

  -- Contexts in the order the document needs (each after the one it chains to), one per table.
  -- The chain is walked in a loop, as long as the script made it.
  local function context(ctx, path)
    local chain, made, on_chain = {}, {}, {}
    local layer = ctx
    while layer ~= nil and index[layer] == nil do
      local at = #chain
      if type(layer) ~= "table" then fail(inner_path(path, at), "must be a context table, got " .. type(layer)) end
      if on_chain[layer] then fail(inner_path(path, at), "chains back to itself") end
      on_chain[layer] = true
      chain[at + 1] = layer
      made[at + 1] = checked_context(layer, inner_path(path, at))
      layer = layer.inner
    end
    for level = #chain, 1, -1 do
      local inner = chain[level].inner
      made[level].inner = inner ~= nil and index[inner] or nil
      contexts[#contexts + 1] = made[level]
      index[chain[level]] = #contexts - 1
    end
    return index[ctx]
  end

  local function entry(item, path)
    if type(item) ~= "table" then fail(path, "must be an entry table, got " .. type(item)) end
    check_fields(item, entry_fields, path)
    if type(item.url) ~= "string" then fail(path .. ".url", "must be a string, got " .. type(item.url)) end
    optional(item.query, "table", path .. ".query")
    optional(item.title, "string", path .. ".title")
    optional(item.important, "boolean", path .. ".important")
    optional(item.model, "table", path .. ".model")
    if item.query ~= nil then
      for key in pairs(item.query) do
        if type(key) ~= "string" then fail(path .. ".query", "has a key of type " .. type(key)) end
      end
      check_plain(item.query, path .. ".query", {})
    end
    if item.state ~= nil then check_plain(item.state, path .. ".state", {}) end
    if item.model ~= nil then
      check_fields(item.model, { selected = true, anchor = true }, path .. ".model")
      check_plain(item.model, path .. ".model", {})
    end
    local query = item.query
    if query ~= nil and next(query) == nil then query = nil end
    return {
      url = item.url, query = query, state = item.state, title = item.title,
      important = item.important or nil, model = item.model,
      context = item.context ~= nil and context(item.context, path .. ".context") or nil,
    }
  end

  -- The open a guard keeps waiting: its presentation's name and its time's form are the host's
  -- to check, as when the state file is read.
  local function pending(item)
    if type(item) ~= "table" then fail("pending", "must be a table, got " .. type(item)) end
    check_fields(item, pending_fields, "pending")
    if type(item.url) ~= "string" then fail("pending.url", "must be a string, got " .. type(item.url)) end
    optional(item.query, "table", "pending.query")
    optional(item.parent, "string", "pending.parent")
    optional(item.presentation, "string", "pending.presentation")
    optional(item.link, "boolean", "pending.link")
    if type(item.since) ~= "string" then fail("pending.since", "must be a string, got " .. type(item.since)) end
    if item.query ~= nil then
      for key in pairs(item.query) do
        if type(key) ~= "string" then fail("pending.query", "has a key of type " .. type(key)) end
      end
      check_plain(item.query, "pending.query", {})
    end
    if item.state ~= nil then check_plain(item.state, "pending.state", {}) end
    local query = item.query
    if query ~= nil and next(query) == nil then query = nil end
    return {
      url = item.url, query = query, parent = item.parent, state = item.state, presentation = item.presentation,
      link = item.link or nil, since = item.since,
    }
  end

  local function stack(list, path)
    if type(list) ~= "table" then fail(path, "must be a list of entries, got " .. type(list)) end
    local entries = {}
    for key in pairs(list) do
      if math.type(key) ~= "integer" or key < 1 or key > #list then fail(path, "must be a list of entries (key " .. tostring(key) .. ")") end
    end
    for i, item in ipairs(list) do entries[i] = entry(item, path .. "[" .. i .. "]") end
    return entries
  end

  local document = {}
  if tree.tabs ~= nil and tree.stack ~= nil then fail("the state", "has both stack and tabs; it must have one") end
  if tree.tabs ~= nil then
    if type(tree.tabs) ~= "table" then fail("tabs", "must be a list of stacks, got " .. type(tree.tabs)) end
    local tabs = {}
    for i = 1, #tree.tabs do tabs[i] = stack(tree.tabs[i], "tabs[" .. i .. "]") end
    if #tabs == 0 then fail("tabs", "is empty; a state with tabs has at least one") end
    local selected = tree.selected == nil and 1 or tree.selected
    if math.type(selected) ~= "integer" or selected < 1 or selected > #tabs then
      fail("selected", "must be a tab number from 1 to " .. #tabs .. ", got " .. tostring(selected))
    end
    document.root = { kind = "tabs", tabs = tabs, selected = selected }
  else
    if tree.selected ~= nil then fail("selected", "is only for tabs") end
    document.root = { kind = "stack", entries = stack(tree.stack or {}, "stack") }
  end
  local modals = {}
  if tree.modals ~= nil then
    if type(tree.modals) ~= "table" then fail("modals", "must be a list of stacks, got " .. type(tree.modals)) end
    for i = 1, #tree.modals do modals[i] = stack(tree.modals[i], "modals[" .. i .. "]") end
  end
  document.modals = modals
  if tree.popover ~= nil then document.popover = entry(tree.popover, "popover") end
  if tree.pending ~= nil then document.pending = pending(tree.pending) end
  document.contexts = contexts
  return document
end

-- What the host calls: the document migrated from version `from` to `to`, or an error.
function migration._run(document, from, to)
  local tree = to_tree(document)
  local migrated = migrate(tree, from, to)
  return to_document(migrated)
end

return migration
