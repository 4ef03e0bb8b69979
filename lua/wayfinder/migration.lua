-- Migrations of a saved navigation state (docs/persistence.md, "Versions and migrations"): the
-- app's `migrate(state, from, to)`, which wf.app sets, is handed the saved state as a tree by
-- name and returns it so (wayfinder.migration_tree, loaded at the first migration: most launches
-- never run one, and need not compile it).
local require = require

local migration = {}

-- The app's migrate function, set by wf.app.
local migrate

function migration._set(fn)
  migrate = fn
end

-- What the host calls: the document migrated from version `from` to `to`, or an error.
function migration._run(document, from, to)
  local tree = require "wayfinder.migration_tree"
  return tree.to_document(migrate(tree.to_tree(document), from, to))
end

return migration
