/// The navigation tree as plain values: what a UI renders, and what every `NavigationEvent`
/// carries as the tree after its change (docs/events.md). It holds no controllers, so it can
/// be kept, compared and sent to another isolation domain; entries are told apart by `id`, so
/// a presenter knows which of its views each one is across events.
public struct NavigationSnapshot: Sendable, Hashable {
    /// One screen.
    public struct Entry: Sendable, Hashable, Identifiable {
        /// The tree entry's `NavigationEntry.id`: unique in the process, the same in every
        /// snapshot and event for as long as the entry is in the tree.
        public var id: Int
        /// The URL it was opened with.
        public var url: String
        /// Whether its controller is made. A restored entry, or a tab not selected yet, waits
        /// unmade until it is about to be seen (a `.loaded` change says when).
        public var isLoaded: Bool

        /// An entry as a test or a presenter of its own describes one.
        public init(id: Int, url: String, isLoaded: Bool) {
            self.id = id
            self.url = url
            self.isLoaded = isLoaded
        }
    }

    /// The root: one stack, or tabs of stacks with one selected (0-based). Stacks list their
    /// entries bottom first.
    public enum Root: Sendable, Hashable {
        /// One stack.
        case stack([Entry])
        /// One stack per tab, and the selected tab's index.
        case tabs([[Entry]], selected: Int)
    }

    /// A stack of the tree: the root's (when the root is one stack), tab `n`'s, or modal `n`'s
    /// (0 is the lowest modal). Numbers are 0-based.
    public enum StackLocation: Sendable, Hashable {
        /// The root's stack, when the root is one stack (not tabs).
        case root
        /// The stack of the tab at this index.
        case tab(Int)
        /// The modal stack at this index.
        case modal(Int)
    }

    /// Where an entry sits: `index` counts from the bottom of its stack, from 0.
    public enum Location: Sendable, Hashable {
        /// In the root's stack, when the root is one stack.
        case root(index: Int)
        /// In the stack of the tab at the first index.
        case tab(Int, index: Int)
        /// In the modal stack at the first index.
        case modal(Int, index: Int)
        /// The popover.
        case popover
    }

    /// The root: one stack, or tabs.
    public var root: Root
    /// Modal stacks, lowest first, each with at least one entry.
    public var modals: [[Entry]]
    /// The popover, above everything, when one shows.
    public var popover: Entry?

    /// A tree described by hand (an empty one by default: one empty stack).
    public init(root: Root = .stack([]), modals: [[Entry]] = [], popover: Entry? = nil) {
        self.root = root
        self.modals = modals
        self.popover = popover
    }

    /// The tree as it is now.
    public init<Controller>(_ tree: NavigationTree<Controller>) {
        func entries(_ stack: NavigationStack<Controller>) -> [Entry] { stack.entries.map(Entry.init) }
        switch tree.root {
        case .stack(let stack): root = .stack(entries(stack))
        case .tabs(let tabs, let selected): root = .tabs(tabs.map(entries), selected: selected)
        }
        modals = tree.modals.map(entries)
        popover = tree.popover.map(Entry.init)
    }

    /// What the user sees: the popover, else the top of the top modal, else the top of the
    /// root's stack (the selected tab's).
    public var visible: Entry? {
        if let popover { return popover }
        if let modal = modals.last { return modal.last }
        switch root {
        case .stack(let entries): return entries.last
        case .tabs(let tabs, let selected): return tabs.indices.contains(selected) ? tabs[selected].last : nil
        }
    }

    /// The selected tab (0-based), nil when the root is one stack.
    public var selectedTab: Int? {
        if case .tabs(_, let selected) = root { return selected }
        return nil
    }

    /// The entries of a stack, bottom first; nil when the tree has no such stack.
    public func entries(in stack: StackLocation) -> [Entry]? {
        switch (stack, root) {
        case (.root, .stack(let entries)): return entries
        case (.tab(let t), .tabs(let tabs, _)): return tabs.indices.contains(t) ? tabs[t] : nil
        case (.modal(let m), _): return modals.indices.contains(m) ? modals[m] : nil
        default: return nil
        }
    }

    /// The snapshot in the shape `nav:tree()` returns and `--json` prints (docs/lua-api.md):
    /// `{ root = { kind = "tabs", selected = 1, tabs = {...} }, modals = {...}, popover = ..., visible = url }`,
    /// entries as `{ url = ..., loaded = ... }`. Tab numbers are 1-based, as Lua counts.
    public var value: Value {
        func stack(_ entries: [Entry]) -> Value { ["kind": "stack", "entries": .array(entries.map(entry))] }
        func entry(_ entry: Entry) -> Value { ["url": .string(entry.url), "loaded": .bool(entry.isLoaded)] }
        var fields: [(String, Value)] = []
        switch root {
        case .stack(let entries):
            fields.append(("root", stack(entries)))
        case .tabs(let tabs, let selected):
            fields.append(("root", ["kind": "tabs", "selected": .int(TabNumber.number(of: selected)), "tabs": .array(tabs.map(stack))]))
        }
        fields.append(("modals", .array(modals.map(stack))))
        if let popover { fields.append(("popover", entry(popover))) }
        fields.append(("visible", visible.map { .string($0.url) } ?? .null))
        return .map(.init(uniqueKeysWithValues: fields))
    }
}

extension NavigationSnapshot.Entry {
    init<Controller>(_ entry: NavigationEntry<Controller>) {
        self.init(id: entry.id, url: entry.url, isLoaded: entry.isLoaded)
    }
}

extension NavigationTree {
    /// The tree as a `Value`, in the shape `nav:tree()` returns (`NavigationSnapshot.value`).
    public var snapshot: Value { NavigationSnapshot(self).value }
}
