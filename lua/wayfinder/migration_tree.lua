-- The saved state as a migration sees it, and back (docs/persistence.md, "Versions and
-- migrations"). The host hands over the saved document, whose parts refer to each other by
-- position (an entry's context is an index into a list of contexts); the app's `migrate(state,
-- from)` sees the tree by name instead: every entry a table of named fields, every context a table
-- shared by the entries and layers that use it, and the open a guard keeps waiting as `pending`.
-- What migrate returns is checked here, naming the path of the first part that does not fit, and
-- turned back into a document for the host. Loaded at the first migration (wayfinder.migration),
-- which most launches never run.
local native = require "wayfinder.native.app"
local fields = require "wayfinder.fields"

-- The document's names and the tree's (StateDocument.swift, MigrationTree.swift), as the host
-- declares them: the document's members, its root's, the root's kinds, an entry's, a model
-- position's, the waiting open's and a context's, and the key of a context's stored nils.
local exported = native.state_fields()
local D, R, K = fields.keys(exported.document), fields.keys(exported.root), fields.keys(exported.kinds)
local E, P, C = fields.keys(exported.entry), fields.keys(exported.pending), fields.keys(exported.context)
local NILS = fields.keys(exported.context_nils).nils
local entry_fields, pending_fields = fields.set(exported.entry), fields.set(exported.pending)
local ENTRY_NAMES, PENDING_NAMES = fields.names(exported.entry), fields.names(exported.pending)
local model_fields, context_fields = fields.set(exported.model), fields.set(exported.context)
context_fields[NILS] = true
local tree_fields = {}
for _, name in ipairs(exported.tree) do tree_fields[name] = true end

-- Raised with no position: the host names the migrate function's own file:line.
local function fail(path, message)
  error("the state it returned is not valid: " .. path .. " " .. message, 0)
end

-- The by-name tree of a document. ---------------------------------------------------------------

local function to_tree(document)
  local contexts = {}
  for i, saved in ipairs(document[D.contexts] or {}) do
    local nils
    for _, key in ipairs(saved[NILS] or {}) do
      nils = nils or {}
      nils[key] = true
    end
    local inner = saved[C.inner]
    contexts[i] = {
      [C.name] = saved[C.name], [C.fields] = saved[C.fields], [C.values] = saved[C.values] or {}, [NILS] = nils,
      [C.app] = saved[C.app] or nil, [C.inner] = inner ~= nil and contexts[inner + 1] or nil,
    }
  end
  local function entry(saved)
    local tree_entry = {}
    for _, name in ipairs(ENTRY_NAMES) do tree_entry[name] = saved[name] end
    tree_entry[E.important] = saved[E.important] or false
    local context = saved[E.context]
    tree_entry[E.context] = context ~= nil and contexts[context + 1] or nil
    return tree_entry
  end
  local function stack(saved)
    local entries = {}
    for i, item in ipairs(saved or {}) do entries[i] = entry(item) end
    return entries
  end
  local popover = document[D.popover]
  local tree = {
    [D.app] = document[D.app], [D.savedAt] = document[D.savedAt], [D.mode] = document[D.mode], [D.modals] = {},
    [D.popover] = popover and entry(popover) or nil,
  }
  local pending = document[D.pending]
  if pending ~= nil then
    local waiting = {}
    for _, name in ipairs(PENDING_NAMES) do waiting[name] = pending[name] end
    waiting[P.link] = pending[P.link] or false
    tree[D.pending] = waiting
  end
  local root = document[D.root]
  if root[R.kind] == K.tabs then
    local tabs = {}
    for i, tab in ipairs(root[R.tabs]) do tabs[i] = stack(tab) end
    tree[R.tabs] = tabs
    tree[R.selected] = root[R.selected]
  else
    tree[K.stack] = stack(root[R.entries])
  end
  for i, modal in ipairs(document[D.modals] or {}) do tree[D.modals][i] = stack(modal) end
  return tree
end

-- Back to a document. ---------------------------------------------------------------------------


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
    local at = path .. "."
    optional(ctx[C.name], "string", at .. C.name)
    optional(ctx[C.fields], "table", at .. C.fields)
    optional(ctx[C.values], "table", at .. C.values)
    optional(ctx[NILS], "table", at .. NILS)
    optional(ctx[C.app], "boolean", at .. C.app)
    for key, value in pairs(ctx[C.values] or {}) do
      if type(key) ~= "string" then fail(at .. C.values, "has a key of type " .. type(key)) end
      check_plain(value, at .. C.values .. "." .. key, {})
    end
    for key, kind in pairs(ctx[C.fields] or {}) do
      if type(key) ~= "string" or type(kind) ~= "string" then fail(at .. C.fields, "must map field names to type names") end
    end
    local nils = {}
    for key, set in pairs(ctx[NILS] or {}) do
      if type(key) ~= "string" or set ~= true then fail(at .. NILS, "must map keys to true") end
      nils[#nils + 1] = key
    end
    table.sort(nils)
    local values = ctx[C.values]
    if values ~= nil and next(values) == nil then values = nil end
    local declared = ctx[C.fields]
    if declared ~= nil and next(declared) == nil then declared = nil end
    return {
      [C.name] = ctx[C.name], [C.fields] = declared, [C.values] = values, [NILS] = #nils > 0 and nils or nil,
      [C.app] = ctx[C.app] or nil,
    }
  end

  -- The path of the layer `levels` inward from the one at `path`: spelled out near the top,
  -- counted further in (a chain may be as long as the script made it).
  local function inner_path(path, levels)
    if levels <= 8 then return path .. string.rep("." .. C.inner, levels) end
    return path .. "." .. C.inner .. " (" .. levels .. " layers in)"
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
      layer = layer[C.inner]
    end
    for level = #chain, 1, -1 do
      local inner = chain[level][C.inner]
      made[level][C.inner] = inner ~= nil and index[inner] or nil
      contexts[#contexts + 1] = made[level]
      index[chain[level]] = #contexts - 1
    end
    return index[ctx]
  end

  -- A saved open's query (string keys, then plain values) and state (plain values), as the
  -- file's reader checks them; the query as kept, nil when empty.
  local function checked_request(query, state, query_at, state_at)
    if query ~= nil then
      for key in pairs(query) do
        if type(key) ~= "string" then fail(query_at, "has a key of type " .. type(key)) end
      end
      check_plain(query, query_at, {})
    end
    if state ~= nil then check_plain(state, state_at, {}) end
    if query ~= nil and next(query) == nil then return nil end
    return query
  end

  local function entry(item, path)
    if type(item) ~= "table" then fail(path, "must be an entry table, got " .. type(item)) end
    check_fields(item, entry_fields, path)
    local at = path .. "."
    local url, query, state, model = item[E.url], item[E.query], item[E.state], item[E.model]
    if type(url) ~= "string" then fail(at .. E.url, "must be a string, got " .. type(url)) end
    optional(query, "table", at .. E.query)
    optional(item[E.title], "string", at .. E.title)
    optional(item[E.important], "boolean", at .. E.important)
    optional(model, "table", at .. E.model)
    query = checked_request(query, state, at .. E.query, at .. E.state)
    if model ~= nil then
      check_fields(model, model_fields, at .. E.model)
      check_plain(model, at .. E.model, {})
    end
    local ctx = item[E.context]
    return {
      [E.url] = url, [E.query] = query, [E.state] = state, [E.title] = item[E.title],
      [E.important] = item[E.important] or nil, [E.model] = model,
      [E.context] = ctx ~= nil and context(ctx, at .. E.context) or nil,
    }
  end

  -- The open a guard keeps waiting: its presentation's name and its time's form are the host's
  -- to check, as when the state file is read.
  local function pending(item)
    local path = D.pending
    if type(item) ~= "table" then fail(path, "must be a table, got " .. type(item)) end
    check_fields(item, pending_fields, path)
    local at = path .. "."
    local url, query, state, since = item[P.url], item[P.query], item[P.state], item[P.since]
    if type(url) ~= "string" then fail(at .. P.url, "must be a string, got " .. type(url)) end
    optional(query, "table", at .. P.query)
    optional(item[P.parent], "string", at .. P.parent)
    optional(item[P.presentation], "string", at .. P.presentation)
    optional(item[P.link], "boolean", at .. P.link)
    if type(since) ~= "string" then fail(at .. P.since, "must be a string, got " .. type(since)) end
    query = checked_request(query, state, at .. P.query, at .. P.state)
    return {
      [P.url] = url, [P.query] = query, [P.parent] = item[P.parent], [P.state] = state, [P.presentation] = item[P.presentation],
      [P.link] = item[P.link] or nil, [P.since] = since,
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
  local TABS, STACK, SELECTED = R.tabs, K.stack, R.selected
  local tree_tabs, tree_stack, tree_selected = tree[TABS], tree[STACK], tree[SELECTED]
  if tree_tabs ~= nil and tree_stack ~= nil then fail("the state", "has both " .. STACK .. " and " .. TABS .. "; it must have one") end
  if tree_tabs ~= nil then
    if type(tree_tabs) ~= "table" then fail(TABS, "must be a list of stacks, got " .. type(tree_tabs)) end
    local tabs = {}
    for i = 1, #tree_tabs do tabs[i] = stack(tree_tabs[i], TABS .. "[" .. i .. "]") end
    if #tabs == 0 then fail(TABS, "is empty; a state with tabs has at least one") end
    local selected = tree_selected == nil and 1 or tree_selected
    if math.type(selected) ~= "integer" or selected < 1 or selected > #tabs then
      fail(SELECTED, "must be a tab number from 1 to " .. #tabs .. ", got " .. tostring(selected))
    end
    document[D.root] = { [R.kind] = K.tabs, [R.tabs] = tabs, [R.selected] = selected }
  else
    if tree_selected ~= nil then fail(SELECTED, "is only for tabs") end
    document[D.root] = { [R.kind] = K.stack, [R.entries] = stack(tree_stack or {}, STACK) }
  end
  local modals, tree_modals = {}, tree[D.modals]
  if tree_modals ~= nil then
    if type(tree_modals) ~= "table" then fail(D.modals, "must be a list of stacks, got " .. type(tree_modals)) end
    for i = 1, #tree_modals do modals[i] = stack(tree_modals[i], D.modals .. "[" .. i .. "]") end
  end
  document[D.modals] = modals
  if tree[D.popover] ~= nil then document[D.popover] = entry(tree[D.popover], D.popover) end
  if tree[D.pending] ~= nil then document[D.pending] = pending(tree[D.pending]) end
  document[D.contexts] = contexts
  return document
end

return { to_tree = to_tree, to_document = to_document }
