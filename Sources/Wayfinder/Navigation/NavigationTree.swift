/// A stack of entries; the last is on top.
public struct NavigationStack<Controller: AnyObject> {
    /// The stack's entries, bottom first.
    public internal(set) var entries: [NavigationEntry<Controller>]

    /// Array's own members only, here and in the tree's other hot paths: the protocol
    /// extensions (`last`, `isEmpty`, `removeLast`) are not specialized where the navigator runs
    /// generically, and each of their calls looks the array's type up at run time.
    public var top: NavigationEntry<Controller>? { lastEntry(entries) }
}

/// The last entry, as a free function: calling a member of the generic `NavigationStack` from
/// unspecialized code first looks up the stack type's metadata.
@inline(__always)
func lastEntry<Controller>(_ entries: [NavigationEntry<Controller>]) -> NavigationEntry<Controller>? {
    let count = entries.count
    return count == 0 ? nil : entries[count - 1]
}

/// The whole hierarchy: a root (one stack, or tabs of stacks), modal stacks above it, and at most
/// one popover above everything. A value: the navigator changes a copy and keeps it only when an
/// operation succeeds, so a failed open leaves the tree exactly as it was.
public struct NavigationTree<Controller: AnyObject> {
    /// What stands at the bottom of the tree: one stack, or tabs.
    public enum Root {
        /// A single stack.
        case stack(NavigationStack<Controller>)
        /// Tabs, each a stack, and the index of the selected one (from 0).
        case tabs([NavigationStack<Controller>], selected: Int)
    }

    /// Where an entry sits.
    public enum Location: Equatable {
        /// In the root stack, at `index`.
        case root(index: Int)
        /// In the tab at the first index (from 0), at `index` in its stack.
        case tab(Int, index: Int)
        /// In the modal at the first index (from 0, bottom first), at `index` in its stack.
        case modal(Int, index: Int)
        /// The popover.
        case popover
    }

    /// The root: one stack, or tabs.
    public internal(set) var root: Root = .stack(NavigationStack(entries: []))
    /// The modals over the root, bottom first.
    public internal(set) var modals: [NavigationStack<Controller>] = []
    /// The popover over everything, if one is open.
    public internal(set) var popover: NavigationEntry<Controller>?

    /// An empty tree: a root stack with no entries.
    public init() {}

    /// The entry the user sees: the popover, else the top of the top modal, else the top of the selected
    /// stack.
    public var visible: NavigationEntry<Controller>? {
        if let popover { return popover }
        return lastEntry(frontEntries)
    }

    /// The entries of the stack the user is looking at (under the popover, when one shows):
    /// the top modal's, else the root's, which is the selected tab's when the root is tabs. The
    /// one place that tells them apart: `visible`, push, pop and dropping the visible entry all
    /// go through it and `changeFrontEntries`.
    var frontEntries: [NavigationEntry<Controller>] {
        let m = modals.count
        if m > 0 { return modals[m - 1].entries }
        switch root {
        case .stack(let stack): return stack.entries
        case .tabs(let tabs, let selected): return tabs[selected].entries
        }
    }

    /// Changes the entries of the stack `frontEntries` reads, in place, and answers what `body`
    /// answers. A closure, not a `_modify` accessor: in the navigator's unspecialized code a
    /// coroutine over a generic stack would allocate its frame on every push and pop.
    mutating func changeFrontEntries(_ body: (inout [NavigationEntry<Controller>]) -> Bool) -> Bool {
        let m = modals.count
        if m > 0 { return body(&modals[m - 1].entries) }
        switch root {
        case .stack(var stack):
            let changed = body(&stack.entries)
            root = .stack(stack)
            return changed
        case .tabs(var tabs, let selected):
            let changed = body(&tabs[selected].entries)
            root = .tabs(tabs, selected: selected)
            return changed
        }
    }

    /// Every entry: the root's stacks, the modals, the popover.
    public var allEntries: [NavigationEntry<Controller>] {
        var entries = [NavigationEntry<Controller>]()
        switch root {
        case .stack(let stack): entries += stack.entries
        case .tabs(let tabs, _): for tab in tabs { entries += tab.entries }
        }
        for modal in modals { entries += modal.entries }
        if let popover { entries.append(popover) }
        return entries
    }

    /// The index of the selected tab (from 0); nil when the root is one stack.
    public var selectedTab: Int? {
        if case .tabs(_, let selected) = root { return selected }
        return nil
    }

    /// Where the entry with this key stands; nil when it is not in the tree.
    public func location(of key: String) -> Location? {
        if popover?.key == key { return .popover }
        for (m, modal) in modals.enumerated().reversed() {
            if let index = modal.entries.lastIndex(where: { $0.key == key }) { return .modal(m, index: index) }
        }
        switch root {
        case .stack(let stack):
            if let index = stack.entries.lastIndex(where: { $0.key == key }) { return .root(index: index) }
        case .tabs(let tabs, let selected):
            // The selected tab first: sharing prefers what the user is looking at.
            let order = [selected] + tabs.indices.filter { $0 != selected }
            for t in order {
                if let index = tabs[t].entries.lastIndex(where: { $0.key == key }) { return .tab(t, index: index) }
            }
        }
        return nil
    }

    /// The entry at `location`; nil when nothing stands there.
    public func entry(at location: Location) -> NavigationEntry<Controller>? {
        switch location {
        case .popover: return popover
        case .modal(let m, let index): return modals[m].entries[index]
        case .root(let index):
            if case .stack(let stack) = root { return stack.entries[index] }
            return nil
        case .tab(let t, let index):
            if case .tabs(let tabs, _) = root { return tabs[t].entries[index] }
            return nil
        }
    }

    // MARK: Changes (the navigator applies these to its working copy)

    /// Pushes on the visible stack. A popover above it closes first, as it does for a modal: the
    /// new screen is what the user sees.
    mutating func push(_ entry: NavigationEntry<Controller>) {
        popover = nil
        _ = changeFrontEntries { entries in
            entries.append(entry)
            return true
        }
    }

    /// Makes the entry at `location` visible: closes what is above it, selects its tab, and pops
    /// its stack back to it.
    mutating func bringToFront(_ location: Location) {
        switch location {
        case .popover:
            return
        case .modal(let m, let index):
            popover = nil
            modals.removeSubrange((m + 1)...)
            modals[m].entries.removeSubrange((index + 1)...)
        case .root(let index):
            popover = nil
            modals.removeAll()
            if case .stack(var stack) = root {
                stack.entries.removeSubrange((index + 1)...)
                root = .stack(stack)
            }
        case .tab(let t, let index):
            popover = nil
            modals.removeAll()
            if case .tabs(var tabs, _) = root {
                tabs[t].entries.removeSubrange((index + 1)...)
                root = .tabs(tabs, selected: t)
            }
        }
    }

    /// Closes the popover when one shows (and nothing else: the popover is what the user sees),
    /// else pops the visible stack. False at the bottom of a stack.
    mutating func pop() -> Bool {
        if popover != nil {
            popover = nil
            return true
        }
        return changeFrontEntries(Self.popAboveBottom)
    }

    /// Pops the last entry unless it is the only one.
    private static func popAboveBottom(_ entries: inout [NavigationEntry<Controller>]) -> Bool {
        let count = entries.count
        guard count > 1 else { return false }
        entries.remove(at: count - 1)
        return true
    }

    /// Closes the popover, else the top modal. False when there is neither.
    mutating func dismiss() -> Bool {
        if popover != nil {
            popover = nil
            return true
        }
        guard !modals.isEmpty else { return false }
        modals.removeLast()
        return true
    }

    mutating func select(_ tab: Int) -> Bool {
        guard case .tabs(let tabs, _) = root, tabs.indices.contains(tab) else { return false }
        root = .tabs(tabs, selected: tab)
        return true
    }

    mutating func presentModal(_ entry: NavigationEntry<Controller>) {
        popover = nil
        modals.append(NavigationStack(entries: [entry]))
    }

    mutating func presentPopover(_ entry: NavigationEntry<Controller>) {
        popover = entry
    }

    mutating func setTabs(_ stacks: [NavigationStack<Controller>], selected: Int) {
        popover = nil
        modals.removeAll()
        root = .tabs(stacks, selected: selected)
    }
}

extension NavigationTree {
    /// The selected tab, when the visible entry is that tab's only entry (no modal or popover above).
    var visibleTabRoot: Int? {
        guard popover == nil, modals.isEmpty, case .tabs(let tabs, let selected) = root,
              tabs[selected].entries.count == 1 else { return nil }
        return selected
    }

    /// Selects the first tab not in `avoiding`; false when every tab is in it.
    mutating func selectTab(avoiding: Set<Int>) -> Bool {
        guard case .tabs(let tabs, _) = root, let other = tabs.indices.first(where: { !avoiding.contains($0) }) else { return false }
        root = .tabs(tabs, selected: other)
        return true
    }

    /// Takes the visible entry out of the tree (one that cannot be made). A stack left empty goes
    /// with it: a modal is closed, a tab removed (the one before it is selected).
    mutating func removeVisible() {
        if popover != nil {
            popover = nil
            return
        }
        let count = frontEntries.count
        if count > 0 { _ = changeFrontEntries { $0.remove(at: count - 1); return true } }
        guard count <= 1 else { return }
        if !modals.isEmpty {
            modals.removeLast()
        } else if case .tabs(var tabs, let selected) = root {
            tabs.remove(at: selected)
            root = tabs.isEmpty ? .stack(NavigationStack(entries: [])) : .tabs(tabs, selected: max(0, selected - 1))
        }
    }
}
