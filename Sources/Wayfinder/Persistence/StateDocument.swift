/// The names in a state file's document (docs/persistence.md), declared once: the document is
/// written and read by them (`NavigationState+Document.swift`), a migration is handed it by them,
/// and the Lua side that shows a migration the tree (lua/wayfinder/migration_tree.lua) is given them
/// rather than spelling them again.
package enum StateDocument {
    /// The document's top-level members, in the order they are written.
    package enum Member: String, CaseIterable, Sendable {
        case format, version, app, appVersion = "app_version", savedAt = "saved_at", mode, root, modals, popover, pending, contexts
    }

    /// The members of `root`: its kind, and a stack's entries or the tabs and the selected one.
    package enum RootField: String, CaseIterable, Sendable {
        case kind, entries, tabs, selected
    }

    /// What `root.kind` says the root is.
    package enum RootKind: String, CaseIterable, Sendable {
        case stack, tabs
    }

    /// An entry's fields, in the order they are written.
    package enum EntryField: String, CaseIterable, Sendable {
        case url, query, state, context, important, model, title
    }

    /// A list's position by model identifier: an entry's `model`, the same record an open's
    /// action hands a restored controller.
    package enum ModelField: String, CaseIterable, Sendable {
        case selected, anchor
    }

    /// The fields of the open a guard keeps waiting, in the order they are written.
    package enum PendingField: String, CaseIterable, Sendable {
        case url, query, parent, state, presentation, link, since
    }

    /// A context layer's fields, in the order they are written.
    package enum ContextField: String, CaseIterable, Sendable {
        case name, fields, values, inner, app
    }
}
