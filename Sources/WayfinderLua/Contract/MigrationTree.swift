import Wayfinder

/// The saved state as an app's `migrate(state, from, to)` sees it (lua/wayfinder/migration_tree.lua):
/// the document's tree by name, every entry a table of `StateDocument.EntryField`s, every
/// context a table of `StateDocument.ContextField`s shared by the entries that use it. Its names
/// are the document's (`StateDocument`), handed to the Lua side rather than spelled there, and
/// the few of its own: the root by name (`stack`, or `tabs` and `selected`, as `root.kind`
/// says) and a context's stored nils, which a Lua table cannot hold, as the list `nils`.
enum MigrationTree {
    /// The document's members the tree keeps as they are.
    static let keptMembers: [StateDocument.Member] = [.app, .savedAt, .mode, .modals, .popover, .pending]

    /// The key a context's stored nils cross under.
    enum ContextNils: String, CrossingRecord { case nils }

    /// The tree's fields: the kept members, and the root by name.
    static var treeKeys: [String] {
        keptMembers.map(\.rawValue) + [StateDocument.RootKind.stack.rawValue, StateDocument.RootField.tabs.rawValue,
                                       StateDocument.RootField.selected.rawValue]
    }

    /// Every record of the document and the tree, as `wayfinder.native.app`'s `state_fields()`.
    static var exported: Value {
        ["document": StateDocument.Member.exported, "root": StateDocument.RootField.exported, "kinds": StateDocument.RootKind.exported,
         "entry": StateDocument.EntryField.exported, "model": StateDocument.ModelField.exported,
         "pending": StateDocument.PendingField.exported, "context": StateDocument.ContextField.exported,
         "context_nils": ContextNils.exported, "tree": .array(treeKeys.map(Value.string))]
    }
}
