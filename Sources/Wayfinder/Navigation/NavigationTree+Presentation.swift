/// The changes the presentation verbs make to a working tree before a screen is placed
/// (`Presentation`), and the check that they did not leave the root without a screen.
extension NavigationTree {
    /// The number of entries in each stack of the root: one number for a single stack, one per tab.
    var rootStackSizes: [Int] {
        switch root {
        case .stack(let stack): return [stack.entries.count]
        case .tabs(let tabs, _): return tabs.map(\.entries.count)
        }
    }

    /// The stack the user is looking at: the top modal's, else the root's or the selected tab's.
    private var visibleStackEntries: [NavigationEntry<Controller>] {
        get {
            if let last = modals.indices.last { return modals[last].entries }
            switch root {
            case .stack(let stack): return stack.entries
            case .tabs(let tabs, let selected): return tabs[selected].entries
            }
        }
        set {
            if let last = modals.indices.last {
                modals[last].entries = newValue
                return
            }
            switch root {
            case .stack(var stack):
                stack.entries = newValue
                root = .stack(stack)
            case .tabs(var tabs, let selected):
                tabs[selected].entries = newValue
                root = .tabs(tabs, selected: selected)
            }
        }
    }

    /// `replace`: takes out the screen the user sees: the popover, else the top of the visible
    /// stack. A modal left without screens stays for the new screen to go in (`removingEmptyModals`
    /// takes it away when nothing went there). False when nothing shows.
    mutating func takeOutVisible() -> Bool {
        if popover != nil {
            popover = nil
            return true
        }
        var entries = visibleStackEntries
        guard !entries.isEmpty else { return false }
        entries.removeLast()
        visibleStackEntries = entries
        return true
    }

    /// `replace_root`: closes the popover and empties the visible stack, for the new screen to be
    /// its only one.
    mutating func emptyVisibleStack() {
        popover = nil
        visibleStackEntries = []
    }

    /// `clear_all`: closes the popover and every modal, and pops the root's visible stack (the
    /// selected tab's) back to its first screen.
    mutating func clearToRoot() {
        popover = nil
        modals.removeAll()
        let entries = visibleStackEntries
        if entries.count > 1 { visibleStackEntries = [entries[0]] }
    }

    /// `pop`: back one screen: the popover closes, else the visible stack pops, else a modal of
    /// one screen is dismissed. False at the bottom of the root stack.
    mutating func backOne() -> Bool {
        if pop() { return true }
        return dismiss()
    }

    /// `Navigator.popToRoot`: closes the popover and pops the visible stack back to its first
    /// screen. False when there was nothing to close or pop.
    mutating func popVisibleStackToRoot() -> Bool {
        var changed = false
        if popover != nil {
            popover = nil
            changed = true
        }
        let entries = visibleStackEntries
        if entries.count > 1 {
            visibleStackEntries = [entries[0]]
            changed = true
        }
        return changed
    }

    /// `refresh`: the visible entry's place given to `entry` (the popover, or the top of the
    /// visible stack).
    mutating func replaceVisible(with entry: NavigationEntry<Controller>) {
        if popover != nil {
            popover = entry
            return
        }
        var entries = visibleStackEntries
        guard !entries.isEmpty else { return }
        entries[entries.count - 1] = entry
        visibleStackEntries = entries
    }

    /// Takes away modals a verb emptied and nothing filled again.
    mutating func removingEmptyModals() {
        modals.removeAll { $0.entries.isEmpty }
    }
}
